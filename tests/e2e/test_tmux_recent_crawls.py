"""In a real terminal: a crawl that starts and ends between two polls of the active list shows as finished.

A served emulator (no live traffic) and the real `wds-tui` on it, every pane
polling once an hour: the crawls pane's one look at the active list comes
before the crawl starts, and the crawl has ended long before the next. `r` on
the activity pane brings the crawl's entry, and the crawls pane lists it among
the recent ones with its final state.
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

KEY = "wds-" + "3d" * 16


@pytest.fixture
def service() -> Iterator[str]:
    with served_emulator(KEY, seed=4) as url:
        yield url


def test_a_crawl_that_ended_between_two_polls_shows_as_finished(service: str, tmp_path: Path) -> None:
    env = {
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "WDS_CONFIG": str(tmp_path / "none.toml"),
        "WDS_BASE_URL": service,
        "WDS_API_KEY": KEY,
        "PATH": os.environ.get("PATH", ""),
    }
    status = tmp_path / "exit-status"
    terminal = Terminal(["sh", "-c", f"{sys.executable} -m tui --refresh 3600; echo $? > {status}"], env, status)
    try:
        terminal.wait_for("more (n)")  # every pane has had its first look
        answer = httpx.post(
            f"{service}/v2/crawl",
            json={"url": "https://acme-outdoor.com/", "limit": 3},
            headers={"Authorization": f"Bearer {KEY}"},
            timeout=10,
        )
        crawl_id = answer.json()["id"]
        for _ in range(60):  # a few seconds: it ends long before the crawls pane's next poll
            state = httpx.get(
                f"{service}/v2/crawl/{crawl_id}", headers={"Authorization": f"Bearer {KEY}"}, timeout=10
            ).json()["status"]
            if state == "completed":
                break
            time.sleep(0.2)
        assert state == "completed"
        terminal.keys("2", "r")  # the activity pane looks again: the crawl's entry is there
        terminal.wait_for("finished in", seconds=15)
        terminal.keys("1", "z")  # the crawls pane zoomed: its id column shows whatever the terminal's size
        row, screen = None, ""
        deadline = time.monotonic() + 15
        while row is None and time.monotonic() < deadline:
            screen = terminal.screen()
            # The crawls pane's row (the activity pane lists the id too, without the word).
            row = next((line for line in screen.splitlines() if crawl_id[:8] in line and "completed" in line), None)
            time.sleep(0.2)
        assert row is not None and "✓ completed 3/3" in row, screen
        assert "── recent · 1 h" in screen and "finished in" in screen, screen
        terminal.keys("q")
        deadline = time.monotonic() + 15
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status.read_text().strip() == "0"
    finally:
        terminal.kill()
