"""What the journal keeps stays true when the same thing is read twice or from two sides.

A crawl's end read again later keeps its first end; the same usage read as the
team's total and by key is counted once; a reading lower than the last (a
correction) is no use; alerts still holding when a monitor closes are marked
unwatched; an old failure read at start-up fires nothing.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.monitor.clock import Clock
from tui.contract.models.job_summary import JobSummary
from tui.monitor.alerts.engine import AlertEngine
from tui.monitor.alerts.rules import JobFailedRule, ServiceDownRule
from tui.monitor.hub import UNWATCHED, Monitor
from tui.monitor.journal import CrawlOrBatchRecord, Journal, UsageSnapshot

DAY = 86400.0
TODAY = 1_790_035_200.0  # a UTC midnight
PERIOD = TODAY - 10 * DAY


async def journal_with(tmp_path: Path, *records: object) -> Journal:
    journal = Journal(tmp_path / "j.sqlite3", clock=lambda: TODAY + 20 * 3600)
    for record in records:
        journal.add(record)  # type: ignore[arg-type]
    await journal.flush()
    return journal


async def test_a_crawls_first_end_stays_its_end(tmp_path: Path) -> None:
    journal = await journal_with(
        tmp_path,
        CrawlOrBatchRecord("c1", "crawl", TODAY, "cancelled", 3, 9, finished_at=TODAY + 3600),
        CrawlOrBatchRecord("c1", "crawl", TODAY + 2 * DAY, "cancelled", 3, 9, finished_at=TODAY + 2 * DAY),
    )
    rows = journal.read_now(lambda q: q._connection.execute("SELECT finished_at FROM crawls_batches").fetchall())
    assert rows == [(TODAY + 3600,)]
    journal.close()


async def test_usage_read_as_the_team_and_by_key_counts_once_and_a_correction_counts_nothing(tmp_path: Path) -> None:
    hour = 3600.0
    journal = await journal_with(
        tmp_path,
        # The team's total (a usage pane not split by key) ...
        UsageSnapshot(TODAY + 1 * hour, "team", PERIOD, 100.0),
        UsageSnapshot(TODAY + 2 * hour, "team", PERIOD, 110.0),
        UsageSnapshot(TODAY + 3 * hour, "team", PERIOD, 109.0),  # a correction: no use
        # ... and the same use by key (watch).
        UsageSnapshot(TODAY + 1 * hour, "fc-a", PERIOD, 60.0),
        UsageSnapshot(TODAY + 2 * hour, "fc-a", PERIOD, 66.0),
        UsageSnapshot(TODAY + 1 * hour, "fc-b", PERIOD, 40.0),
        UsageSnapshot(TODAY + 2 * hour, "fc-b", PERIOD, 44.0),
    )
    day = "2026-09-22"
    assert journal.read_now(lambda q: q.credits_per_day(1)) == {day: 10.0}
    assert journal.read_now(lambda q: q.credits_per_key(1)) == {"fc-a": 6.0, "fc-b": 4.0}
    journal.close()


async def test_the_team_alone_still_counts(tmp_path: Path) -> None:
    journal = await journal_with(
        tmp_path, UsageSnapshot(TODAY + 3600, "team", PERIOD, 100.0), UsageSnapshot(TODAY + 7200, "team", PERIOD, 130.0)
    )
    assert journal.read_now(lambda q: q.credits_per_key(1)) == {"team": 30.0}
    journal.close()


async def test_alerts_holding_at_close_are_journaled_as_unwatched(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path / "j.sqlite3", clock=lambda: clock().timestamp())
    monitor = Monitor(
        context=None, engine=AlertEngine([ServiceDownRule(minutes=1)], clock), journal=journal, clock=clock
    )
    monitor.saw_health("unreachable", "connection refused")
    clock.advance(minutes=2)
    monitor.tick()
    assert [alert.rule for alert in monitor.engine.firing()] == ["service_down"]
    await monitor.aclose()
    reopened = Journal(tmp_path / "j.sqlite3")
    assert [(alert.rule, alert.state) for alert in reopened.read_now(lambda q: q.alerts())] == [
        ("service_down", UNWATCHED)
    ]
    reopened.close()


async def test_an_old_failure_read_at_start_up_fires_nothing(tmp_path: Path) -> None:
    clock = Clock()
    rule = JobFailedRule(count=1, window_minutes=10)
    monitor = Monitor(context=None, engine=AlertEngine([rule], clock), clock=clock)
    fired: list[str] = []
    monitor.listen(lambda event, notice: fired.append(event.alert.subject))
    failed = JobSummary("failed", 500, "HTTP 500", finished=True)
    monitor.saw_job("scrape", "old", failed, target="https://a.example/", created_at=clock() - timedelta(hours=5))
    assert fired == []
    monitor.saw_job("scrape", "new", failed, target="https://a.example/", created_at=clock() - timedelta(seconds=20))
    assert fired == ["a.example"]
    await monitor.aclose()
