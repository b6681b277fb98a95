"""How far a crawl or batch has got, computed from the emulator's clock.

Nothing runs in the background: a job knows when it was created, how many
pages it will produce and how long each page takes, so its state at any
instant is arithmetic. A `ManualClock` moved by a test therefore moves every
job exactly, and a served emulator shows jobs progressing in real time.

Pacing: each of the team's workers scrapes one page per emulator second
(`PAGE_SECONDS`); a job uses `concurrency` workers (the team's limit, or a
batch's `maxConcurrency`). A crawl's `delay` (seconds between requests) makes
it sequential with at least that gap between pages.

A tester may hold a job and move it by hand (`progression.SteeredTimeline`, a
timeline with the held time cut out): still arithmetic, on the same clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

PAGE_SECONDS = 1.0
TEAM_CONCURRENCY = 2
JOB_RETENTION = timedelta(hours=24)

JobStatus = Literal["scraping", "completed", "failed", "cancelled"]


def page_interval(concurrency: int | None = None, delay: float | None = None) -> float:
    """Seconds between two completed pages of one job."""
    if delay:
        return max(float(delay), PAGE_SECONDS)
    workers = max(1, min(concurrency or TEAM_CONCURRENCY, TEAM_CONCURRENCY))
    return PAGE_SECONDS / workers


@dataclass(frozen=True)
class Timeline:
    """When each page of a job completes, and when the job ends."""

    created_at: datetime
    pages: int
    interval: float
    fails_at_start: bool = False

    def page_done_at(self, index: int) -> datetime:
        """When page `index` (0-based) is scraped."""
        return self.created_at + timedelta(seconds=(index + 1) * self.interval)

    @property
    def ends_at(self) -> datetime:
        """When the job reaches its final state (a failed start takes one page's time)."""
        steps = 1 if self.fails_at_start or self.pages == 0 else self.pages
        return self.created_at + timedelta(seconds=steps * self.interval)

    def done_by(self, moment: datetime) -> int:
        """Pages completed at `moment`."""
        if self.fails_at_start:
            return 0
        elapsed = (moment - self.created_at).total_seconds()
        if elapsed <= 0:
            return 0
        # The small epsilon keeps float division from losing a page exactly on its boundary.
        return min(self.pages, int(elapsed / self.interval + 1e-9))

    def status(self, now: datetime, cancelled_at: datetime | None = None) -> JobStatus:
        """The job's state at `now`."""
        if cancelled_at is not None and cancelled_at < self.ends_at and now >= cancelled_at:
            return "cancelled"
        if now < self.ends_at:
            return "scraping"
        return "failed" if self.fails_at_start else "completed"

    @property
    def failed_with(self) -> str | None:
        """The error a job was failed with from outside its own run (a tester's, `progression`); none here."""
        return None

    def completed(self, now: datetime, cancelled_at: datetime | None = None) -> int:
        """Pages completed at `now`, frozen at the moment of a cancellation."""
        moment = min(now, cancelled_at) if cancelled_at is not None else now
        return self.done_by(moment)
