"""Every rule kind fires when its condition holds, repeats at its interval while it holds, and resolves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest

from tests.monitor.clock import Clock
from tui.monitor.alerts.engine import AlertEngine, AlertEvent
from tui.monitor.alerts.observations import (
    BatchFinished,
    CrawlProgress,
    CreditReading,
    JobObserved,
    QueueReading,
    ServiceHealth,
    SessionSeen,
    UsageHourly,
    WebhookDelivery,
)
from tui.monitor.alerts.rules import (
    RULE_KINDS,
    BatchFailedRule,
    CrawlEndedRule,
    CrawlStalledRule,
    CreditsRule,
    JobFailedRule,
    QueueSaturatedRule,
    Rule,
    ServiceDownRule,
    SessionExpiringRule,
    UsageSpikeRule,
    WebhookUnverifiedRule,
)

Step = Callable[[AlertEngine, Clock], list[AlertEvent]]


@dataclass(frozen=True)
class Scenario:
    """A rule (repeating every 5 min), what makes it hold, and what makes it stop holding."""

    rule: Rule
    hold: Step
    clear: Step
    subject: str
    words: str  # in the fired sentence
    opens: tuple[str, str] | None = None


def failed_jobs(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    events = []
    for number in range(3):
        job = JobObserved(
            kind="scrape", id=f"job-{number}", host="a.example", state="completed", http_status=503, at=clock()
        )
        events += engine.observe(job)
    return events


def crawl_failed(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(CrawlProgress(id="crawl-1", status="failed", completed=40, total=100, at=clock()))


def crawl_stalls(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    events = engine.observe(CrawlProgress(id="crawl-1", status="scraping", completed=40, total=100, at=clock()))
    clock.advance(minutes=10)
    return events + engine.observe(CrawlProgress(id="crawl-1", status="scraping", completed=40, total=100, at=clock()))


def crawl_moves(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(CrawlProgress(id="crawl-1", status="scraping", completed=41, total=100, at=clock()))


def batch_half_failed(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(BatchFinished(id="batch-1", total=10, failed=5, at=clock()))


def session_near_end(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(SessionSeen(id="sess-1", expires_at=clock() + timedelta(minutes=9), at=clock()))


def session_closed(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(SessionSeen(id="sess-1", status="destroyed", at=clock()))


def credits_low(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(CreditReading(remaining_credits=500, plan_credits=10_000, at=clock()))


def credits_topped_up(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(CreditReading(remaining_credits=9_000, plan_credits=10_000, at=clock()))


def usage(engine: AlertEngine, clock: Clock, last: float) -> list[AlertEvent]:
    this_hour = clock().replace(minute=0)
    events = []
    for back in range(6, 0, -1):
        events += engine.observe(UsageHourly(hour=this_hour - timedelta(hours=back), credits=100, at=clock()))
    return events + engine.observe(UsageHourly(hour=this_hour, credits=last, at=clock()))


def queue(saturated: bool) -> Step:
    def read(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
        waiting = 7 if saturated else 0
        reading = QueueReading(active_jobs_in_queue=4, waiting_jobs_in_queue=waiting, max_concurrency=4, at=clock())
        return engine.observe(reading)

    return read


def queue_saturated_long(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    events = queue(True)(engine, clock)
    clock.advance(minutes=10)
    return events + engine.tick()


def service_unreachable_long(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    events = engine.observe(ServiceHealth(state="unreachable", detail="connection refused", at=clock()))
    clock.advance(minutes=3)
    return events + engine.tick()


def service_answers(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(ServiceHealth(state="ok", at=clock()))


def unverified_webhook(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
    return engine.observe(WebhookDelivery(verified=False, type="crawl.page", at=clock()))


def wait(minutes: float) -> Step:
    def step(engine: AlertEngine, clock: Clock) -> list[AlertEvent]:
        clock.advance(minutes=minutes)
        return engine.tick()

    return step


SCENARIOS = {
    "job_failed": Scenario(
        JobFailedRule(repeat_minutes=5), failed_jobs, wait(10), "a.example", "3 jobs failed", ("job", "job-2")
    ),
    "crawl_failed": Scenario(
        CrawlEndedRule(repeat_minutes=5), crawl_failed, wait(60), "crawl-1", "crawl-1 failed", ("crawl", "crawl-1")
    ),
    "crawl_stalled": Scenario(
        CrawlStalledRule(repeat_minutes=5),
        crawl_stalls,
        crawl_moves,
        "crawl-1",
        "no new page for 10 min",
        ("crawl", "crawl-1"),
    ),
    "batch_failed": Scenario(
        BatchFailedRule(repeat_minutes=5),
        batch_half_failed,
        wait(60),
        "batch-1",
        "5 of 10 pages failed (50%)",
        ("batch", "batch-1"),
    ),
    "session_expiring": Scenario(
        SessionExpiringRule(minutes=10, repeat_minutes=5),
        session_near_end,
        session_closed,
        "sess-1",
        "expires in 9 min",
        ("session", "sess-1"),
    ),
    "credits": Scenario(
        CreditsRule(repeat_minutes=5), credits_low, credits_topped_up, "remaining", "500 credits left, 5%"
    ),
    "usage_spike": Scenario(
        UsageSpikeRule(repeat_minutes=5),
        lambda engine, clock: usage(engine, clock, last=450),
        lambda engine, clock: usage(engine, clock, last=120),
        "team",
        "450 credits used by the team",
    ),
    "queue_saturated": Scenario(
        QueueSaturatedRule(repeat_minutes=5),
        queue_saturated_long,
        queue(False),
        "queue",
        "4 of 4 workers busy, 7 jobs waiting",
    ),
    "service_down": Scenario(
        ServiceDownRule(repeat_minutes=5),
        service_unreachable_long,
        service_answers,
        "unreachable",
        "unreachable for 3 min: connection refused",
    ),
    "webhook_unverified": Scenario(
        WebhookUnverifiedRule(repeat_minutes=5),
        unverified_webhook,
        wait(60),
        "webhooks",
        "1 unverified webhook delivery in the last 60 min (last: crawl.page at 12:00 UTC)",
    ),
}


def test_every_rule_kind_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(RULE_KINDS)
    assert all(scenario.rule.kind == kind for kind, scenario in SCENARIOS.items())


@pytest.mark.parametrize("kind", SCENARIOS)
def test_a_rule_fires_once_repeats_at_its_interval_and_resolves(kind: str) -> None:
    scenario, clock = SCENARIOS[kind], Clock()
    engine = AlertEngine([scenario.rule], clock)

    fired = scenario.hold(engine, clock)
    assert [event.what for event in fired] == ["fired"]
    alert = fired[0].alert
    assert (alert.rule, alert.subject) == (kind, scenario.subject)
    assert scenario.words in alert.sentence
    assert ((alert.opens.kind, alert.opens.id) if alert.opens else None) == scenario.opens
    assert [a.subject for a in engine.firing()] == [scenario.subject]

    clock.advance(minutes=4)
    assert engine.tick() == [], "said again before its interval"
    clock.advance(minutes=1)
    assert [event.what for event in engine.tick()] == ["repeated"]
    assert engine.firing()[0].repeats == 1

    resolved = scenario.clear(engine, clock)
    assert [(event.what, event.alert.subject) for event in resolved] == [("resolved", scenario.subject)]
    assert engine.firing() == []
    assert engine.resolved()[0].resolved_at == clock()
    assert engine.tick() == [], "a resolved alert stays quiet"
