"""What the whole suite shares: markers set by folder, and how many workers `-n auto` starts.

Markers (select with `-m`; the README's development section has the fast subset):
- `browser`: every test in tests/browser/ (a real Chromium);
- `e2e`: every test in tests/e2e/ (the real command in tmux or a pseudo-terminal);
- `snapshot`: every test that compares a screen with a stored SVG (`snap_compare`);
- `socket`: set by the modules that start a real server on a loopback socket
  (their own `pytestmark`, beside the reason), and by the two folders above;
- `serial`: set by the tests that assert how long something takes on the wall
  clock (an event loop's stalls, a deadline). Workers sharing the cores would
  make them fail for the wrong reason, so the README's test command runs them
  alone after the parallel pass: `-n auto -m "not serial"`, then `-m serial`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

FOLDER_MARKERS = {"browser": ("browser", "socket"), "e2e": ("e2e", "socket")}
"""Markers every test of a folder gets, by the folder's name under tests/."""

WORKERS_PER_CORE = 2
"""Workers `-n auto` starts per core. Much of a test's time is spent waiting (for
a server's answer, a frame, a subprocess, a browser), not computing: on this
project's 2-core machines the suite kept 0.8 cores busy with 2 workers. Three a
core made UI tests with real-time deadlines fail on a loaded machine."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else ""
        for marker in FOLDER_MARKERS.get(folder, ()):
            item.add_marker(marker)
        if "snap_compare" in getattr(item, "fixturenames", ()):
            item.add_marker("snapshot")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: WDS_TEST_WORKERS if set, else WORKERS_PER_CORE per core this process may use."""
    wanted = os.environ.get("WDS_TEST_WORKERS", "").strip()
    if wanted:
        try:
            return max(1, int(wanted))
        except ValueError:
            raise pytest.UsageError(f"WDS_TEST_WORKERS must be a whole number, not {wanted!r}") from None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return WORKERS_PER_CORE * cores
