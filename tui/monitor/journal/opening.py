"""Opening a journal file so that nothing about it can stop the dashboard.

- missing: created (with its folder);
- corrupt (not a database, or `PRAGMA quick_check` fails): moved aside as
  `<name>.corrupt-<UTC time>` with its `-wal` and `-shm`, and started anew, with a notice;
- unwritable (a read-only folder or file, a full disk) or written by a newer
  wds-tui: `Disabled`, with a reason a person can act on; nothing is kept.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from tui.monitor.journal.schema import NewerSchema, prepare


@dataclass(frozen=True)
class Opened:
    """A ready connection (autocommit: the writer opens its own transactions); `notice` says what was repaired."""

    connection: sqlite3.Connection
    notice: str | None = None


@dataclass(frozen=True)
class Disabled:
    """The journal keeps nothing this run, and why (shown once to the operator)."""

    reason: str


def connect(path: Path) -> sqlite3.Connection:
    """An autocommit connection to `path` usable from the thread that will own it."""
    return sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)


def _sound(connection: sqlite3.Connection) -> bool:
    rows = connection.execute("PRAGMA quick_check").fetchall()
    return rows == [("ok",)]


def _move_aside(path: Path, now: float) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    path.replace(aside)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.replace(aside.with_name(aside.name + suffix))
    return aside


def _open_checked(path: Path) -> sqlite3.Connection:
    """Connect, check and prepare; raises sqlite3.DatabaseError when the file is not a sound database."""
    connection = connect(path)
    try:
        if path.stat().st_size and not _sound(connection):
            raise sqlite3.DatabaseError("quick_check found damage")
        prepare(connection)
    except BaseException:
        connection.close()
        raise
    return connection


def _unwritable(path: Path, error: Exception) -> Disabled:
    return Disabled(f"the journal cannot be written at {path} ({error}); history is not kept this run")


def open_journal_file(path: Path, now: float) -> Opened | Disabled:
    """Open (or create, or repair) the journal at `path`; never raises for a file or folder problem."""
    try:
        # Only its owner reads it: it holds the URLs the team scraped and what failed (SQLite gives the
        # -wal and -shm files the same mode).
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.touch(mode=0o600, exist_ok=True)
    except OSError as error:
        return _unwritable(path, error)
    try:
        return Opened(_open_checked(path))
    except NewerSchema as error:
        return Disabled(f"{error}; history is not kept this run")
    except sqlite3.OperationalError as error:
        # Read-only file or folder, locked beyond the busy timeout, disk full: not the file's fault.
        if "malformed" not in str(error) and "not a database" not in str(error):
            return _unwritable(path, error)
        damage: sqlite3.Error = error
    except sqlite3.DatabaseError as error:
        damage = error
    try:
        aside = _move_aside(path, now)
        path.touch(mode=0o600, exist_ok=True)
        connection = _open_checked(path)
    except (OSError, sqlite3.Error, NewerSchema) as error:
        return _unwritable(path, error)
    return Opened(connection, f"the journal at {path} was damaged ({damage}); kept as {aside.name}, started anew")
