"""The embedded emulator: a child process the dashboard starts when no service is configured.

A child rather than a thread: the emulator (uvicorn, Starlette, its seeded
history, live traffic) then imports and builds on the machine's other core
while this process imports and draws the UI, and its work never competes with
the UI's event loop afterwards.

How the two are wired:

* This process binds the listening socket itself (loopback, a free port) and
  hands it to the child, so the base URL is known at once: the first request
  waits in the socket's backlog until the child serves it. This process then
  closes its copy, so that a child that died makes requests fail at once
  instead of hanging.
* The key travels in the child's environment, not its arguments: other users
  can read the process list, and the emulator runs code for whoever holds a key.
* The child dies with the dashboard however the dashboard ends (quit, crash,
  SIGHUP of a closed SSH session, SIGKILL): it asks the kernel for a SIGTERM
  when its parent dies (Linux), and it stops when its stdin, a pipe from this
  process, reaches end of file (every system).
* What it prints goes to a log file, never to the terminal the UI draws on.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tui.emulator.child import KEY_VARIABLE

EXTRA_PACKAGES = ("starlette", "uvicorn", "playwright")
"""What `pip install 'wds-tui[emulator]'` adds; the dashboard alone needs none of it."""
INSTALL_HINT = "pip install 'wds-tui[emulator]'"
STOP_SECONDS = 5.0


def missing_emulator_message() -> str | None:
    """One line saying what to install when the emulator's packages are absent, else None."""
    missing = [name for name in EXTRA_PACKAGES if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (
        f"the local emulator is not installed (missing: {', '.join(missing)}): run {INSTALL_HINT}, "
        "or point wds-tui at a service with WDS_BASE_URL and WDS_API_KEY"
    )


def new_api_key() -> str:
    """A key in the service's style, for the embedded emulator's one team."""
    return "wds-" + secrets.token_hex(16)


def default_log_path() -> Path:
    """Where the child's output goes: the platform's per-user log directory."""
    from platformdirs import user_log_dir

    return Path(user_log_dir("wds-tui")) / "embedded-emulator.log"


@dataclass
class LocalEmulator:
    """A running embedded emulator: where it listens, its key, its process and log."""

    base_url: str
    api_key: str
    process: subprocess.Popen[bytes]
    log_path: Path

    @classmethod
    def start(cls, *, seed: int | None = None, log_path: Path | None = None) -> LocalEmulator:
        """Start the child; returns at once, before the child serves anything."""
        log_path = log_path or default_log_path()
        key = new_api_key()
        listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        try:
            port = listener.getsockname()[1]
            log = _open_log(log_path)
            try:
                process = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "tui.emulator.child",
                        "--fd",
                        str(listener.fileno()),
                        "--parent",
                        str(os.getpid()),
                        "--seed",
                        str(seed if seed is not None else secrets.randbelow(2**31)),
                    ],
                    stdin=subprocess.PIPE,
                    stdout=log,
                    stderr=log,
                    pass_fds=(listener.fileno(),),
                    env={**os.environ, KEY_VARIABLE: key},
                    # Its own session: a ctrl+c or SIGHUP meant for the dashboard's terminal
                    # reaches the child through the dashboard's exit, in order, not at once.
                    start_new_session=True,
                )
            finally:
                log.close()
        finally:
            listener.close()  # the child holds the socket now
        return cls(f"http://127.0.0.1:{port}", key, process, log_path)

    def exit_status(self) -> int | None:
        """The child's exit status if it has ended, else None."""
        return self.process.poll()

    def stop(self) -> None:
        """End the child: end of file on its stdin, then SIGTERM, then SIGKILL if it lingers."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        if self.process.poll() is None:
            try:
                self.process.send_signal(signal.SIGTERM)
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            except ProcessLookupError:
                pass

    def __enter__(self) -> LocalEmulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _open_log(path: Path) -> IO[bytes]:
    """The log file, private to this user (errors may quote requests), truncated each start."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    return os.fdopen(fd, "wb")
