"""The backend's temp root, named for its owner, and the removal of roots whose owner died.

A root is `wds-browser-<pid>-<random>` with an `.owner` file holding the
owner's pid and process start time (the start time tells a reused pid from
the owner). An emulator killed with SIGKILL cannot remove its root; the next
backend to start removes every root whose owner is no longer running, and
leaves alone the roots of live emulators and roots without an owner file.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

PREFIX = "wds-browser-"
OWNER_FILE = ".owner"


def process_start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (from /proc), None when it is not running."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else None  # field 22 of stat, counted after the command


def make_root(parent: Path | None) -> Path:
    """A fresh root under `parent` (the system temp dir when None), marked as this process's."""
    pid = os.getpid()
    root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{pid}-", dir=parent))
    (root / OWNER_FILE).write_text(f"{pid} {process_start_time(pid) or ''}\n", encoding="utf-8")
    return root


def owner_alive(root: Path) -> bool:
    """Whether the root's owner runs; True when that cannot be told (no or unreadable owner file)."""
    try:
        pid_text, _, started = (root / OWNER_FILE).read_text(encoding="utf-8").strip().partition(" ")
        pid = int(pid_text)
    except (OSError, ValueError):
        return True
    now_started = process_start_time(pid)
    if now_started is None:
        return False
    return not started or started == now_started


def remove_dead_roots(parent: Path | None) -> list[Path]:
    """Remove the roots under `parent` whose owner died; returns what was removed."""
    base = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    removed = []
    try:
        candidates = [p for p in base.iterdir() if p.name.startswith(PREFIX) and p.is_dir()]
    except OSError:
        return []
    for root in candidates:
        if not owner_alive(root):
            shutil.rmtree(root, ignore_errors=True)
            removed.append(root)
    if removed:
        log.info(
            "removed %d browser temp root(s) left by emulators that died: %s",
            len(removed),
            ", ".join(str(p) for p in removed),
        )
    return removed
