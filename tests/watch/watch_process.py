"""`wds-tui watch` as a real process for the watch tests: started on a config file, its JSON lines read as they come."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.support.clean_home import KEY, environment
from tests.support.processes import REPO

__all__ = ["KEY", "environment"]  # the watch tests take both from here, with the rest

NOTIFY_SCRIPT = "import sys\nwith open(sys.argv[1], 'a') as out:\n    out.write(sys.stdin.read())\n"
"""The alert command of the tests: appends the notice it reads on stdin to a file."""

Line = dict[str, Any]


def write_config(home: Path, text: str) -> Path:
    """The test's config file, private as a file holding keys should be (else watch warns)."""
    path = home / "config.toml"
    path.write_text(text)
    path.chmod(0o600)
    return path


def service_config(home: Path, base_url: str) -> Path:
    """A config file whose current context `emu` is the service at `base_url` (the key comes by variable)."""
    return write_config(home, f'current = "emu"\n\n[contexts.emu]\nbase_url = "{base_url}"\n')


def journal_file(home: Path, context: str) -> Path:
    return home / "state" / "wds-tui" / "journal" / f"{context}.sqlite3"


def call(base_url: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """The emulator as any caller sees it (not through our client)."""
    return httpx.request(method, f"{base_url}{path}", headers={"Authorization": f"Bearer {KEY}"}, timeout=30, **kwargs)


@dataclass
class WatchProcess:
    """A running `wds-tui watch`: its process, the file its JSON lines go to, and its stderr."""

    process: subprocess.Popen[bytes]
    log: Path
    errors: Path

    def lines(self) -> list[Line]:
        text = self.log.read_text() if self.log.exists() else ""
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def wait_for(self, wanted: Callable[[Line], bool], seconds: float = 30.0) -> Line:
        """The first line `wanted` accepts, once it is written (fails if the process ends first)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in self.lines():
                if wanted(line):
                    return line
            if self.process.poll() is not None:
                raise AssertionError(f"watch ended ({self.process.returncode}): {self.errors.read_text()}")
            time.sleep(0.1)
        raise AssertionError(f"no such line within {seconds} s; lines: {self.lines()[-5:]}")

    def stop(self, number: signal.Signals = signal.SIGTERM, seconds: float = 30.0) -> int:
        os.kill(self.process.pid, number)
        return self.process.wait(seconds)


@contextmanager
def watching(home: Path, *flags: str, env: dict[str, str] | None = None) -> Iterator[WatchProcess]:
    """`python -m tui watch --log-file ... FLAGS` in `home`; killed on the way out if still running."""
    log, errors = home / "watch.jsonl", home / "watch.err"
    with errors.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "tui", "watch", "--log-file", str(log), *flags],
            env=env or environment(home),
            stdout=subprocess.DEVNULL,
            stderr=err,
            cwd=REPO,
            start_new_session=True,
        )
    try:
        yield WatchProcess(process, log, errors)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
