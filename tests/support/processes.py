"""Processes the tests start and look for: shared by the socket and browser tests and the browser benchmark."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _live_processes() -> Iterator[tuple[int, list[str], Path]]:
    """Each running (non-zombie) process: its pid, its stat fields after the name, its /proc entry."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()  # state, ppid, pgrp, ...
        except (OSError, IndexError):
            continue  # ended while being looked at
        if fields and fields[0] not in ("Z", "X"):
            yield int(entry.name), fields, entry


def processes_mentioning(text: str) -> list[int]:
    """Running (non-zombie) processes whose command line mentions `text`."""
    found = []
    for pid, _, entry in _live_processes():
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(pid)
    return found


def processes_in_group(pgid: int) -> list[int]:
    """Running (non-zombie) processes of the process group `pgid`."""
    return [pid for pid, fields, _ in _live_processes() if int(fields[2]) == pgid]


@contextmanager
def served_emulator(key: str, seed: int, *options: str) -> Iterator[str]:
    """`wds-tui emulator` in its own process accepting `key`, seeded, without live traffic; yields its base URL.

    `options` go on its command line too (e.g. `--clock-speed 4`).

    The key goes in by environment and is not printed back, so only the URL is read
    from the banner; the rest of its output is drained so the pipe never fills.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "emulator", "--port", "0", "--seed", str(seed), "--no-traffic", *options],
        env={**os.environ, "WDS_EMULATOR_API_KEYS": key},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if found := re.search(r"serving (http://\S+)", line):
                break
        else:
            raise RuntimeError("the emulator did not print its URL")
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # type: ignore[union-attr]
        yield found.group(1)
    finally:
        process.terminate()
        process.wait(10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children_of(pid: int) -> set[int]:
    """Every running descendant of process `pid` (from /proc, so of processes of this user)."""
    found: set[int] = set()
    pending = [pid]
    while pending:
        parent = pending.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                kids = {int(kid) for kid in (task / "children").read_text().split()}
            except OSError:
                continue
            pending.extend(kids - found)
            found |= kids
    return found


@dataclass
class ServeProcess:
    """A running `wds-tui serve`: its port and pid, its log, and the address it printed (None if none)."""

    port: int
    pid: int
    log: Path
    address: str | None

    @property
    def token(self) -> str | None:
        return None if self.address is None else self.address.split("?token=", 1)[1]


PRINTED_ADDRESS = re.compile(r"(http://\S+/\?token=[A-Za-z0-9_-]+)")


@contextmanager
def serve_process(
    environment: dict[str, str], log: Path, *extra: str, port: int | None = None
) -> Iterator[ServeProcess]:
    """`python -m tui serve` on a free loopback port with `environment`, until it listens; stopped as by Ctrl+C."""
    port = port or free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tui", "serve", "--port", str(port), *extra],
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            start_new_session=True,
        )
        try:
            _wait_for_port(port, process)
            yield ServeProcess(port, process.pid, log, _printed_address(log))
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)  # as Ctrl+C: the server stops its tabs' dashboards
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)


def _wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"wds-tui serve exited with {process.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"wds-tui serve never listened on port {port}")


def _printed_address(log: Path, seconds: float = 5.0) -> str | None:
    # The address is printed as soon as the port listens: a moment after the port answers.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := PRINTED_ADDRESS.search(log.read_text(errors="replace")):
            return found.group(1)
        time.sleep(0.1)
    return None


@contextmanager
def emulator_with_banner(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, str, int]]:
    """`python -m tui.emulator --port 0 ARGS...` in its own process; yields (its base URL, its banner, its pid).

    The banner is read up to its last line; the rest of the output is drained so the pipe never
    fills. The process is stopped (killed if it does not stop within 20 s) on the way out.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.emulator", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
    )
    try:
        assert process.stdout is not None
        banner = ""
        for line in process.stdout:
            banner += line
            if line.startswith("Press Ctrl+C"):
                break
        found = re.search(r"serving (http://127\.0\.0\.1:\d+)", banner)
        if found is None:
            raise RuntimeError(f"the emulator did not start:\n{banner}")
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield found.group(1), banner, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
