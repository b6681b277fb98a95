"""The emulator's building blocks: clock, ids, teams and keys, activity, usage and billing, background tasks, domain errors.

Nothing here imports the rest of `tui.emulator`; every other part may use it.
"""
