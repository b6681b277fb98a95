"""The alert engine: observations in, events out (fired, repeated, resolved), on an injected clock.

Each alert is a rule's name plus a subject (a host, a crawl id, `queue`, ...). It
fires the first time its rule holds, is said again every `repeat_minutes` while
the rule still holds, and resolves once it no longer does. An operator can
acknowledge an alert (no more repeats; it still resolves) or silence a rule, or
one subject of it, for a time (nothing new fires and nothing repeats until the
silence ends). The engine does no I/O: whoever feeds it delivers its events.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from tui.monitor.alerts.job_watchers import (
    BatchFailedWatcher,
    CrawlEndedWatcher,
    CrawlStalledWatcher,
    JobFailedWatcher,
    SessionExpiringWatcher,
    WebhookUnverifiedWatcher,
)
from tui.monitor.alerts.observations import Observation
from tui.monitor.alerts.rules import (
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
from tui.monitor.alerts.service_watchers import (
    CreditsWatcher,
    QueueSaturatedWatcher,
    ServiceDownWatcher,
    UsageSpikeWatcher,
)
from tui.monitor.alerts.watching import DEFAULT_MAX_SUBJECTS, Finding, Target, Watcher

WATCHERS: dict[type[Rule], Callable[..., Watcher]] = {
    JobFailedRule: JobFailedWatcher,
    CrawlEndedRule: CrawlEndedWatcher,
    CrawlStalledRule: CrawlStalledWatcher,
    BatchFailedRule: BatchFailedWatcher,
    SessionExpiringRule: SessionExpiringWatcher,
    CreditsRule: CreditsWatcher,
    UsageSpikeRule: UsageSpikeWatcher,
    QueueSaturatedRule: QueueSaturatedWatcher,
    ServiceDownRule: ServiceDownWatcher,
    WebhookUnverifiedRule: WebhookUnverifiedWatcher,
}
"""The watcher that keeps what each rule kind needs."""

RESOLVED_KEPT = 100
"""Resolved alerts remembered for the alerts screen, newest first."""

Key = tuple[str, str]  # (rule name, subject)


@dataclass(frozen=True)
class Alert:
    """One alert as it stands: its rule and subject, the last sentence that explains it, and its story so far."""

    rule: str
    kind: str
    subject: str
    sentence: str
    opens: Target | None
    fired_at: datetime
    said_at: datetime  # when it was last fired or repeated
    acknowledged: bool = False
    repeats: int = 0
    resolved_at: datetime | None = None


@dataclass(frozen=True)
class AlertEvent:
    """Something to tell: an alert `fired`, was `repeated` while it holds, or `resolved`."""

    what: Literal["fired", "repeated", "resolved"]
    alert: Alert
    at: datetime

    @property
    def sentence(self) -> str:
        """What triggered it, for a person: `fired: 3 jobs failed (host example.com) ...`."""
        return f"{self.what}: {self.alert.sentence}"


class AlertEngine:
    """Runs the enabled rules over what it is fed; `clock` gives the time (UTC-aware datetimes)."""

    def __init__(
        self, rules: Iterable[Rule], clock: Callable[[], datetime], max_subjects: int = DEFAULT_MAX_SUBJECTS
    ) -> None:
        self._clock = clock
        enabled = [rule for rule in rules if rule.enabled]
        self._rules = {rule.name: rule for rule in enabled}
        if len(self._rules) < len(enabled):
            raise ValueError("two rules share a name: an alert is known by its rule's name")
        self._watchers = {name: WATCHERS[type(rule)](rule, max_subjects) for name, rule in self._rules.items()}
        self._max_alerts = max_subjects * max(1, len(self._rules))
        self._active: dict[Key, Alert] = {}
        self._resolved: deque[Alert] = deque(maxlen=RESOLVED_KEPT)
        self._silences: dict[Key, datetime] = {}  # (rule, subject or "") -> until

    @property
    def rules(self) -> list[Rule]:
        """The rules this engine runs (the enabled ones)."""
        return list(self._rules.values())

    def observe(self, observation: Observation) -> list[AlertEvent]:
        """Feed one observation to the rules that read its kind; the events it causes, at the clock's now."""
        return self.observe_all((observation,))

    def observe_all(self, observations: Iterable[Observation]) -> list[AlertEvent]:
        """Feed a poll's observations, then judge once: a page of 100 jobs costs one evaluation, not 100."""
        for observation in observations:
            for watcher in self._watchers.values():
                if isinstance(observation, watcher.accepts):
                    watcher.observe(observation)
        return self.tick()

    def tick(self) -> list[AlertEvent]:
        """Judge every rule at the clock's now (call it on a timer: stalls and expiries need no observation)."""
        now = self._clock()
        self._drop_ended_silences(now)
        events: list[AlertEvent] = []
        firing_by_rule: dict[str, list[Key]] = {}
        for key in self._active:
            firing_by_rule.setdefault(key[0], []).append(key)
        for name, watcher in self._watchers.items():
            holding = {finding.subject: finding for finding in watcher.findings(now)}
            for key in firing_by_rule.get(name, ()):
                if key[1] not in holding:
                    events.append(self._resolve(key, now))
            for finding in holding.values():
                event = self._hold(self._rules[name], finding, now)
                if event is not None:
                    events.append(event)
        return events

    def acknowledge(self, rule: str, subject: str) -> bool:
        """Stop repeats of a firing alert (it still resolves); False when no such alert fires."""
        alert = self._active.get((rule, subject))
        if alert is None:
            return False
        self._active[(rule, subject)] = replace(alert, acknowledged=True)
        return True

    def silence(self, rule: str, minutes: float, subject: str | None = None) -> datetime:
        """Say nothing new of `rule` (or of one subject of it) for `minutes`; when the silence ends."""
        if rule not in self._rules:
            raise KeyError(f"no enabled rule is named {rule!r}")
        if minutes <= 0:
            raise ValueError(f"a silence lasts some minutes, not {minutes:g}")
        until = self._clock() + timedelta(minutes=minutes)
        self._silences[(rule, subject or "")] = until
        return until

    def firing(self) -> list[Alert]:
        """Alerts that hold now, acknowledged or not, oldest first: the header's count and the alerts screen."""
        return sorted(self._active.values(), key=lambda alert: alert.fired_at)

    def resolved(self) -> list[Alert]:
        """The last resolved alerts, newest first."""
        return list(self._resolved)

    def silenced(self, rule: str, subject: str) -> bool:
        """Whether the rule, or this subject of it, is silenced now."""
        return self._silenced_at(rule, subject, self._clock())

    def _silenced_at(self, rule: str, subject: str, now: datetime) -> bool:
        return any(self._silences.get((rule, who), now) > now for who in ("", subject))

    def _hold(self, rule: Rule, finding: Finding, now: datetime) -> AlertEvent | None:
        key = (rule.name, finding.subject)
        alert = self._active.get(key)
        quiet = bool(self._silences) and self._silenced_at(rule.name, finding.subject, now)
        if alert is None:
            if quiet or len(self._active) >= self._max_alerts:
                return None
            alert = Alert(rule.name, rule.kind, finding.subject, finding.sentence, finding.opens, now, now)
            self._active[key] = alert
            return AlertEvent("fired", alert, now)
        if finding.sentence != alert.sentence or (finding.opens and finding.opens != alert.opens):
            alert = replace(alert, sentence=finding.sentence, opens=finding.opens or alert.opens)
        due = now - alert.said_at >= timedelta(minutes=rule.repeat_minutes)
        if due and not alert.acknowledged and not quiet:
            alert = replace(alert, said_at=now, repeats=alert.repeats + 1)
            self._active[key] = alert
            return AlertEvent("repeated", alert, now)
        self._active[key] = alert
        return None

    def _resolve(self, key: Key, now: datetime) -> AlertEvent:
        alert = replace(self._active.pop(key), resolved_at=now)
        self._resolved.appendleft(alert)
        return AlertEvent("resolved", alert, now)

    def _drop_ended_silences(self, now: datetime) -> None:
        for key in [key for key, until in self._silences.items() if until <= now]:
            del self._silences[key]
