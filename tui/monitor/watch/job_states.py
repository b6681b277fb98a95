"""The state of the jobs behind new activity entries, asked of the service sparingly.

An activity entry carries no status: each job's retrieval endpoint is asked
(`STATUS_KINDS`; other kinds cost nothing). `watch` runs for days, so, as the
activity pane's status column does:

* at most `max_in_flight` requests at once, and at most `asks_per_poll` a poll;
  the rest wait in a bounded backlog (the oldest dropped past `backlog_size`);
* a finished job is never asked again (its id is kept in a bounded memory); an
  unfinished one goes back to the end of the backlog, to be asked next poll;
* after a 429 nothing is asked until the `Retry-After` the service gave;
* a 404 means the job expired: it is not asked again;
* the first failure that says the service itself is in trouble (no answer, a
  5xx, a refused key) ends the poll's asking: the backlog waits for the next one.

Crawls and batches are read with their progress (one document, `limit=1`), so
the crawl rules see a batch's failures and a crawl's pages from the same answer.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from tui.api.client import WdsClient
from tui.api.errors import (
    APIConnectionError,
    AuthenticationError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    WdsError,
)
from tui.api.rate_limit_pause import RateLimitPause
from tui.api.resources.jobs import STATUS_KINDS
from tui.contract.models import ActivityEntry
from tui.contract.models.batch import BatchScrapeStatus
from tui.contract.models.crawl import CrawlStatus
from tui.contract.models.job_summary import JobSummary, summarize

MAX_IN_FLIGHT = 4
ASKS_PER_POLL = 200
BACKLOG_SIZE = 5_000
FINISHED_KEPT = 20_000
"""Finished job ids remembered: more than a busy team's day of activity, about 2 MB."""

Key = tuple[str, str]  # (kind, job id)


@dataclass(frozen=True)
class JobSeen:
    """A job an activity entry names: its kind, id, target and when it was made."""

    kind: str
    id: str
    target: str | None
    created_at: datetime

    @classmethod
    def of(cls, entry: ActivityEntry) -> JobSeen:
        return cls(entry.endpoint, entry.id, entry.target, entry.created_at)


@dataclass(frozen=True)
class JobAnswer:
    """What the service said of a job: its summary, and a crawl's or batch's progress when it is one."""

    job: JobSeen
    summary: JobSummary
    progress: CrawlStatus | BatchScrapeStatus | None = None


@dataclass
class AskRound:
    """One poll's asking: the answers, and the failures met (the first ended the round if it was the service's)."""

    answers: list[JobAnswer] = field(default_factory=list)
    errors: list[WdsError] = field(default_factory=list)


def ends_the_round(error: WdsError) -> bool:
    """A failure of the service or the key, not of one job: asking more this poll would fail the same way."""
    return isinstance(error, APIConnectionError | InternalServerError | AuthenticationError | PermissionDeniedError)


class JobStates:
    """A backlog of jobs to ask about, asked a bounded number at a time; see the module doc."""

    def __init__(
        self,
        client: WdsClient,
        *,
        max_in_flight: int = MAX_IN_FLIGHT,
        asks_per_poll: int = ASKS_PER_POLL,
        backlog_size: int = BACKLOG_SIZE,
        finished_kept: int = FINISHED_KEPT,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._max_in_flight = max_in_flight
        self._asks_per_poll = asks_per_poll
        self._backlog_size = backlog_size
        self._finished_kept = finished_kept
        self._pause = RateLimitPause(monotonic)
        self._backlog: OrderedDict[Key, JobSeen] = OrderedDict()
        self._finished: OrderedDict[Key, None] = OrderedDict()

    @property
    def waiting(self) -> int:
        """Jobs in the backlog (new, or not finished when last asked)."""
        return len(self._backlog)

    @property
    def finished(self) -> int:
        """Finished jobs remembered (never asked again)."""
        return len(self._finished)

    def paused_for(self) -> float:
        """Seconds left of a rate-limit pause (0 when not paused)."""
        return self._pause.left()

    def add(self, entries: Iterable[ActivityEntry]) -> None:
        """Queue the jobs of `entries` whose state an endpoint gives and that are not known to be finished."""
        for entry in entries:
            key = (entry.endpoint, entry.id)
            if entry.endpoint in STATUS_KINDS and key not in self._finished and key not in self._backlog:
                self._wait(key, JobSeen.of(entry))

    async def ask_due(self) -> AskRound:
        """Ask about the oldest jobs of the backlog (at most `asks_per_poll`), unless a 429 pause holds."""
        round_ = AskRound()
        if self.paused_for() > 0 or not self._backlog:
            return round_
        batch = [self._backlog.popitem(last=False)[1] for _ in range(min(self._asks_per_poll, len(self._backlog)))]
        slots = asyncio.Semaphore(self._max_in_flight)
        stopped = False

        async def ask(job: JobSeen) -> None:
            nonlocal stopped
            async with slots:
                if stopped or self.paused_for() > 0:
                    self._wait((job.kind, job.id), job)
                    return
                try:
                    answer = await self._ask(job)
                except RateLimitError as error:
                    self._pause.began(error)
                    self._wait((job.kind, job.id), job)
                    round_.errors.append(error)
                    return
                except NotFoundError:
                    self._remember_finished((job.kind, job.id))  # expired: the service no longer knows it
                    return
                except WdsError as error:
                    stopped = stopped or ends_the_round(error)
                    self._wait((job.kind, job.id), job)
                    round_.errors.append(error)
                    return
            round_.answers.append(answer)
            if answer.summary.finished:
                self._remember_finished((job.kind, job.id))
            else:
                self._wait((job.kind, job.id), job)

        await asyncio.gather(*(ask(job) for job in batch))
        return round_

    async def _ask(self, job: JobSeen) -> JobAnswer:
        if job.kind == "crawl":
            crawl = await self._client.crawl.get(job.id, limit=1)
            return JobAnswer(job, summarize(crawl), crawl)
        if job.kind == "batch_scrape":
            batch = await self._client.batch.get(job.id, limit=1)
            return JobAnswer(job, summarize(batch), batch)
        return JobAnswer(job, await self._client.jobs.summary(job.kind, job.id))

    def _wait(self, key: Key, job: JobSeen) -> None:
        self._backlog[key] = job
        while len(self._backlog) > self._backlog_size:
            self._backlog.popitem(last=False)

    def _remember_finished(self, key: Key) -> None:
        self._finished[key] = None
        while len(self._finished) > self._finished_kept:
            self._finished.popitem(last=False)
