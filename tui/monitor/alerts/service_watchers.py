"""Watchers of the team's account and the service itself: credits, hourly usage, the queue, reachability."""

from __future__ import annotations

from datetime import datetime, timedelta
from statistics import median

from tui.monitor.alerts.observations import (
    CreditReading,
    Observation,
    Observed,
    QueueReading,
    ServiceHealth,
    UsageHourly,
)
from tui.monitor.alerts.rules import CreditsRule, QueueSaturatedRule, ServiceDownRule, UsageSpikeRule
from tui.monitor.alerts.watching import DEFAULT_MAX_SUBJECTS, Finding, SubjectMemory, clock_time, span

PROJECT_FROM = 0.05
"""Share of a billing period that must have passed before its use is projected: a first hour's
burst would otherwise project to a hundred times the plan."""

TEAM = "team"
"""The usage subject when a reading names no API key."""


def credits(value: float) -> str:
    """`12.3k`, `1.2M`, `950` credits in a sentence."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if abs(value) >= size:
            return f"{value / size:.1f}{suffix}"
    return f"{value:.0f}"


class CreditsWatcher:
    """The last credit reading: the share of the plan left, and this period's use projected to its end."""

    accepts: tuple[type[Observed], ...] = (CreditReading,)

    def __init__(self, rule: CreditsRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._last: CreditReading | None = None

    def observe(self, observation: Observation) -> None:
        if isinstance(observation, CreditReading):
            self._last = observation

    def findings(self, now: datetime) -> list[Finding]:
        reading, rule = self._last, self.rule
        if reading is None or not reading.plan_credits:
            return []
        found = []
        left = 100.0 * reading.remaining_credits / reading.plan_credits
        if rule.min_remaining_percent is not None and left < rule.min_remaining_percent:
            sentence = f"{credits(reading.remaining_credits)} credits left, {left:.0f}% of the plan's {credits(reading.plan_credits)}"
            found.append(Finding("remaining", sentence))
        projected = self.projected(reading)
        if rule.budget is not None and projected is not None and projected > rule.budget:
            used = reading.plan_credits - reading.remaining_credits
            sentence = (
                f"credits this period projected at {credits(projected)}, over the budget of {credits(rule.budget)} "
                f"({credits(used)} used by {clock_time(reading.at)})"
            )
            found.append(Finding("budget", sentence))
        return found

    @staticmethod
    def projected(reading: CreditReading) -> float | None:
        """The period's use at its end, at the pace so far (None before PROJECT_FROM of it has passed)."""
        start, end, plan = reading.billing_period_start, reading.billing_period_end, reading.plan_credits
        if start is None or end is None or plan is None or end <= start:
            return None
        passed = (reading.at - start) / (end - start)
        if not PROJECT_FROM <= passed <= 1:
            return None
        return (plan - reading.remaining_credits) / passed


class UsageSpikeWatcher:
    """Credits per hour for the team or each API key; the newest hour against the median of those before it.

    A median of zero (a team that was idle) makes no spike: any use would be infinitely
    more, and the first scrape of the day is not news. The newest hour is judged only while
    it is recent (within two hours of the engine's clock).
    """

    accepts: tuple[type[Observed], ...] = (UsageHourly,)

    def __init__(self, rule: UsageSpikeRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._hours: SubjectMemory[dict[datetime, float]] = SubjectMemory(max_subjects)

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, UsageHourly):
            return
        subject = observation.api_key or TEAM
        hours = self._hours.get(subject) or {}
        hours[observation.hour] = observation.credits  # a later reading of the same hour replaces it
        for old in sorted(hours)[: -self.rule.history_hours - 1]:
            del hours[old]
        self._hours.put(subject, hours)

    def findings(self, now: datetime) -> list[Finding]:
        found = []
        for subject, hours in self._hours.items():
            newest, *_ = sorted(hours, reverse=True)
            before = [hours[hour] for hour in hours if hour != newest]
            if now - newest >= timedelta(hours=2) or len(before) < self.rule.min_hours:
                continue
            usual = median(before)
            if usual > 0 and hours[newest] > self.rule.factor * usual:
                who = "the team" if subject == TEAM else f"key {subject}"
                sentence = (
                    f"{credits(hours[newest])} credits used by {who} in the hour from {clock_time(newest)}, "
                    f"{hours[newest] / usual:.1f}x the median of {credits(usual)}"
                )
                found.append(Finding(subject, sentence))
        return found


class QueueSaturatedWatcher:
    """Since when the queue has been saturated without a break."""

    accepts: tuple[type[Observed], ...] = (QueueReading,)
    SUBJECT = "queue"

    def __init__(self, rule: QueueSaturatedRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._since: datetime | None = None
        self._last: QueueReading | None = None

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, QueueReading):
            return
        self._last = observation
        if not observation.saturated:
            self._since = None
        elif self._since is None:
            self._since = observation.at

    def findings(self, now: datetime) -> list[Finding]:
        if self._since is None or self._last is None or now - self._since < timedelta(minutes=self.rule.minutes):
            return []
        last = self._last
        sentence = (
            f"the queue has been saturated for {span((now - self._since).total_seconds())}: "
            f"{last.active_jobs_in_queue} of {last.max_concurrency} workers busy, {last.waiting_jobs_in_queue} jobs waiting"
        )
        return [Finding(self.SUBJECT, sentence)]


class ServiceDownWatcher:
    """Since when the service has been unreachable, or refused the key, without a good answer between."""

    accepts: tuple[type[Observed], ...] = (ServiceHealth,)
    SUBJECTS = {"unreachable": "unreachable", "refused": "key refused"}

    def __init__(self, rule: ServiceDownRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._first: ServiceHealth | None = None  # the first of the current run of bad answers
        self._latest: ServiceHealth | None = None  # its last, whose detail is the freshest

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, ServiceHealth):
            return
        if observation.state == "ok":
            self._first = self._latest = None
            return
        if self._first is None or self._first.state != observation.state:
            self._first = observation
        self._latest = observation

    def findings(self, now: datetime) -> list[Finding]:
        first, latest = self._first, self._latest
        if first is None or latest is None or now - first.at < timedelta(minutes=self.rule.minutes):
            return []
        how_long = span((now - first.at).total_seconds())
        if first.state == "refused":
            sentence = f"the service has refused the API key for {how_long}"
        else:
            sentence = f"the service has been unreachable for {how_long}"
        detail = f": {latest.detail}" if latest.detail else ""
        return [Finding(self.SUBJECTS[first.state], sentence + detail)]
