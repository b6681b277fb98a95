"""Helpers that tests of more than one folder import.

Where a helper lives: a helper module imported by tests of more than one folder
(`tests/ui/`, `tests/emulator/`, the root's `tests/test_*.py`, ...) lives here; one
imported by a single folder's tests lives in that folder, beside them. A conftest.py
holds fixtures and hooks only, and no test imports from one
(tests/test_test_layout.py holds both rules).

- browser_pages: the browser tests' little web site (`ORIGIN`, served by request interception) and
  `PagesBackend`, a Chromium backend whose browsers see it; `loopback_site` serves it on a real port.
- dashboard: the dashboard on a seeded emulator in-process (`dashboard`, `PaneHost`, `SwitchableTransport`,
  `client_on`, `seeded_emulator`, KEY, NOW, BASE_URL, a frozen clock) and driving it (`wait_until`, `settle`,
  `open_pane`, `freeze_cursors`).
- emulator_teams: the emulator tests' teams (ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, UNKNOWN_KEY), START, the
  bearer header `auth`, and `client_for`, a plain httpx client on an emulator in-process.
- hostile_server: `HostileServer`, a real socket that answers as a hostile or broken service would.
- import_graph: `ImportGraph`, a package's imports read with `ast` (circles, long modules).
- processes: the processes tests start and look for (an emulator or `serve` in a child, their children).
- recording_backend: `RecordingBackend`, a browser backend that starts nothing and records what it was asked.
- webhook_receiver: `Receiver` and `ThreadedReceiver`, a webhook receiver on a loopback socket.
"""
