"""In a real terminal: the last hour's failures, made on a served emulator, found through the window and triage.

A seeded emulator in its own process is made to answer 404 for pages its
sites do not have (three on `/product/<n>`, two on `/old-pricing`); the
dashboard on it shows them in the 1 h window (t twice), groups
them in the triage (c), lists a group's jobs (Enter) and opens one (Enter).
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

KEY = "wds-" + "7d" * 16
MISSING = ("product/11", "old-pricing", "product/12", "old-pricing", "product/13")


@pytest.fixture
def failing_emulator() -> Iterator[tuple[str, list[str]]]:
    """A seeded emulator that was just asked for five pages its site does not have; its URL and the jobs' ids."""
    with served_emulator(KEY, seed=4) as url:
        ids = []
        for path in MISSING:
            answer = httpx.post(
                f"{url}/v2/scrape",
                json={"url": f"https://acme-outdoor.com/{path}"},
                headers={"Authorization": f"Bearer {KEY}"},
                timeout=30,
            )
            metadata = answer.json()["data"]["metadata"]
            assert metadata["statusCode"] == 404
            ids.append(metadata["scrapeId"])
        yield url, ids


def group_row(screen: str, path: str) -> list[str]:
    lines = [line for line in screen.splitlines() if f" {path} " in line and "HTTP 404" in line]
    assert len(lines) == 1, f"one row for {path} was expected; the screen was:\n{screen}"
    return lines[0].split()


def test_the_1_h_window_and_the_triage_group_the_failures_made(
    failing_emulator: tuple[str, list[str]], tmp_path: Path
) -> None:
    url, ids = failing_emulator
    config = tmp_path / "config.toml"
    config.write_text(f'current = "ops"\n\n[contexts.ops]\nbase_url = "{url}"\napi_key = "{KEY}"\n')
    config.chmod(0o600)
    env = {"TERM": "xterm-256color", "HOME": str(tmp_path), "WDS_CONFIG": str(config), "PATH": os.environ["PATH"]}
    status = tmp_path / "exit-status"
    terminal = Terminal(["sh", "-c", f"{sys.executable} -m tui; echo $? > {status}"], env, status)
    try:
        terminal.wait_for("more (n)")
        terminal.keys("2")
        terminal.wait_for("Next page")  # the activity pane has the focus
        terminal.keys("z")  # the whole screen, so every column shows
        terminal.keys("t")
        terminal.wait_for("Team activity · last 15 min")
        terminal.keys("t")
        screen = terminal.wait_for("Team activity · last 1 h")
        screen = terminal.wait_for(" entries ")
        assert sum(line.count("✗") for line in screen.splitlines()) >= len(MISSING)
        for job_id in ids:
            assert job_id[:8] in screen  # each failure made is in the window

        terminal.keys("c")
        screen = terminal.wait_for("checked all", 60)
        assert "Failures by cause · last 1 h · all kinds" in screen
        product = group_row(screen, "/product/{n}")
        pricing = group_row(screen, "/old-pricing")
        assert product[:4] == ["3", "HTTP", "404", "scrape"] and pricing[:4] == ["2", "HTTP", "404", "scrape"]
        assert screen.index("/product/{n}") < screen.index("/old-pricing")  # the bigger group first

        lines = [line for line in screen.splitlines() if "HTTP 404" in line]
        for _ in range(lines.index(next(line for line in lines if "/old-pricing" in line))):
            terminal.keys("Down")
        terminal.keys("Enter")
        screen = terminal.wait_for("2 failures · HTTP 404 · scrape · acme-outdoor.com/old-pricing · last 1 h")
        assert ids[3][:8] in screen and ids[1][:8] in screen
        terminal.keys("Enter")
        screen = terminal.wait_for("job status")
        assert ids[3] in screen or ids[3][:8] in screen  # the newest of the group, opened
        terminal.keys("Escape")
        terminal.wait_for("2 failures · HTTP 404")
        terminal.keys("Escape")
        terminal.wait_for("Failures by cause")
        terminal.keys("Escape")
        terminal.wait_for("Team activity · last 1 h")
        terminal.keys("q")
        deadline = time.monotonic() + 15
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status.read_text().strip() == "0"
    finally:
        terminal.kill()
