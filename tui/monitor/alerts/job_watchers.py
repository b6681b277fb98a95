"""Watchers of jobs, crawls, batches, browser sessions and webhook deliveries: what each rule remembers."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta

from tui.monitor.alerts.observations import (
    BatchFinished,
    CrawlProgress,
    JobObserved,
    Observation,
    Observed,
    SessionSeen,
    WebhookDelivery,
)
from tui.monitor.alerts.rules import (
    BatchFailedRule,
    CrawlEndedRule,
    CrawlStalledRule,
    JobFailedRule,
    SessionExpiringRule,
    WebhookUnverifiedRule,
)
from tui.monitor.alerts.watching import DEFAULT_MAX_SUBJECTS, Finding, SubjectMemory, Target, clock_time, count_of, span

KEPT_PER_WINDOW = 100
"""Events a window keeps at most beyond its rule's count: enough to say "12 failed", never a day's worth."""

COUNTED_IDS_KEPT = 5_000
"""Failed job ids remembered as counted. Polls show a failed job for as long as the service lists
it (a day of activity): it must not count again once its first sighting has left the window."""


@dataclass(frozen=True)
class _Failure:
    at: datetime
    job_id: str
    kind: str
    error: str | None


class JobFailedWatcher:
    """Failed jobs per host, kind or status, each counted once, within the rule's window."""

    accepts: tuple[type[Observed], ...] = (JobObserved,)

    def __init__(self, rule: JobFailedRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._windows: SubjectMemory[deque[_Failure]] = SubjectMemory(max_subjects)
        self._counted: SubjectMemory[None] = SubjectMemory(COUNTED_IDS_KEPT)

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, JobObserved) or not observation.failed or not self._wanted(observation):
            return
        if observation.id in self._counted:  # a poll sees a failed job again and again: it counts once
            return
        self._counted.put(observation.id, None)
        subject = self._subject(observation)
        window = self._windows.get(subject) or deque(maxlen=self.rule.count + KEPT_PER_WINDOW)
        error = observation.error or (f"HTTP {observation.http_status}" if observation.http_status else None)
        window.append(_Failure(observation.at, observation.id, observation.kind, error))
        self._windows.put(subject, window)

    def findings(self, now: datetime) -> list[Finding]:
        since = now - timedelta(minutes=self.rule.window_minutes)
        found = []
        for subject, window in self._windows.items():
            while window and window[0].at <= since:
                window.popleft()
            if not window:
                self._windows.forget(subject)
            elif len(window) >= self.rule.count:
                last = window[-1]
                cause = f"; last: {last.error}" if last.error else ""
                sentence = f"{count_of(len(window), 'job', 'jobs')} failed ({self.rule.by} {subject}) in the last {span((now - since).total_seconds())}{cause}"
                found.append(Finding(subject, sentence, Target("job", last.job_id)))
        return found

    def _wanted(self, job: JobObserved) -> bool:
        rule = self.rule
        return (
            (not rule.job_kinds or job.kind in rule.job_kinds)
            and (not rule.statuses or job.http_status in rule.statuses)
            and (not rule.hosts or job.host in rule.hosts)
        )

    def _subject(self, job: JobObserved) -> str:
        if self.rule.by == "kind":
            return job.kind
        if self.rule.by == "status":
            return str(job.http_status) if job.http_status is not None else job.state or "failed"
        return job.host or "unknown host"


class CrawlEndedWatcher:
    """Crawls seen ending in one of the rule's states; each holds for the rule's window after its first sighting.

    A crawl stays remembered after its window (up to the subject limit): the recent list
    shows it for an hour or more, and a crawl that ended once must not fire again.
    """

    accepts: tuple[type[Observed], ...] = (CrawlProgress,)

    def __init__(self, rule: CrawlEndedRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._ended: SubjectMemory[CrawlProgress] = SubjectMemory(max_subjects)

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, CrawlProgress):
            return
        if observation.status in self.rule.states:
            if observation.id not in self._ended:  # the first sighting says when it ended
                self._ended.put(observation.id, observation)
        else:
            self._ended.forget(observation.id)

    def findings(self, now: datetime) -> list[Finding]:
        found = []
        for crawl_id, crawl in self._ended.items():
            if now - crawl.at >= timedelta(minutes=self.rule.window_minutes):
                continue
            pages = f" after {crawl.completed} of {crawl.total} pages" if crawl.total else ""
            sentence = f"crawl {crawl_id} {crawl.status} at {clock_time(crawl.at)}{pages}"
            found.append(Finding(crawl_id, sentence, Target("crawl", crawl_id)))
        return found


UNSEEN_FORGOTTEN = timedelta(hours=1)
"""A running crawl no poll has shown for this long left the active list without a final state
(or is no longer watched): it is forgotten, and its stall resolves."""


