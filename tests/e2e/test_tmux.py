"""The real `wds-tui` command in a real terminal (tmux), driven by keys as a person would.

It starts with nothing configured, so it runs on its embedded emulator; the
test reads the screen with capture-pane and quits with `q`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One detached tmux session running a command at a fixed size, on a tmux server of its own.

    A private server (`tmux -L`) per terminal: tests running side by side
    (pytest-xdist) never share one, and a developer's own tmux sessions are
    never touched.
    """

    def __init__(
        self, command: list[str], env: dict[str, str], status_file: Path, width: int = 120, height: int = 40
    ) -> None:
        self.name = f"wds-e2e-{uuid.uuid4().hex[:8]}"
        self.status_file = status_file
        env_args = [f"{k}={v}" for k, v in env.items()]
        self.tmux(
            ["new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), "env", *env_args, *command],
            check=True,
        )
        # A detached session on a fresh tmux server may start at 80x24 whatever -x/-y say.
        self.tmux(["set-option", "-t", self.name, "window-size", "manual"])
        self.tmux(["resize-window", "-t", self.name, "-x", str(width), "-y", str(height)])

    def tmux(self, args: list[str], check: bool = False) -> subprocess.CompletedProcess[str]:
        """Run one tmux command on this terminal's own server (its socket is named after the session)."""
        return subprocess.run(["tmux", "-L", self.name, *args], capture_output=True, text=True, check=check)

    def screen(self) -> str:
        return self.tmux(["capture-pane", "-p", "-t", self.name]).stdout

    def keys(self, *keys: str) -> None:
        self.tmux(["send-keys", "-t", self.name, *keys], check=True)

    def type_text(self, text: str) -> None:
        """Send `text` literally (send-keys -l): no word in it is read as a key name."""
        self.tmux(["send-keys", "-t", self.name, "-l", text], check=True)

    def wait_for(self, text: str, seconds: float = 30.0) -> str:
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")

    def alive(self) -> bool:
        return self.tmux(["has-session", "-t", self.name]).returncode == 0

    def kill(self) -> None:
        # The server is this terminal's alone: ending it ends the session and removes its socket.
        self.tmux(["kill-server"])


@pytest.fixture
def terminal(tmp_path) -> Iterator[Terminal]:
    env = {
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),  # no config file of the developer's is read
        "WDS_CONFIG": str(tmp_path / "none.toml"),
        "PATH": os.environ.get("PATH", ""),
        "WDS_CHROMIUM": os.environ.get("WDS_CHROMIUM", ""),
    }
    env = {k: v for k, v in env.items() if v}
    status_file = tmp_path / "exit-status"
    # Record the exit status, so a crash cannot pass for a clean quit.
    script = f"{sys.executable} -m tui; echo $? > {status_file}"
    term = Terminal(["sh", "-c", script], env, status_file)
    yield term
    term.kill()


def test_dashboard_runs_pages_activity_and_quits(terminal: Terminal) -> None:
    screen = terminal.wait_for("connected")
    assert "emulator" in screen  # "(local emulator)", or "(emulator)" if the terminal came out narrow
    assert "Active crawls" in screen and "Team activity" in screen
    assert "Token usage" in screen and "Browser sessions" in screen
    terminal.wait_for("more (n)")  # the first page is in and a next one exists
    terminal.keys("2")  # focus the activity pane
    terminal.wait_for("Next page")  # its keys are in the footer: the focus has moved
    terminal.keys("n")  # next page
    terminal.wait_for("page 2")
    terminal.keys("b")
    terminal.wait_for("page 1")
    terminal.keys("q")
    deadline = time.monotonic() + 15
    while terminal.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not terminal.alive(), "wds-tui did not exit on q"
    assert terminal.status_file.read_text().strip() == "0"
