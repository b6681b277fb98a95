"""The one place what a context's polls saw goes in: journal records, alert observations, alert events out.

The dashboard's panes and `wds-tui watch`'s poller call the `saw_*` methods with
the client's own models. Each call writes the journal (queued: nothing here waits
on the file), feeds the alert rules, and hands every alert event to the
deliverer (command, webhooks) and to the listeners (the dashboard's header,
toast and terminal notification; watch's JSON lines). Nothing here does I/O of
its own or blocks, so it is called on the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Literal
from urllib.parse import urlsplit

from tui.contract.models import CreditBalance, QueueStatus
from tui.contract.models.browser import BrowserSession, BrowserSessionCreated, SessionStatus
from tui.contract.models.common import JobStatus
from tui.contract.models.job_summary import JobSummary
from tui.contract.models.team import ActivityEntry, TokenUsageHistory
from tui.contract.redact import mask_key
from tui.monitor.alert_notices import alert_detail, alert_id, notice_of
from tui.monitor.alerts.engine import AlertEngine, AlertEvent
from tui.monitor.alerts.observations import (
    BatchFinished,
    CrawlProgress,
    JobObserved,
    Observation,
    QueueReading,
    ServiceHealth,
    SessionSeen,
    UsageHourly,
    WebhookDelivery,
)
from tui.monitor.alerts.observations import CreditReading as CreditObserved
from tui.monitor.delivery.deliverer import Deliverer
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.journal import (
    ActivityRecord,
    AlertRecord,
    CrawlOrBatchRecord,
    CreditReading,
    Journal,
    SessionRecord,
    UsageSnapshot,
    WebhookEventRecord,
)
from tui.monitor.journal import QueueReading as QueueRecord
from tui.monitor.journal.records import TEAM_KEY
from tui.monitor.session_ends import SessionEnds
from tui.monitor.stats import BoundedIds, MonitorStats

AlertListener = Callable[[AlertEvent, AlertNotice], object]
Health = Literal["ok", "unreachable", "refused"]

TEAM = TEAM_KEY
UNWATCHED = "unwatched"
"""The journal state of an alert still holding when its monitor closed."""
PROGRESS_KINDS = frozenset({"crawl", "batch_scrape"})
"""Activity kinds whose jobs `saw_crawl` counts (as `crawl` and `batch`), so `saw_job` does not count them again."""
RUNNING_KEPT = 2000
"""Crawls and batches remembered as running, for the gauge and the pages counter (oldest forgotten)."""


def _host(target: str | None) -> str | None:
    if not target:
        return None
    try:
        return urlsplit(target).hostname
    except ValueError:
        return None


class Monitor:
    """One context's monitoring: feed it what polls saw; it journals, judges, and tells."""

    def __init__(
        self,
        *,
        context: str | None,
        engine: AlertEngine,
        journal: Journal | None = None,
        deliverer: Deliverer | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.context = context
        self.engine = engine
        self.journal = journal
        self.deliverer = deliverer
        self.stats = MonitorStats()
        self._clock = clock
        self._listeners: list[AlertListener] = []
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._finished = BoundedIds()
        self._pages: dict[str, int] = {}  # crawl or batch id -> pages done at its last sighting
        self._running: dict[str, str] = {}  # crawl or batch id -> kind, while it runs
        self._sessions: dict[str, datetime] = {}  # live session id -> when first seen
        self._session_ends = SessionEnds()
        self._usage: tuple[datetime, float] | None = None  # (period start, the team's use) at the last reading
        self._hour_use: tuple[datetime, float] | None = None  # (hour, credits used in it so far)

    def listen(self, listener: AlertListener) -> None:
        """Call `listener` with every alert event (fired, repeated, resolved) and its notice."""
        self._listeners.append(listener)

    def now(self) -> datetime:
        return self._clock()

    # What polls saw.

    def saw_activity(self, entries: Iterable[ActivityEntry]) -> None:
        """An activity page: each call is journaled (its final state comes later, through `saw_job`)."""
        if self.journal is None:
            return
        for entry in entries:
            record = ActivityRecord(entry.id, entry.endpoint, entry.created_at.timestamp(), target=entry.target)
            self.journal.add(record)

    def saw_job(
        self,
        kind: str,
        job_id: str,
        summary: JobSummary,
        *,
        target: str | None = None,
        created_at: datetime | None = None,
    ) -> None:
        """A job's state as its retrieval endpoint gave it; a final one is journaled, counted and judged once.

        A crawl's or batch's entry is told here for its activity row and the job rules, and its
        progress through `saw_crawl`, which counts it (as `crawl` or `batch`): each is counted once.
        """
        # Its own key, not saw_crawl's: the same crawl told both ways must reach both.
        if not summary.finished or not self._finished.add(f"job:{kind}:{job_id}"):
            return
        now = self._clock()
        state = summary.state or "unknown"
        if kind not in PROGRESS_KINDS:
            self.stats.jobs[(kind, "failed" if summary.failed else state)] += 1
            if summary.failed:
                self.stats.failures[kind] += 1
        if self.journal is not None:
            self.journal.add(
                ActivityRecord(
                    job_id,
                    kind,
                    (created_at or now).timestamp(),
                    target=target,
                    status="failed" if summary.failed else state,
                    error=summary.error,
                    http_status=summary.http_status,
                )
            )
        observed = JobObserved(
            # When it ran, not when it was read: an old failure read at start-up is outside every window.
            at=min(now, created_at) if created_at is not None else now,
            kind=kind,
            id=job_id,
            host=_host(target),
            state=summary.state,
            http_status=summary.http_status,
            error=summary.error,
        )
        self._judge([observed])

    def saw_crawl(self, kind: Literal["crawl", "batch"], job_id: str, status: JobStatus) -> None:
        """A crawl's or batch's progress; its end is journaled with its outcome and pages."""
        now = self._clock()
        finished = status.is_finished
        if finished and f"{kind}:{job_id}" in self._finished:
            return  # an ended job polled again: already counted, journaled and judged
        before = self._pages.get(job_id, 0)  # an older answer arriving after a push must not count pages again
        if status.completed > before:
            self.stats.pages_crawled += status.completed - before
        if finished:
            self._finished.add(f"{kind}:{job_id}")
            self._pages.pop(job_id, None)
            self._running.pop(job_id, None)
        else:
            self._pages[job_id] = max(before, status.completed)
            self._running[job_id] = kind
            for old in list(self._running)[: max(0, len(self._running) - RUNNING_KEPT)]:
                self._running.pop(old, None)
                self._pages.pop(old, None)
        self.stats.running = {
            kind: sum(1 for each in self._running.values() if each == kind) for kind in ("crawl", "batch")
        }
        state = str(status.status)
        if finished:
            self.stats.jobs[(kind, state)] += 1
            if state == "failed":
                self.stats.failures[kind] += 1
        error = getattr(status, "error", None) or (status.model_extra or {}).get("error")
        if self.journal is not None:
            self.journal.add(
                CrawlOrBatchRecord(
                    job_id,
                    kind,
                    now.timestamp(),
                    status=state,
                    pages_done=status.completed,
                    pages_total=status.total,
                    error=error if isinstance(error, str) else None,
                    finished_at=now.timestamp() if finished else None,
                )
            )
        observations: list[Observation] = []
        if kind == "crawl":
            observations.append(
                CrawlProgress(at=now, id=job_id, status=state, completed=status.completed, total=status.total)
            )
        elif finished:
            observations.append(BatchFinished(at=now, id=job_id, total=status.total, failed=_batch_failures(status)))
        self._judge(observations)

    def saw_credits(self, balance: CreditBalance) -> None:
        """The team's credits: journaled, the gauges set, the credit rules judged."""
        now = self._clock()
        self.stats.credits_remaining = balance.remaining_credits
        self.stats.credits_plan = balance.plan_credits
        if self.journal is not None:
            self.journal.add(CreditReading(now.timestamp(), balance.remaining_credits, balance.plan_credits))
        self._judge([CreditObserved.from_balance(balance, now)])

    def saw_queue(self, status: QueueStatus) -> None:
        """The team's queue: journaled, the gauges set, the saturation rule judged."""
        now = self._clock()
        self.stats.queue_active = status.active_jobs_in_queue
        self.stats.queue_waiting = status.waiting_jobs_in_queue
        self.stats.queue_max = status.max_concurrency
        if self.journal is not None:
            self.journal.add(
                QueueRecord(
                    now.timestamp(), status.active_jobs_in_queue, status.waiting_jobs_in_queue, status.max_concurrency
                )
            )
        self._judge([QueueReading.from_status(status, now)])

    def saw_token_usage(self, history: TokenUsageHistory) -> None:
        """Usage by API key: a snapshot per key of the current period, and this hour's use for the spike rule."""
        now = self._clock()
        current = [period for period in history.periods if period.start_date <= now < period.end_date]
        if not current:
            return
        for period in current:
            if self.journal is not None:
                # Masked whatever the service sent: the journal keeps no secret, only which key it was.
                key = mask_key(period.api_key) if period.api_key else TEAM
                self.journal.add(UsageSnapshot(now.timestamp(), key, period.start_date.timestamp(), period.credits))
        self.stats.tokens_used = float(sum(period.total_tokens for period in current))
        total = sum(period.credits for period in current)  # the rules and the journal count credits, not tokens
        start = min(period.start_date for period in current)
        used = 0.0
        if self._usage is not None and self._usage[0] == start:
            used = max(0.0, total - self._usage[1])  # a new period, or a first reading, adds nothing
        self._usage = (start, total)
        hour = now.replace(minute=0, second=0, microsecond=0)
        so_far = self._hour_use[1] if self._hour_use is not None and self._hour_use[0] == hour else 0.0
        self._hour_use = (hour, so_far + used)
        self._judge([UsageHourly(at=now, hour=hour, credits=so_far + used)])

    def saw_session_created(self, created: BrowserSessionCreated, *, activity_ttl: int | None = None) -> None:
        """A session created here: its create answer and idle limit are all that say when it ends (the list does not)."""
        self._session_ends.created(created.id, created.expires_at, activity_ttl)

    def saw_sessions(self, sessions: Iterable[BrowserSession]) -> None:
        """The browser sessions list: live ones judged for expiry (when known: `saw_session_created`); ended ones journaled."""
        now = self._clock()
        self.stats.sessions.clear()
        observations: list[Observation] = []
        listed: set[str] = set()
        for session in sessions:
            status = str(session.status)
            self.stats.sessions[status] += 1
            listed.add(session.id)
            if status == SessionStatus.ACTIVE:
                if session.id not in self._sessions:
                    first = self._sessions[session.id] = session.created_at or now
                    if self.journal is not None:
                        self.journal.add(SessionRecord(session.id, first.timestamp()))
                ends = self._session_ends.end_of(session)
                observations.append(SessionSeen(at=now, id=session.id, status=status, expires_at=ends))
            elif session.id in self._sessions:
                observations.append(self._session_ended(session.id, now, status))
        for gone in [session_id for session_id in self._sessions if session_id not in listed]:
            observations.append(self._session_ended(gone, now, "gone"))
        self._judge(observations)

    def _session_ended(self, session_id: str, now: datetime, how: str) -> SessionSeen:
        """Journal a session's end; the observation that tells the expiry rule it is over."""
        first = self._sessions.pop(session_id)
        self._session_ends.forget(session_id)
        if self.journal is not None:
            self.journal.add(SessionRecord(session_id, first.timestamp(), ended_at=now.timestamp(), ended_how=how))
        return SessionSeen(at=now, id=session_id, status=how)

    def saw_webhook(self, event_type: str | None, *, verified: bool, job_id: str | None = None) -> None:
        """A webhook delivery that arrived, and whether its signature held."""
        now = self._clock()
        self.stats.webhook_events[verified] += 1
        if self.journal is not None:
            self.journal.add(WebhookEventRecord(now.timestamp(), event_type or "unknown", job_id, verified))
        self._judge([WebhookDelivery(at=now, verified=verified, type=event_type)])

    def saw_health(self, state: Health, detail: str | None = None) -> None:
        """Whether the last call reached the service (`ok`), got no answer, or had its key refused."""
        self._judge([ServiceHealth(at=self._clock(), state=state, detail=detail)])

    # The operator's side.

    def tick(self) -> list[AlertEvent]:
        """Judge the rules with nothing new (stalls and expiries happen with time); call it on a timer."""
        events = self.engine.tick()
        self._tell(events)
        return events

    def acknowledge(self, rule: str, subject: str) -> bool:
        """Stop repeats of a firing alert; journaled as acknowledged."""
        if not self.engine.acknowledge(rule, subject):
            return False
        for alert in self.engine.firing():
            if (alert.rule, alert.subject) == (rule, subject) and self.journal is not None:
                self.journal.add(
                    AlertRecord(
                        alert_id(rule, subject, alert.fired_at),
                        rule,
                        "acknowledged",
                        alert.fired_at.timestamp(),
                        detail=alert_detail(alert),
                    )
                )
        return True

    def silence(self, rule: str, minutes: float, subject: str | None = None) -> datetime:
        """Say nothing new of `rule` (or one subject of it) for `minutes`; when the silence ends."""
        return self.engine.silence(rule, minutes, subject)

    def close_with(self, closer: Callable[[], Awaitable[None]]) -> None:
        """Await `closer` when the monitor closes (what it was built with and owns)."""
        self._closers.append(closer)

    async def aclose(self) -> None:
        """Stop delivery and close the journal, once everything queued is written.

        Alerts still holding are journaled as `unwatched`: nobody judges them any more,
        so a later reader must not take them for alerts firing now.
        """
        if self.deliverer is not None:
            await self.deliverer.close()
        if self.journal is not None:
            for alert in self.engine.firing():
                record_id = alert_id(alert.rule, alert.subject, alert.fired_at)
                detail = alert_detail(alert) | {"unwatched_at": self._clock().timestamp()}
                self.journal.add(
                    AlertRecord(record_id, alert.rule, UNWATCHED, alert.fired_at.timestamp(), detail=detail)
                )
            await self.journal.aclose()
        for closer in self._closers:
            await closer()

    # Inside.

    def _judge(self, observations: list[Observation]) -> None:
        self._tell(self.engine.observe_all(observations) if observations else self.engine.tick())

    def _tell(self, events: list[AlertEvent]) -> None:
        for event in events:
            self.stats.alerts[event.what] += 1
            notice = notice_of(event, self.context)
            alert = event.alert
            if self.journal is not None:
                state = "resolved" if event.what == "resolved" else "acknowledged" if alert.acknowledged else "firing"
                self.journal.add(
                    AlertRecord(
                        alert_id(alert.rule, alert.subject, alert.fired_at),
                        alert.rule,
                        state,
                        alert.fired_at.timestamp(),
                        resolved_at=alert.resolved_at.timestamp() if alert.resolved_at else None,
                        detail=alert_detail(alert),
                    )
                )
            if self.deliverer is not None:
                self.deliverer.deliver(notice)
            for listener in self._listeners:
                listener(event, notice)


def _batch_failures(status: JobStatus) -> int:
    """Pages of a finished batch that failed: with all its documents at hand, those that say so and the pages
    that left none (the service lists a page it could not scrape among its errors, not its documents);
    else the pages it did not complete."""
    if status.next is None and (status.data or status.completed >= status.total):
        said = sum(
            1 for document in status.data if document.metadata.error or (document.metadata.status_code or 0) >= 400
        )
        return said + max(0, status.total - len(status.data))
    return max(0, status.total - status.completed)
