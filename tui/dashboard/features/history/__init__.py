"""The history screen over the journal (`tui.monitor.journal`), and the line that says what happened while you were away.

`span.py` is the span shown (the last 1, 7 or 30 days, or since a moment);
`figures.py` reads the span's figures in the journal's thread; `charts.py` and
`lists.py` draw and export them; `screen.py` puts them on tabs; `away.py` is the
line under the header as the dashboard starts; `journal_state.py` says why there is no history.
"""
