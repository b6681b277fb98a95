"""The HTTP skin of the emulator: `create_app`, authentication, request parsing, error bodies and every route.

Only this package knows Starlette; the stores below it raise domain errors
(`tui.emulator.core.errors`) that `errors.py` turns into the service's bodies.
"""
