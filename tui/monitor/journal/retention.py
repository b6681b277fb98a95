"""Keeping the journal small: rows past the retention dropped, then the oldest until under the size cap.

Runs on the writer's thread between batches, in short transactions so that another
dashboard or a `watch` sharing the file never waits long. The freed pages are given
back to the file system (`incremental_vacuum`, the file being created with
`auto_vacuum=INCREMENTAL`) and the WAL is truncated, so the file on disk shrinks too.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from tui.monitor.journal.schema import AGE_COLUMNS

DEFAULT_RETENTION_DAYS = 90
DEFAULT_SIZE_CAP_BYTES = 200 * 1024 * 1024

CHUNK_ROWS = 5000
"""Rows deleted per transaction: another process sharing the file waits for one chunk, not the whole drop."""

WAL_SHARE_OF_CAP = 8
"""The WAL is checkpointed (and cut back) once it holds this share of the cap: 1/8 of it."""
WAL_PAGES_MAX = 1000
"""SQLite's own checkpoint threshold, kept for caps of 32 MB and more."""

_SHARE_PER_STEP = 10
"""Over the cap, each step drops the oldest 1/10 of every table's rows, then measures again."""


@dataclass(frozen=True)
class RetentionPolicy:
    """How long rows are kept (days) and how large the file may grow (bytes)."""

    days: float = DEFAULT_RETENTION_DAYS
    size_cap_bytes: int = DEFAULT_SIZE_CAP_BYTES


def used_bytes(connection: sqlite3.Connection) -> int:
    """The bytes the database's pages hold, free pages not counted (what the file shrinks to)."""
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    free = connection.execute("PRAGMA freelist_count").fetchone()[0]
    size = connection.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def _drop_in_chunks(connection: sqlite3.Connection, table: str, where: str, order: str, rows: int | None) -> int:
    """Delete up to `rows` (None: all) rows of `table` matching `where`, in `order`, CHUNK_ROWS per transaction."""
    dropped = 0
    while rows is None or dropped < rows:
        chunk = CHUNK_ROWS if rows is None else min(CHUNK_ROWS, rows - dropped)
        connection.execute("BEGIN IMMEDIATE")
        try:
            step = connection.execute(
                f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE {where} ORDER BY {order} LIMIT ?)",
                (chunk,),
            ).rowcount
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        dropped += step
        if step < chunk:
            break
    return dropped


def _drop_older_than(connection: sqlite3.Connection, cutoff: float) -> int:
    return sum(
        _drop_in_chunks(connection, table, f"{column} < {float(cutoff)!r}", column, None)
        for table, column in AGE_COLUMNS.items()
    )


def _drop_oldest_share(connection: sqlite3.Connection) -> int:
    dropped = 0
    for table, column in AGE_COLUMNS.items():
        count = connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        if count:
            dropped += _drop_in_chunks(connection, table, "1", column, max(1, count // _SHARE_PER_STEP))
    return dropped


def shrink_file(connection: sqlite3.Connection) -> None:
    """Give free pages back to the file system and truncate the WAL (as far as readers allow)."""
    # Run as a script: through `execute` the pragma frees a single page (one step of its
    # statement) however many are free; sqlite3_exec steps it to the end.
    connection.executescript("PRAGMA incremental_vacuum;")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def limit_wal(connection: sqlite3.Connection, policy: RetentionPolicy) -> None:
    """Checkpoint the WAL once it holds 1/8 of the cap (SQLite's default is 4 MB: twice a 2 MB cap), and cut
    its file back to that size after each checkpoint, so the database and its WAL together stay near the cap."""
    page = connection.execute("PRAGMA page_size").fetchone()[0]
    limit = policy.size_cap_bytes // WAL_SHARE_OF_CAP
    connection.execute(f"PRAGMA wal_autocheckpoint = {max(16, min(WAL_PAGES_MAX, limit // page))}")
    connection.execute(f"PRAGMA journal_size_limit = {int(limit)}").fetchall()


def prune(connection: sqlite3.Connection, policy: RetentionPolicy, now: float) -> int:
    """Drop rows older than the policy's days, then the oldest until under its cap; the rows dropped."""
    dropped = _drop_older_than(connection, now - policy.days * 86400)
    while used_bytes(connection) > policy.size_cap_bytes:
        step = _drop_oldest_share(connection)
        if not step:
            break  # nothing left to drop: the empty schema alone is over a tiny cap
        dropped += step
    if dropped:
        shrink_file(connection)
    return dropped
