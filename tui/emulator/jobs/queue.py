"""What a team's queue looks like now: the real service's concurrency and queue-status answers.

Not in the contract; the official SDKs call `GET /v2/concurrency-check` and
`GET /v2/team/queue-status` (`get_concurrency`, `get_queue_status`), so the
emulator answers them from its jobs' timelines. In the emulator's terms a
queued job is a page of a running crawl or batch that is not scraped yet; the
team's workers (`TEAM_CONCURRENCY`) scrape them, the rest wait.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tui.emulator.core.clock import isoformat_z
from tui.emulator.jobs.crawl_progress import TEAM_CONCURRENCY
from tui.emulator.jobs.model import BatchJob, CrawlJob, Job, ScrapeJob


def _pages_waiting(jobs: list[Job], now: datetime) -> int:
    return sum(job.total - job.completed(now) for job in jobs
               if isinstance(job, CrawlJob | BatchJob) and job.status(now) == "scraping")


def concurrency_check(jobs: list[Job], now: datetime) -> dict[str, Any]:
    """`GET /v2/concurrency-check`: workers busy now, and how many the team has."""
    return {"concurrency": min(TEAM_CONCURRENCY, _pages_waiting(jobs, now)), "maxConcurrency": TEAM_CONCURRENCY}


def queue_status(jobs: list[Job], now: datetime) -> dict[str, Any]:
    """`GET /v2/team/queue-status`: pages queued, being scraped and waiting; the last success."""
    queued = _pages_waiting(jobs, now)
    active = min(TEAM_CONCURRENCY, queued)
    return {"jobsInQueue": queued, "activeJobsInQueue": active, "waitingJobsInQueue": queued - active,
            "maxConcurrency": TEAM_CONCURRENCY, "mostRecentSuccess": _most_recent_success(jobs, now)}


def _most_recent_success(jobs: list[Job], now: datetime) -> str | None:
    moments = []
    for job in jobs:
        if isinstance(job, ScrapeJob) and job.document is not None:
            moments.append(job.created_at)
        elif isinstance(job, CrawlJob | BatchJob) and job.completed(now):
            moments.append(job.timeline.page_done_at(job.completed(now) - 1))
    return isoformat_z(max(moments)) if moments else None
