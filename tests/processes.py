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


def processes_mentioning(text: str) -> list[int]:
    """Running (non-zombie) processes whose command line mentions `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if text in cmdline and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


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


@contextmanager
def emulator_with_banner(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, str, int]]:
    """`python -m tui.emulator --port 0 ARGS...` in its own process; yields (its base URL, its banner, its pid).

    The banner is read up to its last line; the rest of the output is drained so the pipe never
    fills. The process is stopped (killed if it does not stop within 20 s) on the way out.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.emulator", "--port", "0", *args], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, cwd=Path(__file__).resolve().parents[1],
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
