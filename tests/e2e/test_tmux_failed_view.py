"""In a real terminal: find a failed job through the failed-only view, open it, come back.

(Asking support about it, the end of the issue's tmux scenario, needs the support
screen of another branch; `a` here is tested to post its intent in tests/ui.)
"""

from __future__ import annotations

import time

from tests.e2e.test_tmux import Terminal, terminal  # the fixture, shared

__all__ = ["terminal"]


def test_failed_view_finds_a_failed_job_and_opens_it(terminal: Terminal) -> None:
    terminal.wait_for("more (n)")
    terminal.keys("2")
    terminal.wait_for("Next page")  # the activity pane's keys are in the footer: it has the focus
    terminal.keys("e")
    screen = terminal.wait_for("of the last 24 hours", 60)  # the search went through the whole day
    assert "Failed jobs · last 24 hours · all kinds" in screen
    rows = [line for line in screen.splitlines() if "✗ " in line]
    assert rows, f"no failed job found; the screen was:\n{screen}"
    terminal.keys("Enter")
    terminal.wait_for("JSON")  # the job's screen: its document and JSON tabs
    terminal.keys("Escape")
    terminal.wait_for("Failed jobs · last 24 hours")
    terminal.keys("Escape")
    terminal.wait_for("Team activity")
    terminal.keys("q")
    deadline = time.monotonic() + 15
    while terminal.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert terminal.status_file.read_text().strip() == "0"
