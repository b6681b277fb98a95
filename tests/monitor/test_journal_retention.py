"""Rows older than the retention are dropped; past the size cap the oldest go and the file shrinks."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tui.monitor.journal import (
    ActivityRecord,
    AlertRecord,
    CreditReading,
    Journal,
    QueueReading,
    RetentionPolicy,
    SessionRecord,
    retention,
)
from tui.monitor.journal.retention import DEFAULT_RETENTION_DAYS, DEFAULT_SIZE_CAP_BYTES

DAY = 86400.0
START = 1_790_000_000.0


class Clock:
    """The journal's time, moved by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def count(path: Path, table: str) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        connection.close()


def test_by_default_ninety_days_are_kept_within_two_hundred_megabytes() -> None:
    policy = RetentionPolicy()
    assert (policy.days, policy.size_cap_bytes) == (DEFAULT_RETENTION_DAYS, DEFAULT_SIZE_CAP_BYTES)
    assert (DEFAULT_RETENTION_DAYS, DEFAULT_SIZE_CAP_BYTES) == (90, 200 * 1024 * 1024)


async def test_rows_older_than_the_retention_are_dropped_and_recent_ones_kept(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(retention, "CHUNK_ROWS", 4)  # 19 old rows a table: several short transactions each
    clock = Clock(START)
    path = tmp_path / "prod.sqlite3"
    journal = Journal(path, policy=RetentionPolicy(days=10), clock=clock)
    for day in range(30):
        at = START + day * DAY
        journal.add(ActivityRecord(f"a{day}", "scrape", at))
        journal.add(QueueReading(at, 1, 0))
        journal.add(CreditReading(at, 100.0 - day))
    # An alert that fired on day 0 and is still changing is as old as its last change.
    clock.now = START + 29 * DAY
    journal.add(AlertRecord("al1", "queue_saturated", "firing", START))
    await journal.flush()
    assert await journal.prune() == 3 * 19  # days 0 to 18 of each table; day 19 is exactly 10 days old
    await journal.aclose()

    assert [count(path, table) for table in ("activity", "queue_readings", "credit_readings")] == [11, 11, 11]
    assert count(path, "alerts") == 1


async def test_a_session_still_open_is_kept_for_its_last_change_not_its_start(tmp_path: Path) -> None:
    clock = Clock(START)
    path = tmp_path / "prod.sqlite3"
    journal = Journal(path, policy=RetentionPolicy(days=1), clock=clock)
    journal.add(SessionRecord("old", START))
    journal.add(SessionRecord("seen-again", START))
    await journal.flush()
    clock.now = START + 3 * DAY
    journal.add(SessionRecord("seen-again", START))
    await journal.flush()
    assert await journal.prune() == 1
    await journal.aclose()
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT id FROM sessions").fetchall() == [("seen-again",)]
    connection.close()


async def test_over_the_size_cap_the_oldest_rows_go_and_the_file_shrinks_under_it(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    cap = 512 * 1024
    # Written under a large cap, then opened under a small one (a person lowered max_megabytes).
    roomy = Journal(path, policy=RetentionPolicy(days=365, size_cap_bytes=100 * cap), clock=lambda: START)
    for n in range(20_000):
        roomy.add(ActivityRecord(f"{n:06d}", "scrape", START - 20_000 + n, target="https://example.com/" + "p" * 60))
    await roomy.aclose()  # the last connection closed: the WAL is folded into the file
    assert path.stat().st_size > 4 * cap

    journal = Journal(path, policy=RetentionPolicy(days=365, size_cap_bytes=cap), clock=lambda: START)
    await journal.prune()  # the writer's own first prune, at its start, comes before this one
    await journal.aclose()

    kept = count(path, "activity")
    assert 0 < kept < 20_000
    assert path.stat().st_size <= cap  # the file itself, not only its used pages
    connection = sqlite3.connect(path)
    oldest_kept = connection.execute("SELECT min(id) FROM activity").fetchone()[0]
    connection.close()
    assert oldest_kept == f"{20_000 - kept:06d}"  # the newest rows are the ones kept


async def test_the_writer_prunes_on_its_own_every_interval(tmp_path: Path) -> None:
    clock = Clock(START)
    path = tmp_path / "prod.sqlite3"
    journal = Journal(path, policy=RetentionPolicy(days=1), clock=clock, prune_interval=0.2)
    journal.add(ActivityRecord("old", "scrape", START - 5 * DAY))
    journal.add(ActivityRecord("new", "scrape", START))
    await journal.flush()
    for _ in range(100):  # the background task runs within a few intervals
        if count(path, "activity") == 1:
            break
        await journal.flush()
        await asyncio.sleep(0.05)
    await journal.aclose()
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT id FROM activity").fetchall() == [("new",)]
    connection.close()


async def test_the_writer_holds_the_size_cap_on_its_own_long_before_the_next_interval(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    cap = 256 * 1024
    # The default prune interval (600 s) is the age limit's: the cap does not wait for it.
    journal = Journal(path, policy=RetentionPolicy(days=365, size_cap_bytes=cap), clock=lambda: START)
    sizes = []
    for batch in range(8):  # about 8 times the cap in all, a cap's worth a batch, as a busy team writes
        for n in range(2_000):
            at = START - 20_000 + batch * 2_000 + n
            journal.add(ActivityRecord(f"{batch}-{n:05d}", "scrape", at, target="https://example.com/" + "p" * 60))
        await journal.flush()
        wal = path.with_name(path.name + "-wal")
        sizes.append(path.stat().st_size + (wal.stat().st_size if wal.exists() else 0))
    await journal.aclose()

    assert max(sizes) <= 2 * cap  # the file and its WAL: never more than a batch's worth past the cap
    assert path.stat().st_size <= 1.25 * cap
    kept = count(path, "activity")
    assert 0 < kept < 16_000
    connection = sqlite3.connect(path)
    newest = connection.execute("SELECT max(id) FROM activity").fetchone()[0]
    connection.close()
    assert newest == "7-01999"  # the oldest went, the newest stayed
