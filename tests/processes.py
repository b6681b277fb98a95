"""Which processes are still running: shared by the browser tests and the browser benchmark."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
def served_emulator(key: str, seed: int) -> Iterator[str]:
    """`wds-tui emulator` in its own process accepting `key`, seeded, without live traffic; yields its base URL.

    The key goes in by environment and is not printed back, so only the URL is read
    from the banner; the rest of its output is drained so the pipe never fills.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "emulator", "--port", "0", "--seed", str(seed), "--no-traffic"],
        env={**os.environ, "WDS_EMULATOR_API_KEYS": key}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, cwd=Path(__file__).resolve().parents[1],
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
