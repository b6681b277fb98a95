"""The monitor hub: what polls saw (the client's own models) becomes journal rows, alert events and counts."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.monitor.clock import Clock
from tui.contract.models import CreditBalance, QueueStatus
from tui.contract.models.batch import BatchScrapeStatus
from tui.contract.models.browser import BrowserSession
from tui.contract.models.crawl import CrawlStatus
from tui.contract.models.job_summary import JobSummary
from tui.contract.models.team import ActivityEntry, TokenUsageHistory
from tui.monitor.alerts.engine import AlertEngine, AlertEvent
from tui.monitor.alerts.rules import BatchFailedRule, CrawlEndedRule, JobFailedRule, SessionExpiringRule
from tui.monitor.build import open_monitor
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.hub import Monitor
from tui.monitor.journal import Journal
from tui.monitor.settings import MonitorSettings, read_monitor_settings


def rows(journal: Journal, sql: str) -> list[tuple[Any, ...]]:
    return journal.read_now(lambda queries: queries._connection.execute(sql).fetchall())


async def test_a_failed_job_is_journaled_fires_once_and_is_counted_once(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path / "j.sqlite3", clock=lambda: clock().timestamp())
    engine = AlertEngine([JobFailedRule(count=2, window_minutes=10, repeat_minutes=5)], clock)
    monitor = Monitor(context="prod", engine=engine, journal=journal, clock=clock)
    heard: list[tuple[AlertEvent, AlertNotice]] = []
    monitor.listen(lambda event, notice: heard.append((event, notice)))
    entries = [
        ActivityEntry(id=f"job-{n}", endpoint="scrape", created_at=clock(), target=f"https://shop.example/p/{n}")
        for n in range(3)
    ]
    monitor.saw_activity(entries)
    failed = JobSummary("failed", 500, "HTTP 500", finished=True)
    monitor.saw_job("scrape", "job-0", failed, target=entries[0].target)
    monitor.saw_job("scrape", "job-0", failed, target=entries[0].target)  # polled again: counts once
    assert heard == []
    monitor.saw_job("scrape", "job-1", failed, target=entries[1].target)
    monitor.saw_job("scrape", "job-2", JobSummary("completed", 200, finished=True), target=entries[2].target)
    monitor.saw_job("scrape", "job-3", JobSummary("scraping"), target=entries[2].target)  # not final: nothing
    assert [event.what for event, _ in heard] == ["fired"]
    event, notice = heard[0]
    assert event.alert.subject == "shop.example"
    assert notice.title == "wds-tui [prod] alert: job_failed"
    assert notice.details["opens"] == {"kind": "job", "id": "job-1"}
    assert monitor.stats.jobs == {("scrape", "failed"): 2, ("scrape", "completed"): 1}
    assert monitor.stats.failures == {"scrape": 2}
    clock.advance(minutes=11)
    assert [event.what for event in monitor.tick()] == ["resolved"]
    await journal.flush()
    assert rows(journal, "SELECT id, status, error FROM activity ORDER BY id") == [
        ("job-0", "failed", "HTTP 500"),
        ("job-1", "failed", "HTTP 500"),
        ("job-2", "completed", None),
    ]
    assert rows(journal, "SELECT rule, state FROM alerts") == [("job_failed", "resolved")]
    await monitor.aclose()


async def test_crawls_batches_sessions_credits_and_queue_reach_the_journal_and_the_gauges(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path / "j.sqlite3", clock=lambda: clock().timestamp())
    rules = [CrawlEndedRule(), BatchFailedRule(max_failed_percent=10), SessionExpiringRule(minutes=5)]
    monitor = Monitor(context=None, engine=AlertEngine(rules, clock), journal=journal, clock=clock)
    events: list[str] = []
    monitor.listen(lambda event, notice: events.append(f"{event.what} {event.alert.rule} {event.alert.subject}"))
    monitor.saw_crawl("crawl", "c-1", CrawlStatus(status="scraping", completed=3, total=10))
    assert monitor.stats.running == {"crawl": 1, "batch": 0}
    monitor.saw_crawl("crawl", "c-1", CrawlStatus(status="cancelled", completed=5, total=10))
    monitor.saw_crawl("crawl", "c-1", CrawlStatus(status="cancelled", completed=5, total=10))
    monitor.saw_crawl("batch", "b-1", BatchScrapeStatus(status="completed", completed=6, total=10))
    assert monitor.stats.pages_crawled == 11
    assert monitor.stats.running == {"crawl": 0, "batch": 0}
    expiring = clock() + timedelta(minutes=3)
    monitor.saw_sessions([BrowserSession(id="s-1", status="active", created_at=clock(), expires_at=expiring)])
    clock.advance(minutes=1)
    monitor.saw_sessions([])  # gone from the list: it ended
    monitor.saw_credits(CreditBalance(remaining_credits=50, plan_credits=1000))
    monitor.saw_queue(QueueStatus(active_jobs_in_queue=2, waiting_jobs_in_queue=1, max_concurrency=2))
    assert (monitor.stats.credits_remaining, monitor.stats.queue_waiting) == (50, 1)
    assert events[:3] == ["fired crawl_failed c-1", "fired batch_failed b-1", "fired session_expiring s-1"]
    assert "resolved session_expiring s-1" in events
    await journal.flush()
    assert rows(journal, "SELECT id, kind, status, pages_done, finished_at IS NOT NULL FROM crawls_batches") == [
        ("c-1", "crawl", "cancelled", 5, 1),
        ("b-1", "batch", "completed", 6, 1),
    ]
    assert rows(journal, "SELECT id, ended_how FROM sessions") == [("s-1", "gone")]
    assert rows(journal, "SELECT remaining, plan FROM credit_readings") == [(50.0, 1000.0)]
    await monitor.aclose()


async def test_usage_snapshots_per_key_and_the_hours_use_from_the_deltas(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path / "j.sqlite3", clock=lambda: clock().timestamp())
    monitor = Monitor(context=None, engine=AlertEngine([], clock), journal=journal, clock=clock)
    start, end = clock() - timedelta(days=3), clock() + timedelta(days=27)

    def usage(a: int, b: int) -> TokenUsageHistory:
        """Credits used by two keys, as the service gives them: in tokens (15 a credit)."""
        periods = [
            {"startDate": start.isoformat(), "endDate": end.isoformat(), "apiKey": key, "totalTokens": used * 15}
            for key, used in (("fc-0123456789aaaa", a), ("fc-0123456789bbbb", b))
        ]
        return TokenUsageHistory.model_validate({"success": True, "periods": periods})

    monitor.saw_token_usage(usage(100, 10))
    clock.advance(minutes=10)
    monitor.saw_token_usage(usage(130, 15))
    assert monitor.stats.tokens_used == 145 * 15
    assert monitor._hour_use is not None and monitor._hour_use[1] == 35  # credits used since the first reading
    await journal.flush()
    assert rows(journal, "SELECT api_key, credits FROM usage_snapshots ORDER BY at, api_key") == [
        ("…aaaa", 100.0),  # the journal keeps which key, never the key
        ("…bbbb", 10.0),
        ("…aaaa", 130.0),
        ("…bbbb", 15.0),
    ]
    await monitor.aclose()


async def test_open_monitor_keeps_the_journal_per_context_and_reads_the_settings(tmp_path: Path) -> None:
    settings, warnings = read_monitor_settings(
        {"job_failed": {"count": 1}, "delivery": {"bell": False}}, {"retention_days": 7}
    )
    assert warnings == []
    async with httpx.AsyncClient() as client:
        monitor = await open_monitor("team/a", settings, read_only=True, http_client=client, journal_dir=tmp_path)
        assert monitor.journal is not None and monitor.journal.path.parent == tmp_path
        assert monitor.journal.policy.days == 7
        assert [rule.kind for rule in monitor.engine.rules if rule.kind == "job_failed"] == ["job_failed"]
        await monitor.aclose()
    off, _ = read_monitor_settings(None, {"enabled": False})
    assert off.journal_file("prod") is None


def test_bad_monitor_settings_give_one_warning_each_and_keep_the_defaults() -> None:
    settings, warnings = read_monitor_settings(
        {"delivery": {"webhooks": [{"url": "https://hooks.example/secret-token", "form": "fax"}]}},
        {"retention_days": -1, "max_megabytes": "lots", "colour": "red"},
    )
    assert settings == MonitorSettings()
    assert len(warnings) == 4
    assert not any("secret-token" in warning for warning in warnings)
    assert any(warning.startswith("[alerts.delivery] webhooks.0.form") for warning in warnings)


def test_a_batch_page_that_left_no_document_counts_as_failed() -> None:
    clock = Clock()
    monitor = Monitor(context=None, engine=AlertEngine([BatchFailedRule(max_failed_percent=25)], clock), clock=clock)
    heard: list[str] = []
    monitor.listen(lambda event, notice: heard.append(event.alert.sentence))
    documents = [
        {"metadata": {"statusCode": 200}},
        {"metadata": {"statusCode": 200}},
        {"metadata": {"statusCode": 404, "error": "Not Found"}},
    ]  # the fourth page timed out: the service lists it among the batch's errors, not its documents
    finished = BatchScrapeStatus.model_validate({"status": "completed", "completed": 4, "total": 4, "data": documents})
    monitor.saw_crawl("batch", "b-1", finished)
    assert heard == ["batch b-1 finished at 12:00 UTC with 2 of 4 pages failed (50%)"]
