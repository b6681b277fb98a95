"""Processes sharing one journal: two writing at once, and a writer killed with SIGKILL mid-write."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

WRITER = Path(__file__).with_name("journal_writer.py")
LOSS_BOUND = 1.0
"""The journal's promise: a killed writer loses at most the records of its last second."""


def start_writer(path: Path, prefix: str, count: int, *, forever: bool = False) -> subprocess.Popen[str]:
    args = [sys.executable, str(WRITER), str(path), prefix, str(count)] + (["--forever"] if forever else [])
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def ids(path: Path) -> set[str]:
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        return {row[0] for row in connection.execute("SELECT id FROM activity")}
    finally:
        connection.close()


def test_two_processes_writing_at_once_both_keep_every_record(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    writers = [start_writer(path, prefix, 5000) for prefix in ("dashboard", "watch")]
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0, errors
    assert ids(path) == {f"{prefix}-{n}" for prefix in ("dashboard", "watch") for n in range(5000)}


@pytest.mark.serial
def test_a_writer_killed_mid_write_loses_at_most_its_last_second_and_the_file_opens_clean(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    writer = start_writer(path, "w", 0, forever=True)
    assert writer.stdout is not None
    said: list[tuple[int, float]] = []
    started = time.monotonic()
    while time.monotonic() - started < 3.0:  # a few batches committed, and more in flight
        line = writer.stdout.readline()
        assert line, writer.stderr.read() if writer.stderr else "the writer ended"
        n, at = line.split()
        said.append((int(n), float(at)))
    os.kill(writer.pid, signal.SIGKILL)
    killed_at = time.time()
    writer.wait(timeout=10)
    rest, _ = writer.communicate()
    said += [(int(n), float(at)) for n, at in (line.split() for line in rest.splitlines() if line.strip())]

    kept = ids(path)
    numbers = sorted(int(entry.split("-")[1]) for entry in kept)
    assert numbers == list(range(len(numbers)))  # whole batches, in order: no hole
    added_before_last_second = max(n for n, at in said if at <= killed_at - LOSS_BOUND)
    assert len(numbers) >= added_before_last_second, f"kept {len(numbers)}, {added_before_last_second} added 1 s before"
    assert max(n for n, _ in said) >= len(numbers)  # it was still writing when killed
