"""The dashboard's embedded emulator in a real terminal: it leaves with the dashboard, whichever way that goes."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.test_tmux import Terminal
from tests.support.processes import children_of, processes_mentioning

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

CHILD = "tui.emulator.child"


def _start(tmp_path: Path) -> tuple[Terminal, set[int]]:
    before = set(processes_mentioning(CHILD))
    env = {
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "WDS_CONFIG": str(tmp_path / "none.toml"),
        "PATH": os.environ.get("PATH", ""),
    }
    terminal = Terminal(
        ["sh", "-c", f"{sys.executable} -m tui; echo $? > {tmp_path / 'status'}"], env, tmp_path / "status"
    )
    try:
        terminal.wait_for("connected")
        # This terminal's own: other tests run dashboards with embedded emulators side by side.
        pane = int(terminal.tmux(["display-message", "-p", "-t", terminal.name, "#{pane_pid}"]).stdout.strip())
        children = (set(processes_mentioning(CHILD)) - before) & children_of(pane)
        assert len(children) == 1, "one embedded emulator per dashboard"
    except BaseException:
        terminal.kill()  # a failed start leaves no dashboard (and no emulator) running behind the test
        raise
    return terminal, children


def _all_gone(pids: set[int], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pids & set(processes_mentioning(CHILD)):
            return True
        time.sleep(0.2)
    return False


def test_quitting_ends_the_embedded_emulator_and_nothing_of_it_reached_the_screen(tmp_path: Path) -> None:
    terminal, children = _start(tmp_path)
    try:
        screen = terminal.screen()
        assert "serving" not in screen and "Traceback" not in screen
        terminal.keys("q")
        assert _all_gone(children), "the embedded emulator outlived the dashboard"
        deadline = time.monotonic() + 15
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (tmp_path / "status").read_text().strip() == "0"
    finally:
        terminal.kill()


def test_closing_the_terminal_ends_the_embedded_emulator(tmp_path: Path) -> None:
    terminal, children = _start(tmp_path)
    terminal.kill()  # as a dropped SSH session would: SIGHUP to the dashboard
    assert _all_gone(children), "the embedded emulator outlived its closed terminal"
