"""The history screen's figures (`HistoryQueries`) from a seeded journal: calls, failures, hosts, causes, credits, finished jobs."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tui.monitor.journal import ActivityRecord, CrawlOrBatchRecord, DayFailures, Journal, UsageSnapshot

DAY = 86400.0
TODAY = 1_790_035_200.0  # a UTC midnight
NOW = TODAY + 15 * 3600
D0, D1, D2 = (time.strftime("%Y-%m-%d", time.gmtime(TODAY + offset * DAY)) for offset in (-2, -1, 0))


def at(day: int, hour: float) -> float:
    """`hour` o'clock on the day `day` days from today (0 today, -2 the day before yesterday)."""
    return TODAY + day * DAY + hour * 3600


SEED = [
    ActivityRecord("a1", "scrape", at(-2, 1), "https://a.example/1", "completed"),
    ActivityRecord("a2", "scrape", at(-2, 2), "https://a.example/2", "completed"),
    ActivityRecord("a3", "scrape", at(-2, 3), "https://a.example/x", "failed", "timeout"),
    ActivityRecord("a4", "crawl", at(-2, 23.9), "https://c.example/", "completed"),
    ActivityRecord("b1", "scrape", at(-1, 0.1), "https://b.example/1", "completed", http_status=404),
    ActivityRecord("b2", "scrape", at(-1, 8), "https://a.example/y", "failed", "timeout"),
    ActivityRecord("b3", "map", at(-1, 9), "https://c.example/", "completed"),
    ActivityRecord("c1", "scrape", at(0, 9), "https://a.example/z", "failed", "blocked"),
    ActivityRecord("old", "scrape", at(-40, 9), "https://d.example/", "failed", "gone"),
    # Usage: key-1 in one period (100, 150, 170); key-2 starts a new period on day -1 (5, then 7 and 17).
    UsageSnapshot(at(-2, 10), "key-1", at(-20, 0), 100.0),
    UsageSnapshot(at(-1, 10), "key-1", at(-20, 0), 150.0),
    UsageSnapshot(at(0, 10), "key-1", at(-20, 0), 170.0),
    UsageSnapshot(at(-2, 10), "key-2", at(-20, 0), 5.0),
    UsageSnapshot(at(-1, 10), "key-2", at(-1, 0), 7.0),
    UsageSnapshot(at(0, 10), "key-2", at(-1, 0), 17.0),
    CrawlOrBatchRecord("cr1", "crawl", at(-3, 1), "completed", 40, 40, finished_at=at(-2, 4)),
    CrawlOrBatchRecord("ba1", "batch", at(-1, 1), "completed", 10, 10, finished_at=at(-1, 2)),
    CrawlOrBatchRecord("cr2", "crawl", at(0, 1), "cancelled", 3, 50, finished_at=at(0, 2)),
    CrawlOrBatchRecord("cr3", "crawl", at(0, 3), "scraping", 7, 50),
]


@pytest.fixture
async def history(tmp_path: Path) -> dict[str, Any]:
    journal = Journal(tmp_path / "prod.sqlite3", clock=lambda: NOW)
    for record in SEED:
        journal.add(record)
    await journal.flush()
    # Read through the journal's own read path, then kept for the test's several questions.
    rows: dict[str, Any] = await journal.read(
        lambda h: {
            "calls": h.calls_per_day(30),
            "calls_today": h.calls_per_day(1),
            "failures": h.failures_per_day(30),
            "hosts": h.top_failing_hosts(30),
            "causes": h.top_failure_causes(30),
            "credits": h.credits_per_day(30),
            "credits_today": h.credits_per_day(1),
            "keys": h.credits_per_key(30),
            "keys_today": h.credits_per_key(1),
            "finished": h.finished_per_day(30),
        }
    )
    await journal.aclose()
    return rows


async def test_calls_per_day_by_kind(history: dict[str, Any]) -> None:
    assert history["calls"] == {
        (D0, "crawl"): 1,
        (D0, "scrape"): 3,
        (D1, "map"): 1,
        (D1, "scrape"): 2,
        (D2, "scrape"): 1,
    }
    assert history["calls_today"] == {(D2, "scrape"): 1}


async def test_failures_per_day_count_a_failed_job_and_a_page_that_answered_an_error(history: dict[str, Any]) -> None:
    assert history["failures"] == [DayFailures(D0, 1, 4), DayFailures(D1, 2, 3), DayFailures(D2, 1, 1)]
    assert [day.percent for day in history["failures"]] == [25.0, pytest.approx(200 / 3), 100.0]


async def test_top_failing_hosts_and_causes(history: dict[str, Any]) -> None:
    assert history["hosts"] == [("a.example", 3), ("b.example", 1)]
    assert history["causes"] == [("timeout", 2), ("HTTP 404", 1), ("blocked", 1)]


async def test_credits_per_day_and_per_key_come_from_the_snapshots_deltas(history: dict[str, Any]) -> None:
    # key-1: +50 then +20; key-2: a new period counts from zero (+7), then +10. The first snapshot is the base.
    assert history["credits"] == {D1: 57.0, D2: 30.0}
    assert history["keys"] == {"key-1": 70.0, "key-2": 17.0}
    assert history["credits_today"] == {D2: 30.0}
    assert history["keys_today"] == {"key-1": 20.0, "key-2": 10.0}


async def test_crawls_and_batches_finished_per_day(history: dict[str, Any]) -> None:
    assert history["finished"] == {
        (D0, "crawl", "completed"): 1,
        (D1, "batch", "completed"): 1,
        (D2, "crawl", "cancelled"): 1,
    }
