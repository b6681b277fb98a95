"""What a team's queue looks like now: the real service's concurrency and queue-status answers.

Not in the contract; the official SDKs call `GET /v2/concurrency-check` and
`GET /v2/team/queue-status` (`get_concurrency`, `get_queue_status`), so the
emulator answers them from its jobs' timelines. In the emulator's terms a
queued job is a page of a running crawl or batch that is not scraped yet; the
team's workers (`TEAM_CONCURRENCY`) scrape them, the rest wait.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from tui.emulator.core.clock import isoformat_z
from tui.emulator.jobs.crawl_progress import TEAM_CONCURRENCY
from tui.emulator.jobs.model import BatchJob, CrawlJob, Job, ScrapeJob


def pages_waiting(jobs: Sequence[Job], now: datetime) -> int:
    """Pages of the team's running crawls and batches not scraped yet at `now`."""
    return sum(
        job.total - job.completed(now)
        for job in jobs
        if isinstance(job, CrawlJob | BatchJob) and job.status(now) == "scraping"
    )


def seconds_until_done(jobs: Sequence[Job], now: datetime, pages: int) -> int:
    """Whole seconds from `now` until `pages` more of the team's waiting pages have been scraped.

    Each job goes at its own pace (its timeline), so the answer is found by halving
    the seconds up to the last job's end.
    """
    running = [job for job in jobs if isinstance(job, CrawlJob | BatchJob) and job.status(now) == "scraping"]
    if pages <= 0 or not running:
        return 0
    waiting = pages_waiting(running, now)

    def enough_within(seconds: int) -> bool:
        return waiting - pages_waiting(running, now + timedelta(seconds=seconds)) >= pages

    low, high = 0, math.ceil(max((job.timeline.ends_at - now).total_seconds() for job in running))
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if enough_within(middle) else (middle + 1, high)
    return high


def spoken_duration(seconds: float) -> str:
    """`seconds` as a person says it: "45 s", "12 min", "3 h 20 min"."""
    seconds = max(1, math.ceil(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"


def concurrency_check(jobs: list[Job], now: datetime) -> dict[str, Any]:
    """`GET /v2/concurrency-check`: workers busy now, and how many the team has."""
    return {"concurrency": min(TEAM_CONCURRENCY, pages_waiting(jobs, now)), "maxConcurrency": TEAM_CONCURRENCY}


def queue_status(jobs: list[Job], now: datetime) -> dict[str, Any]:
    """`GET /v2/team/queue-status`: pages queued, being scraped and waiting; the last success."""
    queued = pages_waiting(jobs, now)
    active = min(TEAM_CONCURRENCY, queued)
    return {
        "jobsInQueue": queued,
        "activeJobsInQueue": active,
        "waitingJobsInQueue": queued - active,
        "maxConcurrency": TEAM_CONCURRENCY,
        "mostRecentSuccess": _most_recent_success(jobs, now),
    }


def _most_recent_success(jobs: list[Job], now: datetime) -> str | None:
    moments = []
    for job in jobs:
        if isinstance(job, ScrapeJob) and job.document is not None:
            moments.append(job.created_at)
        elif isinstance(job, CrawlJob | BatchJob) and job.completed(now):
            moments.append(job.timeline.page_done_at(job.completed(now) - 1))
    return isoformat_z(max(moments)) if moments else None
