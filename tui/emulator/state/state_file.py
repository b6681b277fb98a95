"""`--state-file PATH`: the emulator's snapshot kept in SQLite, saved as it changes and read on start.

Layout: a table `meta` (key, value: format, version, saved_at, seed) and one
table per part, `part_<name>` (key TEXT PRIMARY KEY, body TEXT: the row as
JSON). Each save writes, in one transaction, only the rows that changed since
the last save, so a second of work costs a few rows, not the whole history.

The file is in WAL mode: a committed save survives the process being killed
(`kill -9`), so at most the last second of work is lost. It holds the teams'
keys, so it is made readable by its owner only (0600), and so are SQLite's
`-wal` and `-shm` files beside it, which take the database file's mode.

Saving runs from the served emulator's background (`StateSaver.run_loop`):
the rows are read on the event loop (quick: unchanged jobs are not written
again), turned into JSON and written in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.emulator.state.core_parts import resolved
from tui.emulator.state.snapshot import FORMAT, PARTS, VERSION, SnapshotReader

if TYPE_CHECKING:
    from tui.emulator.state.stateful import Stateful

log = logging.getLogger(__name__)

SAVE_SECONDS = 1.0
FILE_MODE = 0o600


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")  # Python reads NaN and Infinity; JSON has neither


class StateFileError(Exception):
    """A state file that cannot be used; the message says which and why, in one line."""


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a killed process
    return connection


def hold_lock(path: Path) -> int:
    """Lock `path` for this process's life (a `PATH.lock` beside it, 0600): two emulators on one file would
    each restore the same id generator and write a silent mix. The descriptor returned holds the lock."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError as exc:
        raise StateFileError(f"state file {path}: cannot make its lock {lock_path} ({exc.strerror or exc})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode("ascii", "replace").strip()
        os.close(fd)
        by = f" (pid {holder})" if holder.isdigit() else ""
        raise StateFileError(f"state file {path} is in use by another emulator{by}") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
    return fd


def load(path: Path) -> dict[str, Any] | None:
    """The snapshot kept in `path`, or None when there is no file yet (`StateFileError` when it is unusable)."""
    if not path.exists():
        return None
    if not path.is_file():
        raise StateFileError(f"state file {path}: not a file")
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StateFileError(f"state file {path}: cannot be opened ({exc})") from None
    try:
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            raise StateFileError(f"state file {path}: not a wds-tui emulator state file")
        if meta.get("version") != str(VERSION):
            raise StateFileError(
                f"state file {path}: version {meta.get('version')}, and this emulator reads version {VERSION}"
            )
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        parts: dict[str, dict[str, Any]] = {}
        for name in PARTS:
            if f"part_{name}" in tables:
                rows = connection.execute(f"SELECT key, body FROM part_{name} ORDER BY rowid").fetchall()  # noqa: S608
                parts[name] = {key: json.loads(body, parse_constant=_refuse_constant) for key, body in rows}
    except sqlite3.Error as exc:
        raise StateFileError(f"state file {path}: not a readable SQLite database ({exc})") from None
    except (ValueError, UnicodeDecodeError) as exc:  # ValueError: also a number past the digit limit
        raise StateFileError(f"state file {path}: a row is not JSON ({exc})") from None
    except RecursionError:
        raise StateFileError(f"state file {path}: a row is nested too deep to read") from None
    finally:
        connection.close()
    seed = meta.get("seed", "0")
    return {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": meta.get("saved_at"),
        "seed": int(seed) if seed.lstrip("-").isdigit() else 0,
        "parts": parts,
    }


class StateSaver:
    """Keeps one emulator's state in one file: every second when something changed, and on stop."""

    def __init__(self, emulator: Stateful, path: Path) -> None:
        self.path = path
        self.reader = SnapshotReader(emulator)
        self._emulator = emulator
        # (part, key) -> (the row object last written, its JSON): an unchanged row is not dumped again.
        self._written: dict[tuple[str, str], tuple[Any, str]] = {}
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self.saves = 0

    def open(self) -> None:
        """Create the file (0600) and its tables if needed, and take over what it holds as written."""
        if not self.path.exists():
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        os.chmod(self.path, FILE_MODE)
        connection = _connect(self.path)
        connection.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for name in PARTS:
            connection.execute(f"CREATE TABLE IF NOT EXISTS part_{name} (key TEXT PRIMARY KEY, body TEXT NOT NULL)")
        for name in PARTS:
            for key, body in connection.execute(f"SELECT key, body FROM part_{name}"):  # noqa: S608
                self._written[(name, key)] = (None, body)
        self._connection = connection

    async def save(self) -> bool:
        """Save what changed: rows read here, written off the event loop; whether anything was written."""
        parts = self.reader.parts()
        saved_at = self._emulator.clock.now().isoformat()
        return await asyncio.to_thread(self._write, parts, saved_at)

    def save_now(self) -> bool:
        """Save what changed, here and now (at a clean stop, when no event loop runs)."""
        return self._write(self.reader.parts(), self._emulator.clock.now().isoformat())

    async def run_loop(self) -> None:
        """Served mode: save about every second until cancelled."""
        while True:
            await asyncio.sleep(SAVE_SECONDS)
            try:
                await self.save()
            except Exception:  # a full disk must not stop the emulator; the next round tries again
                log.exception("saving the emulator's state to %s failed", self.path)

    def _write(self, parts: dict[str, dict[str, Any]], saved_at: str) -> bool:
        with self._lock:
            assert self._connection is not None, "open() the state file first"
            upserts: list[tuple[str, str, str]] = []
            written: dict[tuple[str, str], tuple[Any, str]] = {}
            for name, rows in parts.items():
                for key, row in rows.items():
                    kept = self._written.get((name, key))
                    if kept is not None and kept[0] is row:
                        text = kept[1]
                    else:
                        text = json.dumps(resolved(row), separators=(",", ":"), ensure_ascii=False)
                        if kept is None or kept[1] != text:
                            upserts.append((name, key, text))
                    written[(name, key)] = (row, text)
            deleted = [place for place in self._written if place not in written]
            if not upserts and not deleted:
                self._written = written
                return False
            connection = self._connection
            connection.execute("BEGIN IMMEDIATE")
            try:
                for name, key in deleted:
                    connection.execute(f"DELETE FROM part_{name} WHERE key = ?", (key,))  # noqa: S608
                for name, key, text in upserts:
                    connection.execute(
                        f"INSERT INTO part_{name} (key, body) VALUES (?, ?) "  # noqa: S608
                        "ON CONFLICT(key) DO UPDATE SET body = excluded.body",
                        (key, text),
                    )
                meta = {
                    "format": FORMAT,
                    "version": str(VERSION),
                    "saved_at": saved_at,
                    "seed": str(self._emulator.seed),
                }
                connection.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", meta.items())
                connection.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                raise
            self._written = written
            self.saves += 1
            return True

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
