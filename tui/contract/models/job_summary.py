"""A job's state in a few fields, whatever its kind: what a status column or a support question needs.

The retrieval endpoints answer with four different models (a scrape's
document, a crawl's or batch's progress, an extract's status). `summarize`
reads any of them into one `JobSummary`, so the views never look inside a
document's metadata to tell a failed scrape from a good one.
"""

from __future__ import annotations

from dataclasses import dataclass

from tui.contract.models.common import FINISHED_STATES, JobStatus
from tui.contract.models.extract import ExtractStatus
from tui.contract.models.scrape import ScrapeResult

COMPLETED = "completed"
FAILED = "failed"


@dataclass(frozen=True)
class JobSummary:
    """A job's state (`completed`, `failed`, `scraping`, ... or None when the service did not say).

    `http_status` is the status the scraped page answered (scrapes only);
    `error` the job's error message, or `HTTP 404` for a page that answered one;
    `finished` whether the job will not change any more (its summary can be kept for good).
    """

    state: str | None
    http_status: int | None = None
    error: str | None = None
    finished: bool = False

    @property
    def failed(self) -> bool:
        """Whether the job failed, or finished with a page that answered an error status."""
        return self.state == FAILED or (self.http_status is not None and self.http_status >= 400)


def _scrape_summary(job: ScrapeResult) -> JobSummary:
    # A scrape is answered once it is done: its document is its final state.
    if job.data is None:
        return JobSummary(None, finished=False)
    metadata = job.data.metadata
    status = metadata.status_code
    if status is not None and status >= 400:
        error = f"HTTP {status}: {metadata.error}" if metadata.error else f"HTTP {status}"
        return JobSummary(FAILED, status, error, finished=True)
    if metadata.error:
        return JobSummary(FAILED, status, metadata.error, finished=True)
    return JobSummary(COMPLETED, status, finished=True)


def _extra_error(job: JobStatus | ExtractStatus) -> str | None:
    # Crawl and batch statuses carry no `error` in the contract; the service may add one.
    error = getattr(job, "error", None) or (job.model_extra or {}).get("error")
    return error if isinstance(error, str) and error else None


def summarize(job: ScrapeResult | JobStatus | ExtractStatus) -> JobSummary:
    """The summary of a job as its kind's retrieval endpoint returned it."""
    if isinstance(job, ScrapeResult):
        return _scrape_summary(job)
    state = str(job.status) if job.status is not None else None
    finished = job.status in FINISHED_STATES
    return JobSummary(state, error=_extra_error(job), finished=finished)
