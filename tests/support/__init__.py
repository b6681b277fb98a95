"""Helpers that tests of more than one folder import.

Where a helper lives (tests/test_test_layout.py holds these rules):
- a helper module imported by tests of more than one folder (`tests/ui/`, `tests/emulator/`, the root's
  `tests/test_*.py` count as one folder, ...) lives here, named by what it holds;
- one imported by a single folder's tests lives in that folder, beside them (`tests/api/mock_service.py`,
  `tests/contract/refusals.py`, `tests/e2e/pty_terminal.py`, ...);
- a conftest.py holds fixtures and hooks only, and nothing imports from one. A fixture that tests of
  another folder need would be a plugin module here, listed in `pytest_plugins` of tests/conftest.py
  (none is so far).

The modules:
- browser_pages: the browser tests' web site (ORIGIN, by request interception), `PagesBackend`, `loopback_site`.
- clean_home: a `wds-tui` process's own home (`environment`, KEY): the watch tests' and the soak benchmark's.
- crawl_sockets: the emulator without its crawl WebSocket (`served_without_socket`), hostile `socket_server`s.
- dashboard: the dashboard on a seeded emulator in-process (`dashboard`, `PaneHost`, KEY, NOW, ...) and pilot waits.
- emulator_teams: the emulator tests' teams' keys (ALPHA_KEY, BETA_KEY, ...), START, `auth`, `client_for`.
- faulty_emulator: the emulator on a loopback socket with its fault rules (`faulty_emulator`, `Faults`).
- hostile_server: `HostileServer`, a real socket that answers as no emulator ever would (bombs, deep JSON, ...).
- import_graph: `ImportGraph`, a package's imports read with `ast` (circles, long modules).
- marker_report: a pytest plugin printing each collected test's markers (`-p tests.support.marker_report`).
- processes: the processes tests start and look for (an emulator or `serve` in a child, their children).
- recording_backend: `RecordingBackend`, a browser backend that starts nothing and records what it was asked.
- webhook_receiver: `Receiver` and `ThreadedReceiver`, a webhook receiver on a loopback socket.
"""
