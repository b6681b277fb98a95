"""The crawls pane's memory (`JobTracker`) on its own: which jobs it takes, asks about, forgets, and in what order.

No service: the status calls are the test's own function, which records what
it was asked and answers or raises as the test says.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from tests.support.dashboard import NOW
from tui.api.errors import BadRequestError, InternalServerError, NotFoundError, WdsError
from tui.contract.models.common import JobStatus
from tui.contract.models.crawl import ActiveCrawl, CrawlStatus
from tui.dashboard.features.crawls.rows import progress_cell
from tui.dashboard.features.crawls.tracker import JobTracker, Progress
from tui.dashboard.shell.sightings import CRAWL, WEBHOOK, JobSighting

WINDOW = timedelta(hours=1)


class Service:
    """Status answers by id: a CrawlStatus, or an error to raise; every call recorded."""

    def __init__(self) -> None:
        self.answers: dict[str, CrawlStatus | WdsError] = {}
        self.asked: list[str] = []

    async def status(self, kind: str, job_id: str) -> JobStatus:
        self.asked.append(job_id)
        answer = self.answers[job_id]
        if isinstance(answer, WdsError):
            raise answer
        return answer


def new_id() -> str:
    return str(uuid.uuid4())


def seen(job_id: str, at: object = None) -> JobSighting:
    return JobSighting(CRAWL, job_id, WEBHOOK, at=at)  # type: ignore[arg-type]


def listed(*ids: str) -> list[ActiveCrawl]:
    return [ActiveCrawl(id=job_id, url=f"https://site.test/{n}") for n, job_id in enumerate(ids)]


def test_a_sighting_whose_id_is_not_a_uuid_is_not_taken() -> None:
    tracker = JobTracker(window=WINDOW)
    assert not tracker.saw([seen("crawl-42"), seen("")], NOW)
    assert tracker.rows == ()


async def test_a_refused_id_is_asked_once_and_says_so() -> None:
    service, tracker = Service(), JobTracker(window=WINDOW)
    job_id = new_id()
    service.answers[job_id] = BadRequestError("invalid crawl id", status=400)
    tracker.saw([seen(job_id)], NOW)
    await tracker.update([], NOW, service.status)
    await tracker.update([], NOW + timedelta(minutes=1), service.status)
    assert service.asked == [job_id]  # a refusal of the id is final
    (row,) = tracker.rows
    assert row.refused and "the service refused its id" in progress_cell(row).plain


async def test_a_job_whose_calls_keep_failing_is_forgotten_after_the_window_and_frees_its_place() -> None:
    service, tracker = Service(), JobTracker(window=WINDOW, capacity=2)
    failing = [new_id(), new_id()]
    for job_id in failing:
        service.answers[job_id] = InternalServerError("boom", status=500)
    tracker.saw([seen(job_id) for job_id in failing], NOW)
    await tracker.update([], NOW, service.status)
    await tracker.update([], NOW + WINDOW / 2, service.status)
    assert service.asked.count(failing[0]) == 2  # a 500 may pass: asked again within the window
    later = new_id()
    assert not tracker.saw([seen(later)], NOW + WINDOW / 2)  # full of jobs still running as far as known
    service.asked.clear()
    await tracker.update([], NOW + WINDOW, service.status)
    assert service.asked == [] and tracker.rows == ()  # a whole window in vain: forgotten, not asked
    assert tracker.saw([seen(later)], NOW + WINDOW)


async def test_a_job_that_last_answered_running_is_asked_again_after_a_long_pause_not_forgotten() -> None:
    service, tracker = Service(), JobTracker(window=WINDOW)
    batch_id = new_id()
    service.answers[batch_id] = CrawlStatus(status="scraping", completed=1, total=50)
    tracker.saw([seen(batch_id)], NOW)
    await tracker.update([], NOW, service.status)
    await tracker.update([], NOW + 2 * WINDOW, service.status)  # the pane was paused, or out of sight
    assert service.asked == [batch_id, batch_id] and [row.id for row in tracker.rows] == [batch_id]


async def test_a_sighting_dated_in_the_future_counts_as_seen_now_and_goes_with_the_window() -> None:
    service, tracker = Service(), JobTracker(window=WINDOW)
    job_id = new_id()
    service.answers[job_id] = NotFoundError("unknown crawl", status=404)
    tracker.saw([seen(job_id, at=NOW + timedelta(days=1))], NOW)  # the sender's clock is a day ahead
    await tracker.update([], NOW, service.status)
    assert [row.id for row in tracker.rows] == [job_id]
    await tracker.update([], NOW + WINDOW, service.status)
    assert tracker.rows == ()


async def test_recent_jobs_stay_newest_first_when_the_list_lags_behind_a_pushed_end() -> None:
    service, tracker = Service(), JobTracker(window=WINDOW)
    first, second = new_id(), new_id()
    for job_id in (first, second):
        service.answers[job_id] = CrawlStatus(status="scraping", completed=1, total=5)
    await tracker.update(listed(first, second), NOW, service.status)
    tracker.pushed(first, Progress("completed", 5, 5), NOW + timedelta(minutes=1))  # ends first, told at once
    service.answers[second] = CrawlStatus(status="completed", completed=5, total=5)
    # The list still names the ended crawl a while; the second ends later, leaves it first.
    await tracker.update(listed(first), NOW + timedelta(minutes=10), service.status)
    await tracker.update([], NOW + timedelta(minutes=15), service.status)
    assert [row.id for row in tracker.rows] == [second, first]
    assert [row.ended_at for row in tracker.rows] == [NOW + timedelta(minutes=10), NOW + timedelta(minutes=1)]