@dataclass(frozen=True)
class _Progress:
    completed: int
    total: int
    since: datetime  # when `completed` last changed
    seen: datetime  # when a poll last showed it


class CrawlStalledWatcher:
    """Running crawls and when their page count last grew."""

    accepts: tuple[type[Observed], ...] = (CrawlProgress,)

    def __init__(self, rule: CrawlStalledRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._running: SubjectMemory[_Progress] = SubjectMemory(max_subjects)

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, CrawlProgress):
            return
        if observation.finished:
            self._running.forget(observation.id)
            return
        known = self._running.get(observation.id)
        since = observation.at if known is None or observation.completed != known.completed else known.since
        self._running.put(observation.id, _Progress(observation.completed, observation.total, since, observation.at))

    def findings(self, now: datetime) -> list[Finding]:
        found = []
        for crawl_id, progress in self._running.items():
            if now - progress.seen >= UNSEEN_FORGOTTEN:
                self._running.forget(crawl_id)
                continue
            quiet = now - progress.since
            if quiet >= timedelta(minutes=self.rule.minutes):
                pages = f" ({progress.completed} of {progress.total} pages)" if progress.total else ""
                sentence = f"crawl {crawl_id} has had no new page for {span(quiet.total_seconds())}{pages}"
                found.append(Finding(crawl_id, sentence, Target("crawl", crawl_id)))
        return found


class BatchFailedWatcher:
    """Finished batches over the rule's failed share; each holds for the rule's window, and fires only once."""

    accepts: tuple[type[Observed], ...] = (BatchFinished,)

    def __init__(self, rule: BatchFailedRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._bad: SubjectMemory[BatchFinished] = SubjectMemory(max_subjects)

    def observe(self, observation: Observation) -> None:
        if isinstance(observation, BatchFinished) and observation.failed_percent > self.rule.max_failed_percent:
            if observation.id not in self._bad:
                self._bad.put(observation.id, observation)

    def findings(self, now: datetime) -> list[Finding]:
        found = []
        for batch_id, batch in self._bad.items():
            if now - batch.at >= timedelta(minutes=self.rule.window_minutes):
                continue
            sentence = (
                f"batch {batch_id} finished at {clock_time(batch.at)} with {batch.failed} of {batch.total} pages "
                f"failed ({batch.failed_percent:.0f}%)"
            )
            found.append(Finding(batch_id, sentence, Target("batch", batch_id)))
        return found


class SessionExpiringWatcher:
    """Active browser sessions and when each expires."""

    accepts: tuple[type[Observed], ...] = (SessionSeen,)

    def __init__(self, rule: SessionExpiringRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._expiries: SubjectMemory[datetime] = SubjectMemory(max_subjects)

    def observe(self, observation: Observation) -> None:
        if not isinstance(observation, SessionSeen):
            return
        if observation.status != "active" or observation.expires_at is None:
            self._expiries.forget(observation.id)
        else:
            self._expiries.put(observation.id, observation.expires_at)

    def findings(self, now: datetime) -> list[Finding]:
        found = []
        for session_id, expires_at in self._expiries.items():
            left = expires_at - now
            if left <= timedelta(0):
                self._expiries.forget(session_id)  # gone: nothing left to save
            elif left <= timedelta(minutes=self.rule.minutes):
                sentence = f"browser session {session_id} expires in {span(left.total_seconds())} (at {clock_time(expires_at)})"
                found.append(Finding(session_id, sentence, Target("session", session_id)))
        return found


class WebhookUnverifiedWatcher:
    """Arrivals of webhook deliveries whose signature did not check out, within the rule's window."""

    accepts: tuple[type[Observed], ...] = (WebhookDelivery,)
    SUBJECT = "webhooks"

    def __init__(self, rule: WebhookUnverifiedRule, max_subjects: int = DEFAULT_MAX_SUBJECTS) -> None:
        self.rule = rule
        self._arrivals: deque[WebhookDelivery] = deque(maxlen=rule.count + KEPT_PER_WINDOW)

    def observe(self, observation: Observation) -> None:
        if isinstance(observation, WebhookDelivery) and not observation.verified:
            self._arrivals.append(observation)

    def findings(self, now: datetime) -> list[Finding]:
        since = now - timedelta(minutes=self.rule.window_minutes)
        while self._arrivals and self._arrivals[0].at <= since:
            self._arrivals.popleft()
        if len(self._arrivals) < self.rule.count:
            return []
        last = self._arrivals[-1]
        what = f" (last: {last.type} at {clock_time(last.at)})" if last.type else f" (last at {clock_time(last.at)})"
        sentence = f"{count_of(len(self._arrivals), 'unverified webhook delivery', 'unverified webhook deliveries')} in the last {span((now - since).total_seconds())}{what}"
        return [Finding(self.SUBJECT, sentence)]
