"""The jobs the emulator keeps: scrape, crawl, batch scrape and agent/extract.

Each job remembers who made it, what was asked, what came out and, when
something went wrong, the `Failure` that explains it (the support desk reads
it). A crawl holds its whole outcome from the start and reveals it along a
`Timeline`; a batch scrapes each URL when its timeline reaches it
(`BatchRun`). Either way their state is a function of the clock, unless a
tester holds the job (its timeline is then a `progression.SteeredTimeline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from tui.contract.requests import BatchScrapeRequest, CrawlRequest, ScrapeOptions, ScrapeRequest, WebhookConfig
from tui.emulator.core.clock import isoformat_z
from tui.emulator.jobs.batch_run import BatchRun, document_window
from tui.emulator.jobs.crawl_plan import CrawlError, CrawlPlan
from tui.emulator.jobs.crawl_progress import JOB_RETENTION, JobStatus, Timeline
from tui.emulator.jobs.scrape_engine import Failure, FailureKind, FetchResult
from tui.emulator.jobs.team_cache import CACHE_MISS_CODES, is_cache_miss

# What the service fills in for scrape options a request leaves out (shown in active crawl records).
SCRAPE_OPTION_DEFAULTS: dict[str, Any] = {
    "formats": ["markdown"],
    "onlyMainContent": True,
    "waitFor": 0,
    "mobile": False,
    "skipTlsVerification": True,
    "timeout": 60000,
    "removeBase64Images": True,
    "blockAds": True,
    "proxy": "auto",
    "storeInCache": True,
    "maxAge": 172800000,
}


def scrape_options_wire(options: ScrapeOptions | None) -> dict[str, Any]:
    """Scrape options as the service reports them: defaults overlaid with what was sent."""
    given = options.to_wire() if options is not None else {}
    return {**SCRAPE_OPTION_DEFAULTS, **given}


def webhook_config(value: str | WebhookConfig | None) -> WebhookConfig | None:
    """A webhook given as a bare URL or as an object, always as the object."""
    if value is None or isinstance(value, WebhookConfig):
        return value
    return WebhookConfig(url=value)


@dataclass
class ScrapeJob:
    """One `POST /v2/scrape` (or a scrape made for seeding)."""

    kind: ClassVar[str] = "scrape"

    id: str
    team_id: str
    api_key: str
    url: str
    request: ScrapeRequest
    created_at: datetime
    document: dict[str, Any] | None
    failure: Failure | None
    credits: int
    cache_state: str = "miss"

    def status(self, now: datetime) -> JobStatus:
        """A scrape is finished when it is created: completed, or failed when it produced nothing."""
        return "failed" if self.document is None else "completed"

    def to_document(self) -> dict[str, Any]:
        """The job's Document; a scrape that produced nothing still reports why in its metadata."""
        if self.document is not None:
            return self.document
        assert self.failure is not None
        status = 408 if self.failure.kind == FailureKind.TIMEOUT else 404
        metadata = {
            "sourceURL": self.url,
            "url": self.url,
            "statusCode": status,
            "scrapeId": self.id,
            "error": self.failure.message,
        }
        if is_cache_miss(self.failure):  # its code, as a batch's entry carries it: no page answered that 404
            metadata["code"] = CACHE_MISS_CODES[self.failure.kind]
        return {"metadata": metadata}


