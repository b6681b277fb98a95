"""In a real terminal: issue 21's monitoring, end to end, on an emulator whose clock runs fast.

The served emulator (`--clock-speed 4`, no live traffic) is made to fail
scrapes on three paths; the real `wds-tui` on it, every pane polling each
`REFRESH` seconds, then shows, as an operator would see them:

- a crawl of 3 emulator seconds (six pages on two workers) that starts and
  ends between two looks at the active list, listed as finished in the crawls
  pane's recent section;
- on the way back from the help screen, kept there longer than a poll while
  a browser session was created, the sessions pane fresh within a second, or
  marked with its age while it refreshes;
- the 1 h window, and the triage grouping the failures made by cause;
- `g` with the crawl's id pasted, opening its status screen.
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
REFRESH = 5
MISSING = ("product/11", "old-pricing", "product/12", "gone/3141", "product/13", "old-pricing")
"""Pages acme-outdoor.com does not have: each scrape of one fails with a 404 (three paths once grouped)."""


def call(method: str, url: str, **kwargs) -> httpx.Response:  # type: ignore[no-untyped-def]
    return httpx.request(method, url, headers={"Authorization": f"Bearer {KEY}"}, timeout=30, **kwargs)


@pytest.fixture
def service() -> Iterator[str]:
    """A served emulator with a clock four times as fast, that has failed a scrape of each page in MISSING."""
    with served_emulator(KEY, 5, "--clock-speed", "4") as url:
        for path in MISSING:
            answer = call("POST", f"{url}/v2/scrape", json={"url": f"https://acme-outdoor.com/{path}"})
            assert answer.json()["data"]["metadata"]["statusCode"] == 404
        yield url


def lines_with(screen: str, *texts: str) -> list[str]:
    return [line for line in screen.splitlines() if all(text in line for text in texts)]


def test_nothing_ends_unseen_data_is_fresh_or_marked_failures_are_grouped_and_g_opens_a_job(
    service: str, tmp_path: Path
) -> None:
    env = {
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "WDS_CONFIG": str(tmp_path / "none.toml"),
        "WDS_BASE_URL": service,
        "WDS_API_KEY": KEY,
        "PATH": os.environ.get("PATH", ""),
    }
    status = tmp_path / "exit-status"
    command = f"{sys.executable} -m tui --refresh {REFRESH}; echo $? > {status}"
    terminal = Terminal(["sh", "-c", command], env, status)
    try:
        terminal.wait_for("more (n)")

        # 1. A crawl that starts and ends between two polls: 6 pages at 2 a second, on a clock 4x as fast.
        started = time.monotonic()
        crawl_id = call("POST", f"{service}/v2/crawl", json={"url": "https://acme-outdoor.com/", "limit": 6}).json()[
            "id"
        ]
        state = ""
        while state != "completed" and time.monotonic() - started < 10:
            state = call("GET", f"{service}/v2/crawl/{crawl_id}").json()["status"]
            time.sleep(0.1)
        assert state == "completed", state
        assert time.monotonic() - started < REFRESH, "the crawl outlived a poll: it was not a between-polls crawl"
        terminal.wait_for("1 finished in", seconds=4 * REFRESH)  # the pane's border counts it
        terminal.keys("1", "z")  # the crawls pane zoomed: its id column shows whatever the terminal's size
        deadline = time.monotonic() + 10
        screen = terminal.screen()
        while not lines_with(screen, crawl_id[:8], "completed") and time.monotonic() < deadline:
            time.sleep(0.2)
            screen = terminal.screen()
        row = lines_with(screen, crawl_id[:8], "completed")
        assert row and "completed 6/6" in row[0], screen
        assert "recent" in screen, screen
        terminal.keys("z")

        # 2. Back from a screen kept longer than a poll: the new session, or the pane's age, within a second.
        terminal.keys("?")
        terminal.wait_for("Help")
        session_id = call("POST", f"{service}/v2/browser", json={"ttl": 600}).json()["id"]
        time.sleep(REFRESH + 1)
        terminal.keys("Escape")
        back = time.monotonic()
        screen = terminal.screen()
        while time.monotonic() - back < 1.0:
            if session_id[:8] in screen or "refreshing" in screen:
                break
            time.sleep(0.05)
            screen = terminal.screen()
        assert session_id[:8] in screen or "refreshing" in screen, screen
        terminal.wait_for(session_id[:8], seconds=15)  # and the fresh data lands

        # 3. The last hour's failures, then grouped by cause.
        terminal.keys("2", "z")  # the activity pane, zoomed: every column shows
        terminal.wait_for("Next page")
        terminal.keys("t")
        terminal.wait_for("last 15 min")
        terminal.keys("t")
        screen = terminal.wait_for("last 1 h")
        screen = terminal.wait_for(" entries ")
        assert sum(line.count("✗") for line in screen.splitlines()) >= len(MISSING), screen
        terminal.keys("c")
        screen = terminal.wait_for("checked all", 60)
        assert "Failures by cause · last 1 h" in screen
        product = lines_with(screen, "/product/{n}", "HTTP 404")
        pricing = lines_with(screen, "/old-pricing", "HTTP 404")
        gone = lines_with(screen, "/gone/{n}", "HTTP 404")
        assert [row.split()[0] for row in (*product, *pricing, *gone)] == ["3", "2", "1"], screen
        terminal.keys("Escape")
        terminal.wait_for("Team activity · last 1 h")
        terminal.keys("z")

        # 4. g, the crawl's id pasted as a person would (with a space around it), its status screen.
        terminal.keys("g")
        terminal.wait_for("Open job by id")
        terminal.type_text(f" {crawl_id} ")
        terminal.keys("Enter")
        screen = terminal.wait_for(f"Crawl {crawl_id[:8]}", seconds=15)
        assert "Open job by id" not in screen
        terminal.wait_for("completed", seconds=15)

        terminal.keys("Escape")
        terminal.wait_for("Team activity")
        terminal.keys("q")
        deadline = time.monotonic() + 15
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status.read_text().strip() == "0"
    finally:
        terminal.kill()
