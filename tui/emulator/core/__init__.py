"""The emulator's building blocks: clock, ids, teams and keys, activity, usage and billing,
background tasks, domain errors, and the BM25 text search that the map and docs search share.

Nothing here imports the rest of `tui.emulator`; every other part may use it.
"""
