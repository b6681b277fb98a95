"""The state of the jobs behind activity entries, asked of the service sparingly.

An activity entry carries no status, so the status column asks each job's
retrieval endpoint (`client.jobs.summary`). A team's activity is hundreds of
entries a day and the panes poll for days, so `StatusChecker`:

* keeps at most `MAX_IN_FLIGHT` requests in flight, whoever asks (the pane's
  rows and the failed-only walk share one checker);
* keeps a finished job's state for good (a finished job does not change), in a
  bounded cache so that days of running do not grow memory; an unfinished one
  is not kept, so it is asked again on the next poll;
* after a 429 asks nothing more until the `Retry-After` the service gave;
* reads a 404 as "expired" (the job is gone or not known), any other error
  as a mark on that row alone.

Kinds without an endpoint for their state (`map`, `search`, ...) show "—"
and cost nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rich.text import Text

from tui.api.errors import APIStatusError, NotFoundError, RateLimitError, WdsError
from tui.api.rate_limit_pause import RateLimitPause
from tui.api.resources.jobs import STATUS_KINDS
from tui.contract.models.job_summary import JobSummary
from tui.dashboard.kit.formatting import NO_VALUE
from tui.dashboard.kit.status_look import state_text

MAX_IN_FLIGHT = 4
CACHE_SIZE = 5000
"""Finished states kept: about two days of a busy team's activity, a few hundred kB."""
EXPIRED = "expired"


class Summaries(Protocol):
    """What the checker needs of the client: `client.jobs`."""

    async def summary(self, kind: str, job_id: str) -> JobSummary: ...


@dataclass(frozen=True)
class RowStatus:
    """What the status column says of one entry, and whether it can be kept for good."""

    text: Text
    final: bool
    summary: JobSummary | None = None
    problem: str | None = None  # why the state could not be read, when it could not

    @property
    def failed(self) -> bool:
        """Whether the job failed (or its page answered an error status)."""
        return self.summary is not None and self.summary.failed

    @property
    def state(self) -> str | None:
        """The job's state for a support question: `failed`, `completed`, `expired`, ... or None."""
        if self.summary is not None:
            return self.summary.state
        return EXPIRED if self is GONE else None

    @property
    def error(self) -> str | None:
        """The job's error (`HTTP 404: ...` for a page that answered one), if any."""
        return self.summary.error if self.summary is not None else None

    @classmethod
    def of(cls, summary: JobSummary) -> RowStatus:
        """The status of a job whose summary was read."""
        return cls(state_text(summary.state, summary.http_status), summary.finished, summary)

    @classmethod
    def broken(cls, error: WdsError) -> RowStatus:
        """A check that failed for another reason than 404 or 429: marked, asked again next time."""
        label = f"⚠ {error.status}" if isinstance(error, APIStatusError) else "⚠ error"
        return cls(Text(label, style="yellow"), False, problem=f"{error.title}: {error}")


NO_STATUS = RowStatus(Text(NO_VALUE, style="dim"), True)
"""A kind whose state no endpoint gives."""
PENDING = RowStatus(Text("…", style="dim"), False)
"""Not asked yet (or waiting for a rate limit to pass)."""
GONE = RowStatus(Text(f"? {EXPIRED}", style="dim"), True, problem="the service no longer knows this job (404)")
"""The service answered 404: the job expired or is not known."""


class StatusChecker:
    """Reads job states with a bounded number of requests in flight, a cache of finished ones, 429 pauses."""

    def __init__(
        self,
        jobs: Summaries,
        *,
        max_in_flight: int = MAX_IN_FLIGHT,
        cache_size: int = CACHE_SIZE,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._jobs = jobs
        self._slots = asyncio.Semaphore(max_in_flight)
        self._cache: OrderedDict[tuple[str, str], RowStatus] = OrderedDict()
        self._cache_size = cache_size
        self._pause = RateLimitPause(monotonic)

    def known(self, kind: str, job_id: str) -> RowStatus | None:
        """The status when no request is needed: a kind without one, or a finished job seen before."""
        if kind not in STATUS_KINDS:
            return NO_STATUS
        status = self._cache.get((kind, job_id))
        if status is not None:
            self._cache.move_to_end((kind, job_id))
        return status

    @property
    def cached(self) -> int:
        """How many finished states are kept."""
        return len(self._cache)

    def paused_for(self) -> float:
        """Seconds left of a rate-limit pause (0 when not paused)."""
        return self._pause.left()

    async def check(self, kind: str, job_id: str, wanted: Callable[[], bool] = lambda: True) -> RowStatus | None:
        """The job's status; None when it was not asked after all (no longer `wanted`, or paused)."""
        known = self.known(kind, job_id)
        if known is not None:
            return known
        async with self._slots:
            # Waiting for a slot takes time: the row may have scrolled away, or a 429 come.
            if not wanted() or self.paused_for() > 0:
                return None
            known = self.known(kind, job_id)  # asked by another view meanwhile
            if known is not None:
                return known
            try:
                status = RowStatus.of(await self._jobs.summary(kind, job_id))
            except RateLimitError as exc:
                self._pause.began(exc)
                return None
            except NotFoundError:
                status = GONE
            except WdsError as exc:
                return RowStatus.broken(exc)
        if status.final:
            self._remember((kind, job_id), status)
        return status

    def _remember(self, key: tuple[str, str], status: RowStatus) -> None:
        self._cache[key] = status
        self._cache.move_to_end(key)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