@dataclass
class _PagedJob:
    """What crawl and batch jobs share: an outcome revealed along a timeline, page by page."""

    id: str
    team_id: str
    api_key: str
    created_at: datetime
    status_path: str  # "/v2/crawl/<id>": the status URL is built from the base URL each caller used
    timeline: Timeline
    webhook: WebhookConfig | None
    page_ids: Sequence[str]
    cancelled_at: datetime | None = None

    @property
    def expires_at(self) -> datetime:
        return self.created_at + JOB_RETENTION

    def result(self, index: int) -> FetchResult:  # pragma: no cover - overridden
        raise NotImplementedError

    def has_document(self, index: int) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def status(self, now: datetime) -> JobStatus:
        return self.timeline.status(now, self.cancelled_at)

    def completed(self, now: datetime) -> int:
        return self.timeline.completed(now, self.cancelled_at)

    def page_document(self, index: int) -> dict[str, Any] | None:
        """Page `index`'s document with its own scrapeId (None when the page produced none)."""
        document = self.result(index).document
        if document is None:
            return None
        return {**document, "metadata": {**document["metadata"], "scrapeId": self.page_ids[index]}}

    def document_window(self, done: int, skip: int, limit: int) -> tuple[list[int], bool]:
        """Pages holding the documents `skip` to `skip + limit` of the first `done` pages; whether more follow."""
        return document_window(self.has_document, done, skip, limit)

    def documents(self, now: datetime) -> list[dict[str, Any]]:
        """Documents of every page scraped by `now` (a status page reads only its window)."""
        indices, _ = self.document_window(self.completed(now), 0, self.total)
        return [document for index in indices if (document := self.page_document(index)) is not None]

    def credits_used(self, now: datetime) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def status_payload(self, now: datetime, skip: int, limit: int, base_url: str) -> dict[str, Any]:
        """The body of `GET /v2/crawl/{id}` / `GET /v2/batch/scrape/{id}` for one page of data.

        Only the documents of the page asked for are written: a batch of 100,000
        URLs is read 1,000 documents at a time.
        """
        done = self.completed(now)
        indices, more = self.document_window(done, skip, limit)
        body: dict[str, Any] = {
            "success": True,
            "status": self.status(now),
            "completed": done,
            "total": self.total,
            "creditsUsed": self.credits_used(now),
            "expiresAt": isoformat_z(self.expires_at),
        }
        if more:
            body["next"] = f"{base_url}{self.status_path}?skip={skip + limit}&limit={limit}"
        body["data"] = [document for index in indices if (document := self.page_document(index)) is not None]
        return body

    @property
    def total(self) -> int:
        return self.timeline.pages


@dataclass
class CrawlJob(_PagedJob):
    """One crawl: its request, its plan and its progress."""

    kind: ClassVar[str] = "crawl"

    url: str = ""
    request: CrawlRequest | None = None
    plan: CrawlPlan = field(default_factory=CrawlPlan)
    nothing_matched: Failure | None = None

    def results(self) -> list[FetchResult]:
        return self.plan.results

    def result(self, index: int) -> FetchResult:
        return self.plan.results[index]

    def has_document(self, index: int) -> bool:
        return self.plan.results[index].has_document

    def credits_used(self, now: datetime) -> int:
        return sum(result.credits for result in self.plan.results[: self.completed(now)])

    @property
    def failure(self) -> Failure | None:
        """The reason this crawl failed or came back thin, if any."""
        return self.plan.start_failure or self.nothing_matched

    def errors_payload(self, now: datetime) -> dict[str, Any]:
        """`GET /v2/crawl/{id}/errors`: pages that could not be scraped, and robots.txt refusals."""
        errors = self.plan.errors if self.status(now) != "scraping" else []
        start_failure = self.plan.start_failure
        if start_failure is not None and start_failure.kind != FailureKind.ROBOTS and not self.timeline.failed_with:
            errors = [CrawlError(self.url, start_failure)]  # a tester's error, when given, says it instead
        done = self.completed(now)
        return {
            "success": True,
            "errors": [
                {
                    "id": self.id,
                    "timestamp": isoformat_z(self.timeline.ends_at),
                    "url": e.url,
                    "error": e.failure.message,
                }
                for e in errors
            ]
            + _failed_with_entry(self, now)
            + [
                _error_entry(self.page_ids[i], self.timeline.page_done_at(i), r)
                for i, r in enumerate(self.plan.results[:done])
                if is_cache_miss(r.failure)
            ],
            "robotsBlocked": list(self.plan.robots_blocked),
        }

    def active_record(self) -> dict[str, Any]:
        """The element of `GET /v2/crawl/active`'s `crawls`."""
        assert self.request is not None
        options = self.request.to_wire()
        for key in ("url", "webhook", "prompt"):
            options.pop(key, None)
        options["scrapeOptions"] = scrape_options_wire(self.request.scrape_options)
        return {
            "id": self.id,
            "teamId": self.team_id,
            "url": self.url,
            "options": options,
            "created_at": isoformat_z(self.created_at),
        }


