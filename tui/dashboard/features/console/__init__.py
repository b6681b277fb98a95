"""The execute console, in one place: what it runs and remembers (`history`), the
screen (`screen`), how a run is shown (`output`), the live CDP panel
(`cdp_panel`), and what the console ran in a session that has ended
(`session_detail`, opened from the sessions pane).

Nothing is imported here: the dashboard's first frame needs none of it, and
`tui.dashboard.features.console.history` stays importable without the widgets.
"""
