"""Running batches, brought up to now as time passes.

A batch scrapes (and bills) each URL only when its timeline reaches it (`BatchRun`), so
something has to bring it up to now: the status route before it reads one batch, and the
served emulator's loop for all of them, so that billing, the cache and webhooks keep pace
even for a batch nobody polls. Its own module: this is the one part of the job store that
runs on a timer rather than on a request.
"""

from __future__ import annotations

import asyncio
import logging

from tui.emulator.core.clock import Clock
from tui.emulator.jobs.model import BatchJob

# URLs a batch scrapes on the loop before letting other requests in (a catch-up after a long pause).
CATCH_UP_SLICE = 200
# Real seconds between the served emulator's catch-ups of running batches (their billing and webhooks).
CATCH_UP_SECONDS = 1.0

log = logging.getLogger(__name__)


class RunningBatches:
    """The batches with URLs still to scrape, by id."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._unfinished: dict[str, BatchJob] = {}

    def add(self, job: BatchJob) -> None:
        """Keep `job` caught up until it has scraped its last URL."""
        self._unfinished[job.id] = job

    def forget(self, job_id: str) -> None:
        """Stop catching up a job (dropped by retention)."""
        self._unfinished.pop(job_id, None)

    async def catch_up(self, job: BatchJob) -> None:
        """Scrape what `job`'s timeline has reached by now, a slice at a time with the loop let go between."""
        now = self._clock.now()
        while job.catch_up(now, CATCH_UP_SLICE):
            await asyncio.sleep(0)

    async def catch_up_all(self) -> None:
        """Bring every running batch up to now (their billing, their cache entries, their webhooks' pages)."""
        for job_id, job in list(self._unfinished.items()):
            await self.catch_up(job)
            now = self._clock.now()
            if job.status(now) != "scraping" and job.run.scraped >= job.completed(now):
                self._unfinished.pop(job_id, None)

    async def run_loop(self) -> None:
        """Served mode: catch up running batches every `CATCH_UP_SECONDS` until cancelled."""
        while True:
            await asyncio.sleep(CATCH_UP_SECONDS)
            try:
                await self.catch_up_all()
            except Exception:  # one batch's failure must not stop the others' progress
                log.exception("catching up running batches failed")
