"""What the crawls pane knows of each crawl and batch: its progress, and how it ended.

Jobs come in two ways. `GET /v2/crawl/active` lists the crawls running at each
poll. Sightings (`tui.dashboard.shell.sightings`: the activity list, the
forms, the webhook inbox) bring the rest: batches, and crawls that started and
ended between two polls of the active list.

The tracker asks `GET /v2/crawl/{id}` or `GET /v2/batch/scrape/{id}` (one
document per answer: only the counts matter here) for each job whose end it
does not know, at each poll, a few at a time: a crawl that left the active list
is asked once more for its final state, a job seen elsewhere is asked when
first seen. No request is ever sent for a job whose final state is known.

A finished job stays `window` (the operator's `recent_window`) after its last
sign of life: the last answer or listing that found it running, or the
webhook event or push that said it ended. A sighting already older than the
window is not taken at all: no request for a job that would not be shown; one
dated later than now (another clock) counts as seen now. A sighting whose id
is not a UUID (the service's ids all are) is not taken either: asking about
it could only be refused.

Failures stay with their job: a status call that fails marks that row (with
the last progress known) and the next poll asks again. When the final status
of a crawl that left the list cannot be had, the row says "ended, state
unknown" and the next polls try again until the row goes. A 404 for a job not
on the active list is an answer (the service no longer knows it, or never
did), so the row says so and it is not asked again; a listed crawl answering
404 is a glitch, asked again. So is a 400, 403 or 422 for a job never listed:
the service refused its id (malformed, another team's), and asking again
would only be refused again. A job not listed whose calls keep failing
otherwise is forgotten once its last sign of life is older than the window,
as a finished one is: a broken id is not asked about at every poll for ever.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tui.api.errors import APIStatusError, NotFoundError, WdsError
from tui.contract.models import ActiveCrawlOptions
from tui.contract.models.common import FINISHED_STATES, JobStatus
from tui.contract.models.crawl import ActiveCrawl
from tui.dashboard.shell.sightings import ACTIVE_LIST, CRAWL, FOLLOWED_KINDS, RECENT_WINDOW, JobSighting

STATUS_CONCURRENCY = 4
"""Status calls in flight at once: a team with many crawls does not get a burst per poll."""
MAX_JOBS = 200
"""Jobs kept at most: past it the oldest finished go first, and while none has finished new sightings wait.
Sightings can come from anyone who reaches an inbox without a secret: each is a request."""

REFUSED_ID_STATUSES = frozenset({400, 403, 422})
"""Answers to a job's status call that say its id will never be answered (a malformed id, another team's)."""

GetStatus = Callable[[str, str], Awaitable[JobStatus]]
"""Asks the service for one job's status: (kind, id)."""


@dataclass(frozen=True)
class Progress:
    """A job's state and page counts, from its last status answer."""

    state: str
    completed: int
    total: int

    @property
    def finished(self) -> bool:
        return self.state in FINISHED_STATES

    @classmethod
    def of(cls, status: JobStatus) -> Progress:
        return cls(str(status.status), status.completed, status.total)


@dataclass(frozen=True)
class TrackedJob:
    """One row of the pane: a crawl or a batch (`kind`), and what is known of it.

    `source` is where the dashboard first learned of it (`tui.dashboard.shell.sightings`);
    `options` are known for crawls the active list showed. `listed` says the
    last active list had it; `left_at` is when a listed crawl was first
    missing from it; `last_seen` the job's last sign of life. `error` is why
    the last status call failed (None when it answered); `gone` that the
    service answered 404 for it, `refused` that it refused the id (400, 403, 422).
    """

    kind: str
    id: str
    source: str
    url: str | None = None
    started_at: datetime | None = None
    options: ActiveCrawlOptions | None = None
    progress: Progress | None = None
    error: str | None = None
    listed: bool = False
    left_at: datetime | None = None
    last_seen: datetime | None = None
    gone: bool = False
    refused: bool = False

    @property
    def settled(self) -> bool:
        """Nothing more to ask: its final state is known, or the service forgot it or refused its id."""
        return self.gone or self.refused or (self.progress is not None and self.progress.finished)

    @property
    def finished(self) -> bool:
        """Shown among the recent ones: it ended, or left the active list (its end still to learn)."""
        return self.settled or self.left_at is not None

    @property
    def running(self) -> bool:
        """Still going as far as anyone knows (a running crawl can be cancelled)."""
        return not self.finished

    @property
    def ended_at(self) -> datetime | None:
        """When a finished job was last known alive or said to end: the recent section's order and window."""
        moments = [moment for moment in (self.left_at, self.last_seen) if moment is not None]
        return max(moments) if moments else None


