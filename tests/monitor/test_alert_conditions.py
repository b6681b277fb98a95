"""Where each rule kind draws its line: what holds, what does not, and what makes it stop holding."""

from __future__ import annotations

from datetime import timedelta

from tests.monitor.clock import Clock
from tui.contract.models import CreditBalance, QueueStatus
from tui.monitor.alerts.engine import AlertEngine
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
    BatchFailedRule,
    CrawlEndedRule,
    CrawlStalledRule,
    CreditsRule,
    JobFailedRule,
    QueueSaturatedRule,
    ServiceDownRule,
    SessionExpiringRule,
    UsageSpikeRule,
    WebhookUnverifiedRule,
)


def whats(events: list) -> list[tuple[str, str]]:
    return [(event.what, event.alert.subject) for event in events]


def period_reading(clock: Clock, used: float, days_in: float, plan: float = 30_000) -> CreditReading:
    """A 30-day billing period `days_in` days old, `used` of `plan` credits spent."""
    start = clock() - timedelta(days=days_in)
    return CreditReading(
        remaining_credits=plan - used,
        plan_credits=plan,
        billing_period_start=start,
        billing_period_end=start + timedelta(days=30),
        at=clock(),
    )


def test_credits_projected_over_the_budget_fire_with_the_projection() -> None:
    clock = Clock()
    engine = AlertEngine([CreditsRule(budget=20_000, min_remaining_percent=None)], clock)
    assert engine.observe(period_reading(clock, used=6_000, days_in=10)) == []  # on pace for 18k
    events = engine.observe(period_reading(clock, used=8_000, days_in=10))
    assert whats(events) == [("fired", "budget")]
    assert (
        events[0].alert.sentence
        == "credits this period projected at 24.0k, over the budget of 20.0k (8.0k used by 12:00 UTC)"
    )


def test_credits_are_not_projected_in_the_first_twentieth_of_the_period() -> None:
    clock = Clock()
    engine = AlertEngine([CreditsRule(budget=1_000, min_remaining_percent=None)], clock)
    assert engine.observe(period_reading(clock, used=900, days_in=1)) == []  # 1 day of 30: too early to say
    assert whats(engine.observe(period_reading(clock, used=900, days_in=2))) == [("fired", "budget")]


def test_credits_without_a_plan_say_nothing() -> None:
    clock = Clock()
    engine = AlertEngine([CreditsRule(budget=1)], clock)
    assert engine.observe(CreditReading(remaining_credits=0, at=clock())) == []


def test_credit_and_queue_readings_come_from_the_contracts_models() -> None:
    clock = Clock()
    balance = CreditBalance.model_validate({"remainingCredits": 20, "planCredits": 1000})
    reading = CreditReading.from_balance(balance, clock())
    assert (reading.remaining_credits, reading.plan_credits, reading.at) == (20, 1000, clock())
    status = QueueStatus.model_validate({"activeJobsInQueue": 2, "waitingJobsInQueue": 1, "maxConcurrency": 2})
    assert QueueReading.from_status(status, clock()).saturated == status.saturated is True


def usage_hours(engine: AlertEngine, clock: Clock, credits: list[float], api_key: str | None = None) -> list:
    """One reading an hour, the last being this hour."""
    this_hour = clock().replace(minute=0)
    events = []
    for back, used in enumerate(reversed(credits)):
        hour = this_hour - timedelta(hours=back)
        events += engine.observe(UsageHourly(hour=hour, credits=used, api_key=api_key, at=clock()))
    return events


def test_a_usage_spike_needs_enough_hours_and_a_median_above_zero() -> None:
    clock = Clock()
    engine = AlertEngine([UsageSpikeRule(min_hours=6)], clock)
    assert usage_hours(engine, clock, [10] * 5 + [1_000]) == []  # five hours before it: too few
    assert usage_hours(AlertEngine([UsageSpikeRule()], clock), clock, [0] * 6 + [1_000]) == []  # idle, then work
    events = usage_hours(AlertEngine([UsageSpikeRule()], clock), clock, [10] * 6 + [31], api_key="k-9")
    assert whats(events) == [("fired", "k-9")]
    assert events[0].alert.sentence == "31 credits used by key k-9 in the hour from 12:00 UTC, 3.1x the median of 10"


def test_a_usage_spike_resolves_once_its_hour_is_two_hours_old() -> None:
    clock = Clock()
    engine = AlertEngine([UsageSpikeRule(repeat_minutes=600)], clock)
    assert whats(usage_hours(engine, clock, [10] * 6 + [100])) == [("fired", "team")]
    clock.advance(minutes=119)
    assert engine.tick() == []
    clock.advance(minutes=1)
    assert whats(engine.tick()) == [("resolved", "team")]


def test_a_session_alert_resolves_when_the_session_has_expired() -> None:
    clock = Clock()
    engine = AlertEngine([SessionExpiringRule(minutes=5)], clock)
    assert engine.observe(SessionSeen(id="s", expires_at=clock() + timedelta(minutes=6), at=clock())) == []
    clock.advance(minutes=1)
    assert whats(engine.tick()) == [("fired", "s")]
    clock.advance(minutes=5)
    assert whats(engine.tick()) == [("resolved", "s")]


