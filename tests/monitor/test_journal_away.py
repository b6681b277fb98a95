"""What happened while nobody watched: when a dashboard last ran, what the journal learnt since, the spans from a moment.

And the version-2 file (its `meta` table): a version-1 file of an older wds-tui is brought up to date with its rows kept.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tui.monitor.journal import (
    ActivityRecord,
    AwaySummary,
    CrawlOrBatchRecord,
    DashboardSeen,
    Journal,
    UsageSnapshot,
    WatchStarted,
)
from tui.monitor.journal.schema import _MIGRATIONS, SCHEMA_VERSION

TODAY = 1_790_035_200.0  # a UTC midnight
NOW = TODAY + 15 * 3600
LEFT = TODAY + 9 * 3600  # the dashboard last ran at 09:00 today


def at(hour: float) -> float:
    return TODAY + hour * 3600


async def written(path: Path, *records: object) -> Journal:
    journal = Journal(path, clock=lambda: NOW)
    for record in records:
        journal.add(record)  # type: ignore[arg-type]
    await journal.flush()
    return journal


async def test_a_journal_no_dashboard_ran_on_says_so(tmp_path: Path) -> None:
    journal = await written(tmp_path / "j.sqlite3", ActivityRecord("a", "scrape", at(1)))
    assert await journal.read(lambda q: q.dashboard_seen()) is None
    await journal.aclose()


async def test_the_latest_run_is_kept_whichever_dashboard_writes_last(tmp_path: Path) -> None:
    journal = await written(tmp_path / "j.sqlite3", DashboardSeen(at(8)), DashboardSeen(LEFT), DashboardSeen(at(7)))
    assert await journal.read(lambda q: q.dashboard_seen()) == LEFT
    await journal.aclose()


async def test_a_journal_only_watch_wrote_counts_from_watchs_first_start(tmp_path: Path) -> None:
    journal = await written(tmp_path / "j.sqlite3", WatchStarted(at(6)), WatchStarted(at(8)), WatchStarted(at(7)))
    assert await journal.read(lambda q: (q.watch_started(), q.away_since())) == (at(6), at(6))
    journal.add(DashboardSeen(LEFT))  # once a dashboard has run, its run is where the next one counts from
    await journal.flush()
    assert await journal.read(lambda q: q.away_since()) == LEFT
    await journal.aclose()


async def test_a_journal_neither_wrote_has_nothing_to_count_from(tmp_path: Path) -> None:
    journal = await written(tmp_path / "j.sqlite3", ActivityRecord("a", "scrape", at(1)))
    assert await journal.read(lambda q: q.away_since()) is None
    await journal.aclose()


async def test_away_counts_what_came_after_the_last_run(tmp_path: Path) -> None:
    journal = await written(
        tmp_path / "j.sqlite3",
        ActivityRecord("before", "scrape", at(8), "https://a.example/", "failed", "timeout"),
        ActivityRecord("s1", "scrape", at(10), "https://a.example/1", "failed", "timeout"),
        ActivityRecord("s2", "scrape", at(11), "https://a.example/2", "completed", http_status=503),
        ActivityRecord("s3", "scrape", at(12), "https://a.example/3", "completed"),
        ActivityRecord("b1", "batch_scrape", at(12), "https://b.example/", "failed", "blocked"),
        CrawlOrBatchRecord("c-old", "crawl", at(1), "cancelled", finished_at=at(2)),
        CrawlOrBatchRecord("c1", "crawl", at(9.5), "cancelled", finished_at=at(10)),
        CrawlOrBatchRecord("c2", "crawl", at(10), "completed", finished_at=at(11)),
        CrawlOrBatchRecord("ba", "batch", at(10), "failed", finished_at=at(13)),
        UsageSnapshot(at(8), "key-1", at(-100), 1000.0),
        UsageSnapshot(at(14), "key-1", at(-100), 4100.0),
    )
    summary = await journal.read(lambda q: q.away(LEFT))
    assert summary == AwaySummary(
        since=LEFT,
        calls=4,
        failed_by_kind={"scrape": 2, "batch_scrape": 1},
        ended_badly={("batch", "failed"): 1, ("crawl", "cancelled"): 1},
        credits=3100.0,
    )
    assert summary.anything
    await journal.aclose()


async def test_nothing_new_is_nothing_to_say(tmp_path: Path) -> None:
    journal = await written(tmp_path / "j.sqlite3", ActivityRecord("before", "scrape", at(8)), DashboardSeen(LEFT))
    summary = await journal.read(lambda q: q.away(LEFT))
    assert not summary.anything and summary.calls == 0 and summary.failed_by_kind == {}
    await journal.aclose()


async def test_every_figure_can_start_at_a_moment(tmp_path: Path) -> None:
    journal = await written(
        tmp_path / "j.sqlite3",
        ActivityRecord("y", "scrape", at(-14), "https://y.example/", "failed", "gone"),
        ActivityRecord("m", "scrape", at(8), "https://m.example/", "failed", "early"),
        ActivityRecord("l", "map", at(10), "https://l.example/", "failed", "late"),
        CrawlOrBatchRecord("c", "crawl", at(9.5), "completed", finished_at=at(10)),
    )
    figures = await journal.read(
        lambda q: (
            q.calls_per_day(start=LEFT),
            q.top_failing_hosts(start=LEFT),
            q.top_failure_causes(start=LEFT),
            q.finished_per_day(start=LEFT),
            q.calls_per_day(30),
        )
    )
    day = "2026-09-22"
    assert figures[0] == {(day, "map"): 1}
    assert figures[1] == [("l.example", 1)] and figures[2] == [("late", 1)]
    assert figures[3] == {(day, "crawl", "completed"): 1}
    assert sum(figures[4].values()) == 3  # without a start: the last 30 days, all of it
    await journal.aclose()


async def test_a_target_that_is_no_well_formed_url_counts_as_its_own_host(tmp_path: Path) -> None:
    journal = await written(
        tmp_path / "j.sqlite3",
        ActivityRecord("b", "scrape", at(10), "https://[red]x.example/", "failed", "bad"),
        ActivityRecord("p", "scrape", at(11), "not a url", "failed", "bad"),
        ActivityRecord("u", "scrape", at(12), "https://ok.example/a", "failed", "bad"),
    )
    hosts = await journal.read(lambda q: q.top_failing_hosts(1))
    assert sorted(hosts) == [("https://[red]x.example/", 1), ("not a url", 1), ("ok.example", 1)]
    await journal.aclose()


async def test_a_version_1_file_is_brought_up_to_date_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    old.executescript(_MIGRATIONS[1])
    old.execute(
        "INSERT INTO activity (id, kind, created_at, status, updated_at) VALUES ('kept', 'scrape', ?, 'failed', ?)",
        (at(10), at(10)),
    )
    old.execute("PRAGMA user_version = 1")
    old.close()

    journal = await written(path, DashboardSeen(LEFT))
    assert journal.disabled is None and journal.notice is None
    assert await journal.read(lambda q: (q.dashboard_seen(), q.away(LEFT).failed_by_kind)) == (LEFT, {"scrape": 1})
    await journal.aclose()
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    check.close()
