"""In a real terminal: copy a job's id from the activity pane (y, OSC 52), then open it with g and a paste.

tmux keeps what an application writes with OSC 52 as a paste buffer when its
`set-clipboard` is on, and pastes it back as a terminal does (bracketed), so
both ends of the round trip are the real ones. The embedded emulator's history
differs from run to run: the job is whatever the first row holds.
"""

from __future__ import annotations

import time

from tests.e2e.test_tmux import Terminal, terminal  # the fixture, shared

__all__ = ["terminal"]


def test_y_copies_a_job_id_and_g_opens_it_from_a_paste(terminal: Terminal) -> None:
    terminal.tmux(["set-option", "-s", "set-clipboard", "on"], check=True)
    terminal.wait_for("more (n)")
    terminal.keys("2")
    terminal.wait_for("Next page")  # the activity pane has the focus, its first row the cursor
    terminal.keys("y")
    terminal.wait_for("Clipboard")
    copied = terminal.tmux(["show-buffer"]).stdout.strip()
    assert len(copied) == 36 and copied.count("-") == 4, f"not a job id: {copied!r}"

    terminal.keys("g")
    terminal.wait_for("Open job by id")
    terminal.tmux(["paste-buffer", "-p", "-t", terminal.name], check=True)
    terminal.keys("Enter")
    # The job's own screen: its title line names the job (a crawl's, a batch's, or any job's detail).
    deadline = time.monotonic() + 30
    screen = terminal.screen()
    while time.monotonic() < deadline and not (copied[:8] in screen.splitlines()[0] and "esc Back" in screen):
        time.sleep(0.2)
        screen = terminal.screen()
    assert copied[:8] in screen.splitlines()[0] and "Open job by id" not in screen, screen
