"""The journal's tables, and the one guard that brings an older file up to date (`PRAGMA user_version`).

Times are seconds since the epoch (UTC) in REAL columns: SQLite's `date(t, 'unixepoch')`
groups them by day, and no time zone is ever guessed from text.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2
"""The version this code writes; a file with a higher one was written by a newer wds-tui."""

_VERSION_1 = """
CREATE TABLE activity (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, target TEXT, created_at REAL NOT NULL,
    status TEXT, error TEXT, http_status INTEGER, updated_at REAL NOT NULL
);
CREATE INDEX activity_created ON activity (created_at);
CREATE TABLE crawls_batches (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, created_at REAL NOT NULL, status TEXT,
    pages_done INTEGER, pages_total INTEGER, error TEXT, finished_at REAL, updated_at REAL NOT NULL
);
CREATE INDEX crawls_batches_created ON crawls_batches (created_at);
CREATE TABLE usage_snapshots (
    at REAL NOT NULL, api_key TEXT NOT NULL, period_start REAL NOT NULL, credits REAL NOT NULL
);
CREATE INDEX usage_snapshots_at ON usage_snapshots (at);
CREATE TABLE queue_readings (
    at REAL NOT NULL, active INTEGER NOT NULL, waiting INTEGER NOT NULL, max_concurrency INTEGER
);
CREATE INDEX queue_readings_at ON queue_readings (at);
CREATE TABLE credit_readings (at REAL NOT NULL, remaining REAL NOT NULL, plan REAL);
CREATE INDEX credit_readings_at ON credit_readings (at);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, created_at REAL NOT NULL, ended_at REAL, ended_how TEXT, updated_at REAL NOT NULL
);
CREATE INDEX sessions_updated ON sessions (updated_at);
CREATE TABLE webhook_events (
    received_at REAL NOT NULL, event TEXT NOT NULL, job_id TEXT, verified INTEGER NOT NULL
);
CREATE INDEX webhook_events_received ON webhook_events (received_at);
CREATE TABLE alerts (
    id TEXT PRIMARY KEY, rule TEXT NOT NULL, state TEXT NOT NULL, fired_at REAL NOT NULL,
    resolved_at REAL, detail TEXT NOT NULL, updated_at REAL NOT NULL
);
CREATE INDEX alerts_updated ON alerts (updated_at);
"""

_VERSION_2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL);
"""
"""Facts about the journal's readers, by name (`dashboard_seen`: when a dashboard last ran); never pruned."""

_MIGRATIONS = {1: _VERSION_1, 2: _VERSION_2}
"""The statements that bring a file of version n - 1 to version n."""

AGE_COLUMNS = {
    "activity": "created_at",
    "crawls_batches": "created_at",
    "usage_snapshots": "at",
    "queue_readings": "at",
    "credit_readings": "at",
    # A session or an alert is as old as its last change: one still open is never dropped for its start.
    "sessions": "updated_at",
    "webhook_events": "received_at",
    "alerts": "updated_at",
}
"""Each table, and the column retention reads its rows' age from (each has an index)."""


class NewerSchema(Exception):
    """The file was written by a newer wds-tui: this one neither reads nor changes it."""


def prepare(connection: sqlite3.Connection) -> None:
    """Set the connection's pragmas and create or upgrade the tables (autocommit connection)."""
    connection.execute("PRAGMA busy_timeout = 5000")
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise NewerSchema(
            f"the journal was written by a newer wds-tui (schema {version}, this one knows {SCHEMA_VERSION})"
        )
    if version == 0:
        # Only takes effect before the first table: a new file shrinks with `incremental_vacuum` later.
        connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
    connection.execute("PRAGMA journal_mode = WAL")
    # In WAL mode NORMAL loses at most the last commits on a power cut, never the file's consistency.
    connection.execute("PRAGMA synchronous = NORMAL")
    if version < SCHEMA_VERSION:
        _migrate(connection)


def _migrate(connection: sqlite3.Connection) -> None:
    """Bring the file up to SCHEMA_VERSION, one version at a time, in one transaction.

    A file of an older wds-tui keeps its rows: each step only adds (version 2 the `meta` table).
    """
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have upgraded the file between our read and our lock.
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in _MIGRATIONS[step].split(";"):
                if statement.strip():
                    connection.execute(statement)
        if version < SCHEMA_VERSION:
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