def test_a_crawl_that_completes_neither_fails_nor_stalls_any_more() -> None:
    clock = Clock()
    engine = AlertEngine([CrawlEndedRule(), CrawlStalledRule(minutes=5)], clock)
    engine.observe(CrawlProgress(id="c", status="scraping", completed=3, total=9, at=clock()))
    clock.advance(minutes=5)
    assert whats(engine.tick()) == [("fired", "c")]
    assert whats(engine.observe(CrawlProgress(id="c", status="completed", completed=9, total=9, at=clock()))) == [
        ("resolved", "c")
    ]
    assert engine.firing() == []


def test_only_the_states_a_crawl_rule_names_fire() -> None:
    clock = Clock()
    engine = AlertEngine([CrawlEndedRule(states=("failed",))], clock)
    assert engine.observe(CrawlProgress(id="c", status="cancelled", at=clock())) == []
    assert whats(engine.observe(CrawlProgress(id="d", status="failed", at=clock()))) == [("fired", "d")]


def test_a_batch_fires_only_above_its_failed_share() -> None:
    clock = Clock()
    engine = AlertEngine([BatchFailedRule(max_failed_percent=10)], clock)
    assert engine.observe(BatchFinished(id="b1", total=10, failed=1, at=clock())) == []
    assert engine.observe(BatchFinished(id="b0", total=0, failed=0, at=clock())) == []
    assert whats(engine.observe(BatchFinished(id="b2", total=10, failed=2, at=clock()))) == [("fired", "b2")]


def test_the_queue_must_stay_saturated_without_a_break() -> None:
    clock = Clock()
    engine = AlertEngine([QueueSaturatedRule(minutes=10)], clock)
    busy = {"active_jobs_in_queue": 4, "waiting_jobs_in_queue": 3, "max_concurrency": 4}
    engine.observe(QueueReading(**busy, at=clock()))
    clock.advance(minutes=6)
    engine.observe(QueueReading(active_jobs_in_queue=2, max_concurrency=4, at=clock()))  # a break
    engine.observe(QueueReading(**busy, at=clock()))
    clock.advance(minutes=6)
    assert engine.tick() == []
    assert (
        engine.observe(QueueReading(active_jobs_in_queue=9, waiting_jobs_in_queue=9, at=clock())) == []
    )  # no limit known
    clock.advance(minutes=20)
    assert engine.tick() == []


def test_a_refusal_after_unreachable_starts_its_own_count() -> None:
    clock = Clock()
    engine = AlertEngine([ServiceDownRule(minutes=3)], clock)
    engine.observe(ServiceHealth(state="unreachable", at=clock()))
    clock.advance(minutes=2)
    engine.observe(ServiceHealth(state="refused", at=clock()))
    clock.advance(minutes=2)
    assert engine.tick() == []
    clock.advance(minutes=1)
    events = engine.tick()
    assert whats(events) == [("fired", "key refused")]
    assert events[0].alert.sentence == "the service has refused the API key for 3 min"


def test_verified_webhooks_never_count_and_the_count_is_the_rules() -> None:
    clock = Clock()
    engine = AlertEngine([WebhookUnverifiedRule(count=2)], clock)
    assert engine.observe(WebhookDelivery(verified=True, at=clock())) == []
    assert engine.observe(WebhookDelivery(verified=False, at=clock())) == []
    assert whats(engine.observe(WebhookDelivery(verified=False, at=clock()))) == [("fired", "webhooks")]


def test_by_default_a_rule_remembers_200_subjects() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=1)], clock)
    for number in range(250):
        engine.observe(JobObserved(kind="scrape", id=f"j{number}", host=f"h{number}", state="failed", at=clock()))
    assert len(engine.firing()) == 200
    assert engine.firing()[0].subject == "h50"


def test_an_unreachable_service_is_explained_by_its_latest_failure() -> None:
    clock = Clock()
    engine = AlertEngine([ServiceDownRule(minutes=3)], clock)
    engine.observe(ServiceHealth(state="unreachable", detail="connection refused", at=clock()))
    clock.advance(minutes=3)
    (event,) = engine.observe(ServiceHealth(state="unreachable", detail="timed out after 30 s", at=clock()))
    assert event.alert.sentence == "the service has been unreachable for 3 min: timed out after 30 s"


def test_a_stalled_crawl_no_poll_shows_for_an_hour_is_forgotten() -> None:
    clock = Clock()
    engine = AlertEngine([CrawlStalledRule(minutes=10, repeat_minutes=600)], clock)
    engine.observe(CrawlProgress(id="c", status="scraping", completed=3, total=9, at=clock()))
    clock.advance(minutes=10)
    assert whats(engine.observe(CrawlProgress(id="c", status="scraping", completed=3, total=9, at=clock()))) == [
        ("fired", "c")
    ]
    clock.advance(minutes=59)
    assert engine.tick() == []
    clock.advance(minutes=1)
    assert whats(engine.tick()) == [("resolved", "c")]
