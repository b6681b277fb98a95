"""In a real terminal: find a failed job through the failed-only view, open it, ask support about it.

The scenario of the monitoring issue, as an operator would go through it:
activity pane, `e` for failed jobs only, a failed scrape, Enter to read it,
`a` to ask the support agent with the prefilled question, ctrl+s to send,
and the diagnosis on screen.
"""

from __future__ import annotations

import time

from tests.e2e.test_tmux import Terminal, terminal  # the fixture, shared

__all__ = ["terminal"]


def _wait_for_any(terminal: Terminal, texts: tuple[str, ...], seconds: float) -> str:
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = terminal.screen()
        # A status line may wrap at 80 columns ("m: find" / "more"): look in the words, not the lines.
        words = " ".join(screen.split())
        if any(text in words for text in texts):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"none of {texts!r} appeared; the screen was:\n{screen}")


def _job_id(row: str) -> str:
    """The short id of a failed row: after "✗ failed", or after "✗ HTTP 404"."""
    words = row.split()
    mark = words.index("✗")
    return words[mark + 3] if words[mark + 1] == "HTTP" else words[mark + 2]


def _failed_rows(screen: str) -> list[str]:
    """The failed view's table rows, top first (each carries a ✗ status)."""
    return [line for line in screen.splitlines() if "✗ " in line and ("scrape" in line or "failed" in line)]


def test_failed_view_finds_a_failed_job_and_support_diagnoses_it(terminal: Terminal) -> None:
    terminal.wait_for("more (n)")
    terminal.keys("2")
    terminal.wait_for("Next page")  # the activity pane's keys are in the footer: it has the focus
    terminal.keys("e")
    # The search stops at the end of the day or, with a screenful found, offers to look further.
    screen = _wait_for_any(terminal, ("of the last 24 hours", "find more"), 60)
    assert "Failed jobs · last 24 hours · all kinds" in screen
    rows = _failed_rows(screen)
    assert rows, f"no failed job found; the screen was:\n{screen}"
    # A failed scrape when the search found one (its page answered an HTTP error); else the first job.
    pick = next((index for index, row in enumerate(rows) if " scrape " in row and "HTTP" in row), 0)
    for _ in range(pick):
        terminal.keys("Down")
    job_id = _job_id(rows[pick])
    terminal.keys("Enter")
    screen = terminal.wait_for("job status")  # the job's screen; a scrape's also shows the page's HTTP status
    assert job_id in screen
    terminal.keys("a")  # ask support from the job screen
    terminal.wait_for("Question (ctrl+s sends)")
    # Prefilled from what the job screen knew; the editor's text may be drawn a frame after its border.
    terminal.wait_for("Why, and how do I", seconds=10)
    # The cursor waits at the end, ready to add; with a long URL the question wraps past the editor's
    # three lines and its first line ("My scrape job …") is scrolled out: go up to it, as a person would.
    for _ in range(6):
        terminal.keys("Up")
    terminal.wait_for(f"job {job_id}", seconds=10)
    terminal.keys("C-s")
    screen = terminal.wait_for("Diagnosis", 90)  # the agent may take its time
    assert "confidence" in screen
    terminal.keys("Escape")  # back to the job
    terminal.wait_for("job status")
    terminal.keys("Escape")  # back to the failed jobs, as they were
    terminal.wait_for("Failed jobs · last 24 hours")
    terminal.keys("Escape")
    terminal.wait_for("Team activity")
    terminal.keys("q")
    deadline = time.monotonic() + 15
    while terminal.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert terminal.status_file.read_text().strip() == "0"
