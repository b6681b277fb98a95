"""The journal as the dashboard and `watch` use it: `add` never blocks, one thread writes.

Records go into a queue; the writer thread commits them in batches at most
`commit_interval` (0.5 s) after the first of a batch arrived, so a `kill -9` loses at
most the last second. Each batch is one short `BEGIN IMMEDIATE` transaction:
another process sharing the file (a second dashboard, a `watch`) waits at most
that long, within the busy timeout. Retention runs on the same thread between batches:
the age limit every `prune_interval`, the size cap as soon as a commit passes it (a size
check is three pragmas; a busy team could write a small cap over many times in ten
minutes). The WAL is folded back into the file at a share of the cap
(`limit_wal`), so the pair on disk stays near the cap too.

Nothing here raises to the caller for a file problem: a journal that cannot be
written is `disabled` (with its reason) and keeps nothing.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from tui.monitor.journal.opening import Disabled, Opened, connect, open_journal_file
from tui.monitor.journal.queries import HistoryQueries
from tui.monitor.journal.records import Record, statements
from tui.monitor.journal.retention import RetentionPolicy, limit_wal, prune, used_bytes
from tui.monitor.journal.schema import prepare

T = TypeVar("T")
Clock = Callable[[], float]

MAX_PENDING = 100_000
"""Records held while the file is busy elsewhere; past this the oldest are dropped, not memory grown."""

BUSY_ATTEMPTS = 3
"""Tries of a commit someone waits for (`flush`, `close`), each up to the 5 s busy timeout."""


@dataclass
class _Flush:
    done: Future[None] = field(default_factory=Future)


@dataclass
class _Prune:
    done: Future[int] = field(default_factory=Future)


class _Stop:
    pass


class Journal:
    """One context's journal: `add` records, `await flush()`, `await read(query)`; `close()` at exit.

    `disabled` is None when records are kept, else why not; `notice` says once what
    happened to the file on opening (repaired, or why it is disabled), for the operator.
    """

    def __init__(
        self,
        path: Path,
        *,
        policy: RetentionPolicy | None = None,
        clock: Clock = time.time,
        commit_interval: float = 0.5,
        prune_interval: float = 600.0,
    ) -> None:
        self.path = path
        self.policy = policy or RetentionPolicy()
        self._clock = clock
        self._commit_interval = commit_interval
        self._prune_interval = prune_interval
        self._queue: queue.SimpleQueue[Record | _Flush | _Prune | _Stop] = queue.SimpleQueue()
        self.problem: str | None = None
        """The last write that failed, if any (the journal goes on with the next batch)."""
        opened = open_journal_file(path, clock())
        self.disabled: Disabled | None = opened if isinstance(opened, Disabled) else None
        self.notice: str | None = opened.reason if isinstance(opened, Disabled) else opened.notice
        self._thread: threading.Thread | None = None
        self._requests = threading.Lock()
        if isinstance(opened, Opened):
            self._thread = threading.Thread(
                target=self._run, args=(opened.connection,), name=f"journal {path.name}", daemon=True
            )
            self._thread.start()

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        policy: RetentionPolicy | None = None,
        clock: Clock = time.time,
        commit_interval: float = 0.5,
    ) -> Journal:
        """`Journal(path, ...)` built in a worker thread: opening checks the file (`quick_check`), off the event loop."""
        return await asyncio.to_thread(lambda: cls(path, policy=policy, clock=clock, commit_interval=commit_interval))

    # The caller's side: never blocks on the file.

    def add(self, record: Record) -> None:
        """Queue `record` for the next batch (does nothing when the journal is disabled or closed)."""
        if self._thread is not None:
            self._queue.put(record)

    def _request(self, request: _Flush | _Prune) -> bool:
        """Hand `request` to a running writer; False once closed (the lock keeps it from racing `close`)."""
        with self._requests:
            if self._thread is None:
                return False
            self._queue.put(request)
            return True

    async def flush(self) -> None:
        """Wait until every record added so far is committed (and the file brought under its cap, if it went over)."""
        request = _Flush()
        if self._request(request):
            await asyncio.wrap_future(request.done)

    async def prune(self) -> int:
        """Apply retention and the size cap now (the writer also does every `prune_interval`); rows dropped."""
        request = _Prune()
        return await asyncio.wrap_future(request.done) if self._request(request) else 0

    async def read(self, query: Callable[[HistoryQueries], T]) -> T:
        """Run `query` on a connection of its own in a worker thread (a disabled journal reads as empty)."""
        return await asyncio.to_thread(self.read_now, query)

    def read_now(self, query: Callable[[HistoryQueries], T]) -> T:
        """`read`, on the calling thread (for scripts and `watch`'s shutdown report)."""
        if self.disabled is None:
            connection = connect(self.path)
            connection.execute("PRAGMA busy_timeout = 5000")
        else:
            connection = sqlite3.connect(":memory:")
            prepare(connection)
        try:
            return query(HistoryQueries(connection, self._clock()))
        finally:
            connection.close()

    def close(self) -> None:
        """Commit what is queued and stop the writer (blocks until done: call it at exit)."""
        with self._requests:
            thread, self._thread = self._thread, None
            if thread is not None:
                self._queue.put(_Stop())
        if thread is not None:
            thread.join()

    async def aclose(self) -> None:
        """`close`, without blocking the event loop."""
        await asyncio.to_thread(self.close)

    # The writer thread.

    def _run(self, connection: sqlite3.Connection) -> None:
        pending: list[Record] = []
        batch_started = 0.0
        next_prune = time.monotonic()
        try:
            try:
                limit_wal(connection, self.policy)
            except sqlite3.Error as error:  # SQLite's own WAL limits stay: the journal still works
                self.problem = f"the WAL's limit not set: {error}"
            while True:
                now = time.monotonic()
                wait = next_prune - now
                if pending:
                    wait = min(wait, batch_started + self._commit_interval - now)
                try:
                    item = self._queue.get(timeout=max(0.0, wait))
                except queue.Empty:
                    item = None
                if isinstance(item, _Stop):
                    self._commit_now(connection, pending)
                    return
                if isinstance(item, _Flush | _Prune):
                    self._commit_now(connection, pending)
                    if isinstance(item, _Prune):
                        item.done.set_result(self._prune(connection))
                    else:
                        if self._over_cap(connection):  # held before the caller goes on: it may measure the file
                            self._prune(connection)
                        item.done.set_result(None)
                elif item is not None:
                    if not pending:
                        batch_started = time.monotonic()
                    pending.append(item)
                    if len(pending) > MAX_PENDING:
                        del pending[: len(pending) - MAX_PENDING]
                        self.problem = f"the journal fell behind; the oldest records beyond {MAX_PENDING} were dropped"
                now = time.monotonic()
                if pending and now >= batch_started + self._commit_interval:
                    if not self._commit(connection, pending):
                        batch_started = now  # busy elsewhere: try again one interval later
                    elif self._over_cap(connection):
                        next_prune = 0.0  # the cap is held at once, not at the next interval
                if now >= next_prune:
                    self._prune(connection)
                    next_prune = time.monotonic() + self._prune_interval
        finally:
            connection.close()

    def _commit(self, connection: sqlite3.Connection, pending: list[Record]) -> bool:
        """Write `pending` in one transaction and empty it; False (and kept) when the file stayed busy."""
        if not pending:
            return True
        now = self._clock()
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                for sql, rows in statements(pending, now):
                    connection.executemany(sql, rows)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                return False
            self.problem = f"records not kept: {error}"
        except (sqlite3.Error, ValueError, TypeError, OverflowError) as error:
            # A batch SQLite refuses (or a value it cannot bind) is lost, never the writer with it.
            self.problem = f"records not kept: {error}"
        pending.clear()
        return True

    def _commit_now(self, connection: sqlite3.Connection, pending: list[Record]) -> None:
        """Commit `pending` for a caller who waits: a file busy elsewhere is tried again, a few times."""
        for _ in range(BUSY_ATTEMPTS):
            if self._commit(connection, pending):
                return
        self.problem = f"the journal stayed busy (another process kept it locked); {len(pending)} records wait"

    def _over_cap(self, connection: sqlite3.Connection) -> bool:
        try:
            return used_bytes(connection) > self.policy.size_cap_bytes
        except sqlite3.Error:
            return False

    def _prune(self, connection: sqlite3.Connection) -> int:
        try:
            return prune(connection, self.policy, self._clock())
        except sqlite3.Error as error:
            self.problem = f"old records not dropped: {error}"
            return 0
