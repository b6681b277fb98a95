"""In a real terminal: a failed job raises an alert (issue 22's done-when), seen as an operator and as the terminal.

A real `wds-tui` in tmux, on a served emulator, with a config whose
`job_failed` rule fires on one failure of acme-outdoor.com. A scrape of a page
that site does not have fails with a 404; then:

- the screen (capture-pane) shows the toast and the header's count, and `A`
  lists the alert;
- the raw output of the pane (`pipe-pane`, what the program wrote, before tmux
  reads it) holds the desktop notification: OSC 9, chosen by `auto` from
  `LC_TERMINAL=iTerm2` (what iTerm2 sets, and ssh passes on), wrapped for tmux's
  passthrough since `TMUX` is set, then the bell.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_tmux import Terminal, pytestmark  # noqa: F401 - skipped without tmux
from tests.support.processes import served_emulator

KEY = "wds-" + "4e" * 16
REFRESH = 2
CONFIG = """\
base_url = "{url}"
api_key = "{key}"

[alerts.job_failed]
count = 1
hosts = ["acme-outdoor.com"]

[alerts.delivery]
notification = "auto"
bell = true
"""
OSC9_IN_PASSTHROUGH = b"\x1bPtmux;\x1b\x1b]9;wds-tui alert: job_failed: 1 job failed (host acme-outdoor.com)"


@pytest.fixture
def service() -> Iterator[str]:
    with served_emulator(KEY, 5) as url:
        yield url


def test_a_failed_job_raises_an_alert_toast_header_count_and_an_osc_9_notification(
    service: str, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(url=service, key=KEY))
    config.chmod(0o600)
    env = {
        "TERM": "xterm-256color",
        "LC_TERMINAL": "iTerm2",
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "WDS_CONFIG": str(config),
        "PATH": os.environ.get("PATH", ""),
    }
    status = tmp_path / "exit-status"
    raw = tmp_path / "raw-output"
    command = f"{sys.executable} -m tui --refresh {REFRESH}; echo $? > {status}"
    terminal = Terminal(["sh", "-c", command], env, status)
    try:
        terminal.tmux(["pipe-pane", "-o", "-t", terminal.name, f"cat >> {raw}"], check=True)
        terminal.wait_for("more (n)")
        assert "alert" not in terminal.screen().splitlines()[0]  # nothing fires before the failure

        answer = httpx.post(
            f"{service}/v2/scrape",
            json={"url": "https://acme-outdoor.com/no-such-page"},
            headers={"Authorization": f"Bearer {KEY}"},
            timeout=30,
        )
        assert answer.json()["data"]["metadata"]["statusCode"] == 404

        screen = terminal.wait_for("▲ 1 alert", seconds=8 * REFRESH)
        assert "▲ 1 alert" in screen.splitlines()[0], screen  # the header's count
        screen = terminal.wait_for("▲ job_failed")  # the toast's title, its sentence under it
        assert "1 job failed (host" in screen and "acme-outdoor.com" in screen, screen

        deadline = time.monotonic() + 10
        while OSC9_IN_PASSTHROUGH not in raw.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.2)
        output = raw.read_bytes()
        start = output.find(OSC9_IN_PASSTHROUGH)
        assert start >= 0, output[-2000:]
        end = output.find(b"\x07\x1b\\", start)  # the OSC's BEL, then the passthrough's ST
        assert end > start and output[end + 3 : end + 4] == b"\x07", output[start : end + 8]  # then the bell

        terminal.keys("A")
        screen = terminal.wait_for("firing (1)")
        assert "job_failed" in screen and "acme-outdoor.com" in screen, screen
        terminal.keys("Escape")
        terminal.wait_for("Team activity")
        terminal.keys("q")
        deadline = time.monotonic() + 15
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status.read_text().strip() == "0"
    finally:
        terminal.kill()