def is_job_id(text: str) -> bool:
    """Whether `text` can be a job's id: the service's are UUIDs."""
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def _later(first: datetime | None, second: datetime) -> datetime:
    return second if first is None else max(first, second)


class JobTracker:
    """The pane's memory of crawls and batches across polls (see the module doc)."""

    def __init__(
        self, *, window: timedelta = RECENT_WINDOW, concurrency: int = STATUS_CONCURRENCY, capacity: int = MAX_JOBS
    ) -> None:
        self.window = window
        self.concurrency = concurrency
        self.capacity = capacity
        self._jobs: dict[str, TrackedJob] = {}
        self._listed: list[str] = []  # the ids of the last active list, in its order

    @property
    def rows(self) -> tuple[TrackedJob, ...]:
        """Running jobs (the active list's order, then the others, the latest first), then finished ones, the latest first."""
        listed = [self._jobs[i] for i in self._listed if i in self._jobs and self._jobs[i].running]
        others = [job for job in self._jobs.values() if job.running and not job.listed]
        others.sort(key=lambda job: job.last_seen or datetime.min, reverse=True)
        recent = [job for job in self._jobs.values() if job.finished]
        recent.sort(key=lambda job: job.ended_at or datetime.min, reverse=True)
        return (*listed, *others, *recent)

    def get(self, job_id: str) -> TrackedJob | None:
        return self._jobs.get(job_id)

    def saw(self, sightings: Iterable[JobSighting], now: datetime) -> bool:
        """Take in sightings; True when one brought a job not known before (to be asked about)."""
        new = False
        for sighting in sightings:
            if sighting.kind not in FOLLOWED_KINDS or not is_job_id(sighting.job_id):
                continue
            at = min(sighting.at or now, now)  # a sender's clock ahead of ours must not keep it for ever
            started_at = at if sighting.started else None
            known = self._jobs.get(sighting.job_id)
            if known is not None:
                self._jobs[known.id] = replace(
                    known,
                    url=known.url or sighting.url,
                    started_at=known.started_at or started_at,
                    last_seen=_later(known.last_seen, at),
                )
            elif now - at < self.window and self._make_room():
                job = TrackedJob(
                    sighting.kind, sighting.job_id, sighting.source, sighting.url, started_at, last_seen=at
                )
                self._jobs[job.id] = job
                new = True
        return new

    def _make_room(self) -> bool:
        if len(self._jobs) < self.capacity:
            return True
        finished = [job for job in self._jobs.values() if job.finished]
        if not finished:
            return False
        oldest = min(finished, key=lambda job: job.ended_at or datetime.min)
        del self._jobs[oldest.id]
        return True

    async def update(
        self, active: Sequence[ActiveCrawl], now: datetime, get_status: GetStatus
    ) -> tuple[TrackedJob, ...]:
        """Take in one answer of the active list, forget what left the window, ask for the states still open."""
        self._take_list(active, now)
        self._forget_old(now)
        open_jobs = [job for job in self._jobs.values() if not job.settled]
        gate = asyncio.Semaphore(self.concurrency)

        async def check(job: TrackedJob) -> None:
            async with gate:
                try:
                    status = await get_status(job.kind, job.id)
                except NotFoundError as exc:
                    self._failed(job.id, exc, gone=True)
                except APIStatusError as exc:
                    self._failed(job.id, exc, gone=False, refused=exc.status in REFUSED_ID_STATUSES)
                except WdsError as exc:
                    self._failed(job.id, exc, gone=False)
                else:
                    self.record(job.id, Progress.of(status), now)

        await asyncio.gather(*(check(job) for job in open_jobs))
        return self.rows

    def _take_list(self, active: Sequence[ActiveCrawl], now: datetime) -> None:
        self._listed = [crawl.id for crawl in active]
        listed = set(self._listed)
        for crawl in active:
            known = self._jobs.get(crawl.id) or TrackedJob(CRAWL, crawl.id, ACTIVE_LIST)
            if known.settled:  # a list a moment behind: not a sign of life, it keeps its place among the recent
                self._jobs[crawl.id] = replace(known, listed=True)
                continue
            self._jobs[crawl.id] = replace(
                known,
                url=crawl.url,
                started_at=crawl.created_at or known.started_at,
                options=crawl.options,
                listed=True,
                left_at=None,
                last_seen=now,
            )
        for job_id, job in list(self._jobs.items()):
            if job.listed and job_id not in listed:
                self._jobs[job_id] = replace(job, listed=False, left_at=job.left_at if job.settled else now)

    def _forget_old(self, now: datetime) -> None:
        for job_id, job in list(self._jobs.items()):
            ended = job.ended_at
            if job.finished and ended is not None and now - ended >= self.window:
                del self._jobs[job_id]
            elif self._asked_in_vain(job, now):
                del self._jobs[job_id]

    def _asked_in_vain(self, job: TrackedJob, now: datetime) -> bool:
        # Running as far as known, never listed, its last call failed, and no sign of life for a whole
        # window: an id the service keeps failing on. (One that last answered is asked again first:
        # a pane paused for an hour must not drop a batch still running.)
        seen = job.last_seen
        return (
            job.running and not job.listed and job.error is not None and seen is not None and now - seen >= self.window
        )

    def record(self, job_id: str, progress: Progress, now: datetime) -> None:
        """A status answer (or a cancel's) at `now`: the job's new state; a final state is never undone.

        An answer sent before a cancel can arrive after it: "scraping" then
        must not overwrite "cancelled". An answer that finds the job running
        is its latest sign of life.
        """
        job = self._jobs.get(job_id)
        if job is None or (job.settled and not progress.finished):
            return
        if progress.total == 0 and job.progress is not None:
            # A cancel's answer carries no counts: keep the ones last seen.
            progress = replace(progress, completed=job.progress.completed, total=job.progress.total)
        last_seen = job.last_seen if progress.finished else _later(job.last_seen, now)
        self._jobs[job_id] = replace(job, progress=progress, error=None, last_seen=last_seen)

    def pushed(self, crawl_id: str, progress: Progress, now: datetime) -> None:
        """A status the service pushed at `now` (it tells as it happens): a final one ended the crawl then."""
        self.record(crawl_id, progress, now)
        job = self._jobs.get(crawl_id)
        if job is not None and job.settled and progress.finished:
            self._jobs[crawl_id] = replace(job, last_seen=_later(job.last_seen, now))

    def ended(self, crawl_id: str, state: str, now: datetime) -> None:
        """The user cancelled `crawl_id` and the service said `state`: finished as of `now`."""
        self.pushed(crawl_id, Progress(state, 0, 0), now)

    def _failed(self, job_id: str, error: WdsError, *, gone: bool, refused: bool = False) -> None:
        job = self._jobs.get(job_id)
        if job is None:
            return
        reason = f"{error.title}: {error.message}" if error.message else error.title
        # A listed crawl answering 404 (or refusing its id) is a service glitch, asked again: the
        # service itself listed it. Any other job is gone, or never to be answered.
        unlisted = job.left_at is None and not job.listed and job.source != ACTIVE_LIST
        self._jobs[job_id] = replace(job, error=reason, gone=gone and not job.listed, refused=refused and unlisted)
