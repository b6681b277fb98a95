"""The search behind the failed-only view and the triage: walk the activity pages for failed jobs.

The activity list gives no status and no total, so the walk follows the
cursors page by page (of the kind filtered on), asks each entry's state
through the pane's `StatusChecker` (same cache, same limit of requests in
flight, same 429 pause) and stops when it has found as many failed jobs as
the view can show, or at the end of its time window (the 24 hours, or a
shorter window that starts at `since`). It can go on from where it stopped
for the next screenful.

The service says nothing of how many entries the 24 hours hold, so the
progress line estimates it from the entries' own times: N entries reaching
back over a share of the window make about N / share in all. It is marked
with "~", and becomes the exact count once the walk reaches the end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tui.api.errors import RateLimitError
from tui.api.rate_limit_pause import DEFAULT_PAUSE
from tui.contract.limits import ACTIVITY_LIMIT_MAX
from tui.contract.models import ActivityEntry
from tui.dashboard.features.activity.job_states import MAX_IN_FLIGHT, RowStatus, StatusChecker
from tui.dashboard.kit.formatting import clock_time
from tui.dashboard.kit.outside_text import visible

WINDOW = timedelta(hours=24)
BATCH = 2 * MAX_IN_FLIGHT
"""Entries checked between two looks at "found enough?": a walk stops soon after a screenful."""


@dataclass
class Found:
    """A failed job the walk found, with the status that says so."""

    entry: ActivityEntry
    status: RowStatus

    def detail(self) -> str:
        """What the lists of failed jobs say under the table: the job, then its cause (outside text, made visible)."""
        entry = self.entry
        cause = self.status.error or "no error message given"
        return f"{visible(entry.endpoint)} {visible(entry.id)} · {visible(entry.target or '')}\n{cause}"


@dataclass
class WalkState:
    """How far the walk has got: what it checked, what it found, where it will go on."""

    checked: int = 0
    unreadable: int = 0  # checked, but the service did not say their state (an error other than 404)
    pages: int = 0
    oldest: datetime | None = None  # the time of the oldest entry checked
    found: list[Found] = field(default_factory=list)
    pending: list[ActivityEntry] = field(default_factory=list)  # read but not checked yet
    cursor: str | None = None  # the page to read next
    last_page: bool = False  # the page read last had no next one
    note: str | None = None  # a pause, in words
    span: timedelta = WINDOW  # how long the window searched is

    @property
    def span_words(self) -> str:
        """The window in words: `24 hours`, `1 hour`, `15 minutes`."""
        minutes = int(self.span.total_seconds() // 60)
        if minutes < 60:
            return f"{minutes} minute{'' if minutes == 1 else 's'}"
        hours = minutes // 60
        return f"{hours} hour{'' if hours == 1 else 's'}"

    @property
    def finished(self) -> bool:
        """Whether every entry of the window has been checked."""
        return self.last_page and not self.pending

    def estimate(self, now: datetime) -> int | None:
        """About how many entries the window holds (exact once finished), or None while it cannot be told."""
        if self.finished:
            return self.checked
        if self.oldest is None or self.checked == 0:
            return None
        covered = (now - self.oldest) / self.span
        if covered <= 0.02:  # half an hour of entries says little of a whole day
            return None
        return max(self.checked + len(self.pending), round(self.checked / min(covered, 1.0)))

    def progress_text(self, now: datetime) -> str:
        """`checked 240 of ~1,300 entries · page 3 · back to 06-14 18:02 · 4 failed`."""
        total = self.estimate(now)
        if self.finished:
            head = f"checked all {self.checked:,} entries of the last {self.span_words}"
        elif total is not None:
            head = f"checked {self.checked:,} of ~{total:,} entries"
        else:
            head = f"checked {self.checked:,} entries"
        parts = [head, f"page {self.pages}"]
        if self.oldest is not None and not self.finished:
            parts.append(f"back to {clock_time(self.oldest, now)}")
        parts.append(f"{len(self.found)} failed")
        if self.unreadable:
            parts.append(f"{self.unreadable:,} could not be checked")
        if self.note:
            parts.append(self.note)
        return " · ".join(parts)


class FailedJobsWalk:
    """Finds failed jobs in a window of activity (the 24 hours, or since `since`), a screenful at a time."""

    def __init__(
        self,
        team: Any,  # client.team: `activity(endpoint=, limit=, cursor=)`
        statuses: StatusChecker,
        *,
        endpoint: str | None,
        page_size: int = ACTIVITY_LIMIT_MAX,
        since: datetime | None = None,
        span: timedelta = WINDOW,
    ) -> None:
        self.team = team
        self.statuses = statuses
        self.endpoint = endpoint
        self.page_size = page_size
        self.since = since
        self.state = WalkState(span=span)

    async def run(self, wanted: int, on_progress: Callable[[WalkState], None]) -> WalkState:
        """Walk on until `wanted` more failed jobs are found or the window ends; report as it goes.

        Raises what the activity call raises (a 429 is waited out). Cancelled,
        it keeps in `state` everything found so far, and goes on from there
        when run again.
        """
        state = self.state
        target = len(state.found) + wanted
        while not state.finished and len(state.found) < target:
            if not state.pending:
                page = await self._page(state, on_progress)
                state.pages += 1
                entries = list(page.entries)
                if self.since is not None:  # newest first: the first entry before the window ends it
                    since = self.since
                    state.pending = [entry for entry in entries if entry.created_at >= since]
                else:
                    state.pending = entries
                state.cursor = page.next_cursor
                state.last_page = page.next_cursor is None or len(state.pending) < len(entries)
                if not state.pending:
                    continue
            batch = state.pending[:BATCH]
            statuses = await self._check(batch, state, on_progress)
            del state.pending[: len(batch)]  # only now: a cancelled batch is checked again next time
            for entry, status in zip(batch, statuses, strict=True):
                state.checked += 1
                state.oldest = entry.created_at if state.oldest is None else min(state.oldest, entry.created_at)
                if status.failed:
                    state.found.append(Found(entry, status))
                elif status.problem is not None and not status.final:
                    state.unreadable += 1
            on_progress(state)
        return state

    async def _page(self, state: WalkState, on_progress: Callable[[WalkState], None]) -> Any:
        while True:
            try:
                page = await self.team.activity(endpoint=self.endpoint, limit=self.page_size, cursor=state.cursor)
            except RateLimitError as exc:
                state.note = "paused: rate limited"
                on_progress(state)
                await asyncio.sleep(exc.retry_after or DEFAULT_PAUSE)
                continue
            state.note = None
            return page

    async def _check(
        self, entries: list[ActivityEntry], state: WalkState, on_progress: Callable[[WalkState], None]
    ) -> list[RowStatus]:
        async def one(entry: ActivityEntry) -> RowStatus:
            status = await self.statuses.check(entry.endpoint, entry.id)
            while status is None:  # a 429 paused the checks: wait it out, then ask again
                state.note = "paused: rate limited"
                on_progress(state)
                await asyncio.sleep(max(self.statuses.paused_for(), 0.05))
                status = await self.statuses.check(entry.endpoint, entry.id)
            state.note = None
            return status

        return list(await asyncio.gather(*(one(entry) for entry in entries)))
