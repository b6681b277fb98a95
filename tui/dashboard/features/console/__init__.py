"""The execute console, in one place: what it runs and remembers (`history`), the
screen (`screen`), how a run is shown (`output`) and the live CDP panel
(`cdp_panel`).

Nothing is imported here: the dashboard's first frame needs none of it, and
`tui.dashboard.features.console.history` stays importable without the widgets.
"""
