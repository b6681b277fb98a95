"""Every kind of record goes in and comes back; a final status arriving later updates the row."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from pathlib import Path

from tui.monitor.journal import (
    ActivityRecord,
    AlertRecord,
    CrawlOrBatchRecord,
    CreditReading,
    Journal,
    QueueReading,
    SessionRecord,
    UsageSnapshot,
    WebhookEventRecord,
    journal_path,
)
from tui.monitor.journal.location import file_name

NOW = 1_790_000_000.0


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


async def test_every_kind_of_record_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "team.sqlite3"
    journal = Journal(path, clock=lambda: NOW)
    journal.add(ActivityRecord("a1", "scrape", NOW - 5, "https://example.com/", "failed", "timeout", 504))
    journal.add(CrawlOrBatchRecord("c1", "crawl", NOW - 60, "completed", 12, 12, None, NOW - 1))
    journal.add(UsageSnapshot(NOW, "key-1", NOW - 86400, 41.5))
    journal.add(QueueReading(NOW, 3, 7, 10))
    journal.add(CreditReading(NOW, 900.0, 1000.0))
    journal.add(SessionRecord("s1", NOW - 30, NOW, "expired"))
    journal.add(WebhookEventRecord(NOW, "crawl.page", "c1", verified=True))
    journal.add(AlertRecord("al1", "job_failed", "firing", NOW, detail={"count": 3, "kind": "scrape"}))
    await journal.flush()
    await journal.aclose()

    assert journal.disabled is None and journal.notice is None and journal.problem is None
    assert rows(path, "SELECT id, kind, target, created_at, status, error, http_status FROM activity") == [
        ("a1", "scrape", "https://example.com/", NOW - 5, "failed", "timeout", 504)
    ]
    assert rows(path, "SELECT id, kind, status, pages_done, pages_total, finished_at FROM crawls_batches") == [
        ("c1", "crawl", "completed", 12, 12, NOW - 1)
    ]
    assert rows(path, "SELECT * FROM usage_snapshots") == [(NOW, "key-1", NOW - 86400, 41.5)]
    assert rows(path, "SELECT * FROM queue_readings") == [(NOW, 3, 7, 10)]
    assert rows(path, "SELECT * FROM credit_readings") == [(NOW, 900.0, 1000.0)]
    assert rows(path, "SELECT id, ended_at, ended_how FROM sessions") == [("s1", NOW, "expired")]
    assert rows(path, "SELECT * FROM webhook_events") == [(NOW, "crawl.page", "c1", 1)]
    [(rule, state, detail)] = rows(path, "SELECT rule, state, detail FROM alerts")
    assert (rule, state, json.loads(str(detail))) == ("job_failed", "firing", {"count": 3, "kind": "scrape"})


async def test_a_final_status_arriving_later_updates_the_entry_and_keeps_what_it_does_not_say(tmp_path: Path) -> None:
    path = tmp_path / "team.sqlite3"
    journal = Journal(path, clock=lambda: NOW)
    journal.add(ActivityRecord("a1", "scrape", NOW - 5, "https://example.com/", status="scraping"))
    await journal.flush()
    journal.add(
        ActivityRecord("a1", "scrape", NOW - 5, target=None, status="failed", error="HTTP 404", http_status=404)
    )
    journal.add(CrawlOrBatchRecord("c1", "batch", NOW - 60, "scraping", pages_done=2, pages_total=10))
    journal.add(CrawlOrBatchRecord("c1", "batch", NOW - 60, "completed", pages_done=10, finished_at=NOW))
    journal.add(AlertRecord("al1", "queue_saturated", "firing", NOW - 100, detail={"minutes": 5}))
    journal.add(AlertRecord("al1", "queue_saturated", "resolved", NOW - 100, resolved_at=NOW, detail={"minutes": 0}))
    journal.add(SessionRecord("s1", NOW - 30))
    journal.add(SessionRecord("s1", NOW - 30, NOW, "closed"))
    await journal.aclose()

    assert rows(path, "SELECT target, status, error, http_status FROM activity") == [
        ("https://example.com/", "failed", "HTTP 404", 404)
    ]
    assert rows(path, "SELECT status, pages_done, pages_total, finished_at FROM crawls_batches") == [
        ("completed", 10, 10, NOW)
    ]
    assert rows(path, "SELECT state, resolved_at, detail FROM alerts") == [("resolved", NOW, '{"minutes": 0}')]
    assert rows(path, "SELECT ended_at, ended_how FROM sessions") == [(NOW, "closed")]


async def test_close_commits_what_was_added_without_a_flush(tmp_path: Path) -> None:
    path = tmp_path / "team.sqlite3"
    journal = Journal(path, commit_interval=60.0)
    for n in range(250):
        journal.add(QueueReading(NOW + n, n, 0))
    journal.close()
    assert rows(path, "SELECT count(*) FROM queue_readings") == [(250,)]
    journal.add(QueueReading(NOW, 0, 0))  # after close: dropped, and nothing waits for a stopped writer
    await asyncio.wait_for(journal.flush(), 5)
    assert await asyncio.wait_for(journal.prune(), 5) == 0
    assert rows(path, "SELECT count(*) FROM queue_readings") == [(250,)]


async def test_a_record_sqlite_cannot_take_loses_its_batch_not_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "team.sqlite3"
    journal = Journal(path, clock=lambda: NOW)
    journal.add(QueueReading(NOW, 2**70, 0))  # too large for an SQLite integer
    await journal.flush()
    assert journal.problem is not None and "not kept" in journal.problem
    journal.add(QueueReading(NOW, 1, 0))
    await journal.aclose()
    assert rows(path, "SELECT active FROM queue_readings") == [(1,)]


async def test_a_journal_reads_what_another_wrote_before(tmp_path: Path) -> None:
    path = tmp_path / "team.sqlite3"
    first = Journal(path, clock=lambda: NOW)
    first.add(ActivityRecord("a1", "crawl", NOW - 10))
    await first.aclose()
    second = Journal(path, clock=lambda: NOW)
    assert await second.read(lambda history: history.calls_per_day(1)) == {
        (time.strftime("%Y-%m-%d", time.gmtime(NOW)), "crawl"): 1
    }
    await second.aclose()


def test_each_context_has_its_own_file_whatever_its_name(tmp_path: Path) -> None:
    names = ["prod", "staging", "team/a", "team?a", "..", "", "Prod", "a" * 300]
    paths = [journal_path(name, tmp_path) for name in names]
    assert len(set(paths)) == len(names)
    assert all(path.parent == tmp_path and path.name.endswith(".sqlite3") for path in paths)
    assert file_name("prod") == "prod.sqlite3"  # a plain name stays readable in the folder
    assert all("/" not in file_name(name) and not file_name(name).startswith(".") for name in names)


def test_the_journal_lives_in_the_users_state_dir(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert journal_path("prod") == tmp_path / "wds-tui" / "journal" / "prod.sqlite3"


async def test_a_file_another_process_holds_locked_for_a_moment_is_written_once_it_is_free(tmp_path: Path) -> None:
    path = tmp_path / "team.sqlite3"
    journal = await Journal.open(path, clock=lambda: NOW)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # a second dashboard in the middle of its own batch
    other.execute("INSERT INTO queue_readings VALUES (?, 1, 1, NULL)", (NOW,))
    release = threading.Timer(1.0, lambda: other.execute("COMMIT"))
    release.start()
    journal.add(ActivityRecord("a1", "scrape", NOW))
    await journal.flush()
    assert rows(path, "SELECT id FROM activity") == [("a1",)]  # committed when flush returned, not later
    release.join()
    other.close()
    await journal.aclose()
    assert journal.problem is None
    assert rows(path, "SELECT count(*) FROM queue_readings") == [(1,)]