@dataclass(kw_only=True)
class BatchJob(_PagedJob):
    """One batch scrape: its URLs, scraped one by one as its timeline reaches them (`BatchRun`).

    Every method given `now` first scrapes what the timeline has reached by then
    (`catch_up`), so what it reports is what a scrape at each page's moment gave.
    """

    kind: ClassVar[str] = "batch_scrape"

    request: BatchScrapeRequest
    run: BatchRun
    invalid_urls: list[str] = field(default_factory=list)

    def catch_up(self, now: datetime, most: int | None = None) -> int:
        """Scrape the URLs done by `now` (at most `most` of them in this call); how many are still to scrape."""
        return self.run.scrape_until(self.completed(now), most)

    def result(self, index: int) -> FetchResult:
        return self.run.result(index)

    def has_document(self, index: int) -> bool:
        return self.run.has_document(index)

    def page_document(self, index: int) -> dict[str, Any] | None:
        document = self.run.document(index)  # kept a while for the next poll (`RenderedPages`)
        if document is None:
            return None
        return {**document, "metadata": {**document["metadata"], "scrapeId": self.page_ids[index]}}

    def document_window(self, done: int, skip: int, limit: int) -> tuple[list[int], bool]:
        return self.run.document_window(min(done, self.run.scraped), skip, limit)

    def credits_used(self, now: datetime) -> int:
        self.catch_up(now)
        return self.run.credits(self.completed(now))

    def status_payload(self, now: datetime, skip: int, limit: int, base_url: str) -> dict[str, Any]:
        self.catch_up(now)
        return super().status_payload(now, skip, limit, base_url)

    @property
    def url(self) -> str:
        return self.run.urls[0] if self.run.urls else ""

    @property
    def failure(self) -> Failure | None:
        """The first page scraped so far that failed, as the batch's most telling problem."""
        return self.run.first_failure()

    def errors_payload(self, now: datetime) -> dict[str, Any]:
        self.catch_up(now)
        done = min(self.completed(now), self.run.scraped)
        return {
            "success": True,
            "errors": [
                _error_entry(self.page_ids[i], self.timeline.page_done_at(i), self.run.result(i))
                for i in range(done)
                if self.run.is_error(i)
            ]
            + _failed_with_entry(self, now),
            "robotsBlocked": [],
        }


def _failed_with_entry(job: CrawlJob | BatchJob, now: datetime) -> list[dict[str, Any]]:
    """The error a tester failed the job with (`progression`), listed as a crawl lists its failed start."""
    error = job.timeline.failed_with
    if error is None or job.status(now) != "failed":
        return []
    return [{"id": job.id, "timestamp": isoformat_z(job.timeline.ends_at), "url": job.url, "error": error}]


def _error_entry(page_id: str, at: datetime, result: FetchResult) -> dict[str, Any]:
    """An element of `GET .../{id}/errors`; a cache-only miss carries its error code as a single scrape does."""
    assert result.failure is not None
    entry = {"id": page_id, "timestamp": isoformat_z(at), "url": result.url, "error": result.failure.message}
    if is_cache_miss(result.failure):
        entry["code"] = CACHE_MISS_CODES[result.failure.kind]
    return entry


@dataclass
class AgentJob:
    """An extract or agent job: recorded, but never run, because the emulator has no LLM."""

    kind: ClassVar[str] = "agent"

    id: str
    team_id: str
    api_key: str
    created_at: datetime
    prompt: str
    urls: list[str]
    failure: Failure
    endpoint: str = "agent"

    def status(self, now: datetime) -> JobStatus:
        return "failed"

    @property
    def url(self) -> str:
        return self.urls[0] if self.urls else ""

    def status_payload(self) -> dict[str, Any]:
        """The body of `GET /v2/extract/{id}`."""
        return {
            "success": True,
            "status": "failed",
            "error": self.failure.message,
            "data": None,
            "expiresAt": isoformat_z(self.created_at + JOB_RETENTION),
        }


Job = ScrapeJob | CrawlJob | BatchJob | AgentJob
