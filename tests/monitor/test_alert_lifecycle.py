"""The engine's lifecycle beyond one rule: noise control, acknowledgement, silences, bounded memory."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.monitor.clock import Clock
from tui.monitor.alerts.engine import AlertEngine
from tui.monitor.alerts.job_watchers import KEPT_PER_WINDOW
from tui.monitor.alerts.observations import (
    BatchFinished,
    CrawlProgress,
    CreditReading,
    JobObserved,
    ServiceHealth,
    WebhookDelivery,
)
from tui.monitor.alerts.rules import (
    BatchFailedRule,
    CrawlEndedRule,
    CreditsRule,
    JobFailedRule,
    ServiceDownRule,
    WebhookUnverifiedRule,
)


def failed(
    clock: Clock, job_id: str, host: str = "a.example", kind: str = "scrape", http_status: int | None = None
) -> JobObserved:
    """A job of `host` that failed now, with error "timeout"."""
    return JobObserved(
        kind=kind, id=job_id, host=host, state="failed", http_status=http_status, error="timeout", at=clock()
    )


def whats(events: list) -> list[tuple[str, str]]:
    return [(event.what, event.alert.subject) for event in events]


def test_failures_fire_only_at_the_count_within_the_window() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=3, window_minutes=10)], clock)
    assert engine.observe(failed(clock, "j1")) == []
    clock.advance(minutes=6)
    assert engine.observe(failed(clock, "j2")) == []
    clock.advance(minutes=5)  # j1 is out of the window: two in the last 10 min
    assert engine.observe(failed(clock, "j3")) == []
    assert whats(engine.observe(failed(clock, "j4"))) == [("fired", "a.example")]


def test_a_job_seen_failed_by_several_polls_counts_once() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=2)], clock)
    for _ in range(5):
        assert engine.observe(failed(clock, "same")) == []


def test_jobs_that_did_not_fail_never_count() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=1)], clock)
    assert engine.observe(JobObserved(kind="scrape", id="ok", state="completed", http_status=200, at=clock())) == []
    assert engine.observe(JobObserved(kind="crawl", id="run", state="scraping", at=clock())) == []


def test_failures_count_apart_per_host_and_the_sentence_says_the_count_and_cause() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=2)], clock)
    engine.observe(failed(clock, "a1"))
    engine.observe(failed(clock, "b1", host="b.example"))
    events = engine.observe(failed(clock, "a2"))
    assert whats(events) == [("fired", "a.example")]
    assert events[0].alert.sentence == "2 jobs failed (host a.example) in the last 10 min; last: timeout"


@pytest.mark.parametrize(
    ("rule", "subject"), [(JobFailedRule(count=1, by="kind"), "crawl"), (JobFailedRule(count=1, by="status"), "404")]
)
def test_failures_group_by_kind_or_status(rule: JobFailedRule, subject: str) -> None:
    clock = Clock()
    engine = AlertEngine([rule], clock)
    job = JobObserved(kind="crawl", id="c1", host="x.example", state="completed", http_status=404, at=clock())
    assert whats(engine.observe(job)) == [("fired", subject)]


def test_filters_keep_only_the_kinds_statuses_and_hosts_asked_for() -> None:
    clock = Clock()
    rule = JobFailedRule(count=1, job_kinds=("scrape",), statuses=(429,), hosts=("a.example",))
    engine = AlertEngine([rule], clock)
    assert engine.observe(failed(clock, "other-kind", kind="crawl", http_status=429)) == []
    assert engine.observe(failed(clock, "other-status", http_status=500)) == []
    assert engine.observe(failed(clock, "other-host", host="b.example", http_status=429)) == []
    assert whats(engine.observe(failed(clock, "wanted", http_status=429))) == [("fired", "a.example")]


def test_an_acknowledged_alert_repeats_no_more_but_still_resolves() -> None:
    clock = Clock()
    engine = AlertEngine([ServiceDownRule(minutes=1, repeat_minutes=5)], clock)
    engine.observe(ServiceHealth(state="refused", at=clock()))
    clock.advance(minutes=1)
    assert whats(engine.tick()) == [("fired", "key refused")]
    assert engine.acknowledge("service_down", "key refused")
    assert engine.firing()[0].acknowledged
    clock.advance(minutes=30)
    assert engine.tick() == []
    assert whats(engine.observe(ServiceHealth(state="ok", at=clock()))) == [("resolved", "key refused")]


def test_acknowledging_what_does_not_fire_says_so() -> None:
    engine = AlertEngine([ServiceDownRule()], Clock())
    assert not engine.acknowledge("service_down", "unreachable")


def test_a_silenced_rule_fires_nothing_until_the_silence_ends_then_fires_if_it_still_holds() -> None:
    clock = Clock()
    engine = AlertEngine([WebhookUnverifiedRule(window_minutes=120)], clock)
    engine.silence("webhook_unverified", minutes=30)
    assert engine.observe(WebhookDelivery(verified=False, at=clock())) == []
    assert engine.firing() == []
    clock.advance(minutes=29)
    assert engine.tick() == []
    clock.advance(minutes=1)
    assert whats(engine.tick()) == [("fired", "webhooks")]


def test_silencing_one_subject_leaves_the_others_loud() -> None:
    clock = Clock()
    engine = AlertEngine([CrawlEndedRule()], clock)
    engine.silence("crawl_failed", minutes=60, subject="noisy")
    assert engine.observe(CrawlProgress(id="noisy", status="cancelled", at=clock())) == []
    assert whats(engine.observe(CrawlProgress(id="other", status="cancelled", at=clock()))) == [("fired", "other")]
    assert engine.silenced("crawl_failed", "noisy") and not engine.silenced("crawl_failed", "other")


def test_a_silence_holds_back_the_repeats_of_a_firing_alert_and_they_come_back_after() -> None:
    clock = Clock()
    engine = AlertEngine([CreditsRule(repeat_minutes=10)], clock)
    engine.observe(CreditReading(remaining_credits=1, plan_credits=100, at=clock()))
    engine.silence("credits", minutes=25)
    clock.advance(minutes=20)
    assert engine.tick() == []
    clock.advance(minutes=5)
    assert whats(engine.tick()) == [("repeated", "remaining")]


def test_silencing_a_rule_that_does_not_run_is_refused() -> None:
    engine = AlertEngine([CreditsRule(enabled=False)], Clock())
    with pytest.raises(KeyError):
        engine.silence("credits", minutes=5)


def test_a_disabled_rule_never_fires() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=1, enabled=False)], clock)
    assert engine.rules == []
    assert engine.observe(failed(clock, "j1")) == []


def test_two_rules_of_one_kind_fire_each_under_its_name() -> None:
    clock = Clock()
    rules = [JobFailedRule(count=1), JobFailedRule(name="by-kind", count=1, by="kind")]
    engine = AlertEngine(rules, clock)
    events = engine.observe(failed(clock, "j1"))
    assert sorted((event.alert.rule, event.alert.subject) for event in events) == [
        ("by-kind", "scrape"),
        ("job_failed", "a.example"),
    ]


def test_subjects_are_bounded_the_oldest_forgotten_first() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=1)], clock, max_subjects=3)
    for number in range(10):
        engine.observe(failed(clock, f"j{number}", host=f"h{number}.example"))
    assert [alert.subject for alert in engine.firing()] == ["h7.example", "h8.example", "h9.example"]


def test_a_window_keeps_a_bounded_number_of_failures() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=3, window_minutes=60)], clock)
    for number in range(1000):
        engine.observe(failed(clock, f"j{number}"))
        clock.advance(seconds=1)
    (alert,) = engine.firing()
    assert alert.sentence.startswith(f"{3 + KEPT_PER_WINDOW} jobs failed")


def test_resolved_alerts_are_listed_newest_first_and_the_list_is_bounded() -> None:
    clock = Clock()
    engine = AlertEngine([CrawlEndedRule(window_minutes=1)], clock)
    for number in range(150):
        engine.observe(CrawlProgress(id=f"c{number}", status="failed", at=clock()))
        clock.advance(minutes=1)
        engine.tick()
    resolved = engine.resolved()
    assert len(resolved) == 100
    assert resolved[0].subject == "c149" and resolved[0].resolved_at == clock()
    assert resolved[0].resolved_at - resolved[0].fired_at == timedelta(minutes=1)


def test_two_rules_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="share a name"):
        AlertEngine([JobFailedRule(), JobFailedRule(count=9)], Clock())


def test_one_failure_is_said_in_the_singular() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=1)], clock)
    (event,) = engine.observe(failed(clock, "j1"))
    assert event.alert.sentence == "1 job failed (host a.example) in the last 10 min; last: timeout"


def test_a_failed_job_still_listed_after_its_window_does_not_count_again() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=2, window_minutes=10)], clock)
    engine.observe(failed(clock, "j1"))
    clock.advance(minutes=30)
    assert engine.observe(failed(clock, "j1")) == []  # the same job, seen by a later poll
    assert whats(engine.observe(failed(clock, "j2"))) == []


@pytest.mark.parametrize(
    ("rule", "seen"),
    [
        (CrawlEndedRule(window_minutes=60), lambda at: CrawlProgress(id="c", status="failed", at=at)),
        (BatchFailedRule(window_minutes=60), lambda at: BatchFinished(id="b", total=2, failed=2, at=at)),
    ],
)
def test_an_ended_crawl_or_batch_fires_once_however_long_polls_list_it(rule, seen) -> None:
    clock = Clock()
    engine = AlertEngine([rule], clock)
    assert [event.what for event in engine.observe(seen(clock()))] == ["fired"]
    clock.advance(minutes=60)
    assert [event.what for event in engine.observe(seen(clock()))] == ["resolved"]
    for _ in range(5):
        clock.advance(minutes=60)
        assert engine.observe(seen(clock())) == []


def test_a_silence_lasts_some_minutes() -> None:
    engine = AlertEngine([CreditsRule()], Clock())
    with pytest.raises(ValueError, match="some minutes"):
        engine.silence("credits", minutes=0)


def test_a_polls_observations_fed_at_once_make_one_judgement() -> None:
    clock = Clock()
    engine = AlertEngine([JobFailedRule(count=3)], clock)
    events = engine.observe_all([failed(clock, "j1"), failed(clock, "j2"), failed(clock, "j3")])
    assert [(event.what, event.alert.sentence) for event in events] == [
        ("fired", "3 jobs failed (host a.example) in the last 10 min; last: timeout")
    ]
