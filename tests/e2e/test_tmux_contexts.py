"""Contexts and read-only in a real terminal: a read-only context on a served emulator, then T to `local`.

A separate emulator process is the "ops" context (read_only = true in the
config file); the header says so, the sessions pane offers no Create, `c`
is refused with a toast and creates nothing; T switches to the embedded
emulator (`local`) in the same process; `q` quits with status 0.
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

KEY = "wds-" + "9c" * 16
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def ops_emulator() -> Iterator[str]:
    """The "ops" context's service: a seeded emulator in its own process."""
    with served_emulator(KEY, seed=4) as url:
        yield url


def sessions_on(url: str) -> int:
    answer = httpx.get(f"{url}/v2/browser", headers={"Authorization": f"Bearer {KEY}"}, timeout=10)
    return len(answer.json().get("sessions", []))


def test_a_read_only_context_refuses_changes_and_t_switches_to_local(ops_emulator: str, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'current = "ops"\n\n[contexts.ops]\nbase_url = "{ops_emulator}"\napi_key = "{KEY}"\nread_only = true\n'
    )
    config.chmod(0o600)
    env = {
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "WDS_CONFIG": str(config),
        "PATH": os.environ.get("PATH", ""),
        "WDS_CHROMIUM": os.environ.get("WDS_CHROMIUM", ""),
    }
    env = {k: v for k, v in env.items() if v}
    status = tmp_path / "exit-status"
    terminal = Terminal(["sh", "-c", f"{sys.executable} -m tui; echo $? > {status}"], env, status)
    try:
        screen = terminal.wait_for("connected")
        header = screen.splitlines()[0]
        assert "[ops]" in header and "READ-ONLY" in header
        before = sessions_on(ops_emulator)
        terminal.keys("4")
        screen = terminal.wait_for("Status filter")  # the sessions pane's keys are in the footer
        footer = screen.splitlines()[-1]
        assert "Create" not in footer and "Delete" not in footer
        terminal.keys("c")
        screen = terminal.wait_for("Read-only:")  # the toast (its words wrap in the toast's width)
        assert "creating a browser" in " ".join(screen.split())
        time.sleep(1.0)
        assert sessions_on(ops_emulator) == before  # nothing was created
        terminal.keys("T")
        terminal.wait_for("Switch context")
        terminal.keys("Down", "Enter")  # ops, then local
        screen = terminal.wait_for("[local]", seconds=40)
        terminal.wait_for("connected", seconds=40)
        header = terminal.screen().splitlines()[0]
        assert "READ-ONLY" not in header and "emulator" in header
        terminal.keys("q")
        deadline = time.monotonic() + 15
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status.read_text().strip() == "0"
    finally:
        terminal.kill()
