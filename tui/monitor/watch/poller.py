"""One context's polls: each endpoint on its own interval, every answer fed to the context's monitor.

The next poll of an endpoint starts only once the last one has ended and its
interval has passed (no pile-up when the service is slow). A poll that fails
never ends `watch`: it is counted (`PollStats`), said once to `on_change` (and
again when it recovers or its words change, not at every poll of a long outage),
and, when it says something of the service itself, fed as its health:
`unreachable` (no answer, a 5xx) or `refused` (401, 403). A success feeds `ok`.

What is polled (`Intervals` says how often):
- `activity`: the entries not seen before; then `job_status`, the state of their jobs (`JobStates`);
- `crawls`: the active crawls, each one's status, and the final status of one that left the list;
- `credits`, `queue`, `token_usage` (by API key), `sessions`;
- and the monitor's `tick` (a stall or an expiry needs no answer to be noticed).

The credits and queue calls are the real service's, not the contract's: a service
without them (404, 405, 501) is told once and not asked again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields, replace
from typing import TypeVar

from tui.api.client import WdsClient
from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    AuthenticationError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    WdsError,
)
from tui.monitor.watch.activity_reader import ActivityReader
from tui.monitor.watch.feed import Health, MonitorFeed
from tui.monitor.watch.job_states import JobStates
from tui.monitor.watch.poll_stats import PollStats

ENDPOINTS = ("activity", "job_status", "crawls", "credits", "queue", "token_usage", "sessions")
"""Every name a poll is counted under (the metrics' `endpoint` label)."""
OPTIONAL_ENDPOINTS = frozenset({"credits", "queue"})
NOT_OFFERED_STATUSES = frozenset({404, 405, 501})
CRAWLS_IN_FLIGHT = 4
NOT_OFFERED = "not offered by this service: no longer asked"
INTERNAL = "watch"
"""Where a failure of `watch` itself (not of a call) is counted and told: it never ends the polls."""

T = TypeVar("T")

ChangeSink = Callable[[str, str | None], None]
"""`on_change(endpoint, problem)`: a poll began failing (or its words changed), or recovered (None)."""


@dataclass(frozen=True)
class Intervals:
    """Seconds between the end of one poll of an endpoint and the start of the next."""

    activity: float = 15.0
    crawls: float = 10.0
    credits: float = 60.0
    queue: float = 15.0
    token_usage: float = 300.0
    sessions: float = 30.0
    tick: float = 5.0

    @classmethod
    def every(cls, seconds: float) -> Intervals:
        """One interval for every poll (`--refresh`); the tick runs at least as often, and at least every 5 s."""
        values = {item.name: seconds for item in fields(cls)}
        return replace(cls(**values), tick=min(seconds, cls.tick))


def health_of(error: WdsError) -> Health | None:
    """What a failed poll says of the service: refused (the key), unreachable (no answer, a 5xx), or nothing."""
    if isinstance(error, AuthenticationError | PermissionDeniedError):
        return "refused"
    if isinstance(error, APIConnectionError | InternalServerError):
        return "unreachable"
    return None


def not_offered(error: WdsError) -> bool:
    """A call the service does not have (the non-contract calls of the real service)."""
    return isinstance(error, NotFoundError) or (
        isinstance(error, APIStatusError) and error.status in NOT_OFFERED_STATUSES
    )


class Poller:
    """Polls one context's service into `feed` until `stop()`; `stats` counts how it went."""

    def __init__(
        self,
        client: WdsClient,
        feed: MonitorFeed,
        *,
        intervals: Intervals | None = None,
        on_change: ChangeSink | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._feed = feed
        self.intervals = intervals or Intervals()
        self._on_change = on_change
        self._monotonic = monotonic
        self.stats = PollStats()
        self.activity = ActivityReader(client)
        self.jobs = JobStates(client, monotonic=monotonic)
        self._active_crawls: set[str] = set()
        self._problems: dict[str, str] = {}
        self._stopping = asyncio.Event()

    async def run(self) -> None:
        """Poll until `stop()`; returns once every poll has ended (one in flight is cancelled)."""
        steps: list[tuple[float, Callable[[], Awaitable[bool]]]] = [
            (self.intervals.activity, self.poll_activity),
            (self.intervals.crawls, self.poll_crawls),
            (self.intervals.credits, self.poll_credits),
            (self.intervals.queue, self.poll_queue),
            (self.intervals.token_usage, self.poll_token_usage),
            (self.intervals.sessions, self.poll_sessions),
            (self.intervals.tick, self._tick),
        ]
        tasks = [asyncio.create_task(self._every(interval, step)) for interval, step in steps]
        try:
            await self._stopping.wait()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def stop(self) -> None:
        """End `run()`: no poll starts after this."""
        self._stopping.set()

    async def _every(self, interval: float, step: Callable[[], Awaitable[bool]]) -> None:
        while True:
            try:
                again = await step()
            except Exception as error:  # noqa: BLE001 - a bug in feeding one answer must not end the polls
                self._tell(INTERNAL, f"{type(error).__name__}: {error}")
                again = True
            if not again:
                return
            await asyncio.sleep(interval)

    async def _tick(self) -> bool:
        self._feed.tick()
        return True

    # One poll of each endpoint; each returns False once its endpoint is not offered.

    async def poll_activity(self) -> bool:
        """New activity entries, then the state of the jobs waiting to be asked about."""
        entries = await self._measured("activity", self.activity.new_entries)
        if entries:
            self._feed.saw_activity(entries)
            self.jobs.add(entries)
        await self._ask_jobs()
        return True

    async def _ask_jobs(self) -> None:
        if not self.jobs.waiting or self.jobs.paused_for() > 0:
            return
        started = self._monotonic()
        round_ = await self.jobs.ask_due()
        for answer in round_.answers:
            job = answer.job
            self._feed.saw_job(job.kind, job.id, answer.summary, target=job.target, created_at=job.created_at)
            if answer.progress is not None:
                self._feed.saw_crawl("crawl" if job.kind == "crawl" else "batch", job.id, answer.progress)
        self._finished("job_status", started, round_.errors[0] if round_.errors else None)

    async def poll_crawls(self) -> bool:
        """The active crawls' statuses, and the last status of each crawl that has left the list since."""
        active = await self._measured("crawls", self._client.crawl.active)
        if active is None:
            return True
        now_active = {crawl.id for crawl in active.crawls}
        ended = self._active_crawls - now_active
        self._active_crawls = now_active
        slots = asyncio.Semaphore(CRAWLS_IN_FLIGHT)

        async def follow(crawl_id: str) -> None:
            async with slots:
                status = await self._measured("crawls", lambda: self._client.crawl.get(crawl_id, limit=1))
            if status is not None:
                self._feed.saw_crawl("crawl", crawl_id, status)

        await asyncio.gather(*(follow(crawl_id) for crawl_id in sorted(now_active | ended)))
        return True

    async def poll_credits(self) -> bool:
        balance = await self._measured("credits", self._client.team.credit_usage)
        if balance is not None:
            self._feed.saw_credits(balance)
        return "credits" not in self._gone

    async def poll_queue(self) -> bool:
        status = await self._measured("queue", self._client.team.queue_status)
        if status is not None:
            self._feed.saw_queue(status)
        return "queue" not in self._gone

    async def poll_token_usage(self) -> bool:
        history = await self._measured("token_usage", lambda: self._client.team.token_usage_historical(by_api_key=True))
        if history is not None:
            self._feed.saw_token_usage(history)
        return True

    async def poll_sessions(self) -> bool:
        sessions = await self._measured("sessions", self._client.browser.list)
        if sessions is not None:
            self._feed.saw_sessions(sessions.sessions)
        return True

    # Counting, health and problems.

    @property
    def _gone(self) -> frozenset[str]:
        return frozenset(endpoint for endpoint, problem in self._problems.items() if problem == NOT_OFFERED)

    async def _measured(self, endpoint: str, call: Callable[[], Awaitable[T]]) -> T | None:
        """`await call()`, counted under `endpoint`; None when it failed (counted, told, fed as health)."""
        started = self._monotonic()
        try:
            answer = await call()
        except WdsError as error:
            self._finished(endpoint, started, error)
            return None
        self._finished(endpoint, started, None)
        return answer

    def _finished(self, endpoint: str, started: float, error: WdsError | None) -> None:
        seconds = self._monotonic() - started
        if error is None:
            self.stats.record(endpoint, seconds)
            self._feed.saw_health("ok")
            self._tell(endpoint, None)
            return
        problem = f"{error.title}: {error}"
        self.stats.record(endpoint, seconds, problem)
        if endpoint in OPTIONAL_ENDPOINTS and not_offered(error):
            self._tell(endpoint, NOT_OFFERED)
            return
        health = health_of(error)
        if health is not None:
            self._feed.saw_health(health, problem)
        self._tell(endpoint, problem)

    def _tell(self, endpoint: str, problem: str | None) -> None:
        if self._problems.get(endpoint) == problem:
            return
        if problem is None:
            del self._problems[endpoint]
        else:
            self._problems[endpoint] = problem
        if self._on_change is not None:
            self._on_change(endpoint, problem)
