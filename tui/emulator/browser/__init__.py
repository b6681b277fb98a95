"""Browser sessions and the browsers behind them: the session manager, the backends and their processes.

HTTP lives elsewhere: the session routes, the CDP proxy and the live view are in `tui.emulator.http`.
"""
