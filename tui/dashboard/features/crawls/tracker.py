"""What the crawls pane knows of each crawl: its progress, and how it ended once it left the active list.

`GET /v2/crawl/active` says which crawls run, not how far they are nor how
they end. The tracker asks `GET /v2/crawl/{id}` (one document per answer: only
the counts matter here) for each running crawl at each poll, a few at a time,
and once more for a crawl that has left the list, to learn its final state.
A crawl that has ended stays listed `LINGER` after it left, then goes.

Failures stay with their crawl: a status call that fails marks that row (with
the last progress known) and the next poll asks again. When the final status
of a crawl that left the list cannot be had, the row says "ended, state
unknown" and the next polls try again until the row goes; a 404 there is an
answer (the service no longer knows the crawl), so the row says so and is not
asked again. No request is ever sent for a crawl whose final state is known.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tui.api.errors import NotFoundError, WdsError
from tui.contract.models.common import FINISHED_STATES
from tui.contract.models.crawl import ActiveCrawl, CrawlStatus

LINGER = timedelta(minutes=5)
"""How long a crawl that ended stays in the pane after it left the active list."""
STATUS_CONCURRENCY = 4
"""Status calls in flight at once: a team with many crawls does not get a burst per poll."""

GetStatus = Callable[[str], Awaitable[CrawlStatus]]


@dataclass(frozen=True)
class Progress:
    """A crawl's state and page counts, from its last status answer."""

    state: str
    completed: int
    total: int

    @property
    def finished(self) -> bool:
        return self.state in FINISHED_STATES

    @classmethod
    def of(cls, status: CrawlStatus) -> Progress:
        return cls(str(status.status), status.completed, status.total)


@dataclass(frozen=True)
class TrackedCrawl:
    """One row of the pane.

    `left_at` is when the crawl was first missing from the active list (None
    while it is listed); `error` why the last status call failed (None when it
    answered); `gone` that the service answered 404 for it.
    """

    crawl: ActiveCrawl
    progress: Progress | None = None
    error: str | None = None
    left_at: datetime | None = None
    gone: bool = False

    @property
    def settled(self) -> bool:
        """Nothing more to ask: its final state is known, or the service forgot it."""
        return self.gone or (self.progress is not None and self.progress.finished)

    @property
    def running(self) -> bool:
        """Still going as far as anyone knows (so it can be cancelled)."""
        return self.left_at is None and not self.settled


class CrawlTracker:
    """The pane's memory of crawls across polls (see the module doc)."""

    def __init__(self, *, linger: timedelta = LINGER, concurrency: int = STATUS_CONCURRENCY) -> None:
        self.linger = linger
        self.concurrency = concurrency
        self._crawls: dict[str, TrackedCrawl] = {}
        self._listed: list[str] = []  # the ids of the last active list, in its order

    @property
    def rows(self) -> tuple[TrackedCrawl, ...]:
        """Running crawls in the service's order, then the ones that ended, the latest first."""
        listed = [self._crawls[i] for i in self._listed if i in self._crawls and self._crawls[i].left_at is None]
        ended = [c for c in self._crawls.values() if c.left_at is not None]
        ended.sort(key=lambda c: c.left_at or datetime.min, reverse=True)
        return (*listed, *ended)

    def get(self, crawl_id: str) -> TrackedCrawl | None:
        return self._crawls.get(crawl_id)

    async def update(
        self, active: Sequence[ActiveCrawl], now: datetime, get_status: GetStatus
    ) -> tuple[TrackedCrawl, ...]:
        """Take in one answer of the active list, ask for the statuses still open, return the rows."""
        self._take_list(active, now)
        open_ids = [crawl_id for crawl_id, tracked in self._crawls.items() if not tracked.settled]
        gate = asyncio.Semaphore(self.concurrency)

        async def check(crawl_id: str) -> None:
            async with gate:
                try:
                    status = await get_status(crawl_id)
                except NotFoundError as exc:
                    self._failed(crawl_id, exc, gone=True)
                except WdsError as exc:
                    self._failed(crawl_id, exc, gone=False)
                else:
                    self.record(crawl_id, Progress.of(status))

        await asyncio.gather(*(check(crawl_id) for crawl_id in open_ids))
        return self.rows

    def _take_list(self, active: Sequence[ActiveCrawl], now: datetime) -> None:
        self._listed = [crawl.id for crawl in active]
        listed = set(self._listed)
        for crawl in active:
            known = self._crawls.get(crawl.id)
            fresh = TrackedCrawl(crawl) if known is None else replace(known, crawl=crawl, left_at=None)
            self._crawls[crawl.id] = fresh
        for crawl_id, tracked in list(self._crawls.items()):
            if crawl_id in listed:
                continue
            if tracked.left_at is None:
                self._crawls[crawl_id] = replace(tracked, left_at=now)
            elif now - tracked.left_at >= self.linger:
                del self._crawls[crawl_id]

    def record(self, crawl_id: str, progress: Progress) -> None:
        """A status answer (or a cancel's): the crawl's new state; a final state is never undone.

        An answer sent before a cancel can arrive after it: "scraping" then
        must not overwrite "cancelled".
        """
        tracked = self._crawls.get(crawl_id)
        if tracked is None or (tracked.settled and not progress.finished):
            return
        if progress.total == 0 and tracked.progress is not None:
            # A cancel's answer carries no counts: keep the ones last seen.
            progress = replace(progress, completed=tracked.progress.completed, total=tracked.progress.total)
        self._crawls[crawl_id] = replace(tracked, progress=progress, error=None)

    def ended(self, crawl_id: str, state: str, now: datetime) -> None:
        """The user cancelled `crawl_id` and the service said `state`: show it as ended from `now`."""
        self.record(crawl_id, Progress(state, 0, 0))
        tracked = self._crawls.get(crawl_id)
        if tracked is not None and tracked.left_at is None and tracked.settled:
            self._crawls[crawl_id] = replace(tracked, left_at=now)

    def _failed(self, crawl_id: str, error: WdsError, *, gone: bool) -> None:
        tracked = self._crawls.get(crawl_id)
        if tracked is None:
            return
        reason = f"{error.title}: {error.message}" if error.message else error.title
        # A listed crawl answering 404 is a service glitch, asked again; one that left the list is gone.
        self._crawls[crawl_id] = replace(tracked, error=reason, gone=gone and tracked.left_at is not None)
