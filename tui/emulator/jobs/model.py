"""The jobs the emulator keeps: scrape, crawl, batch scrape and agent/extract.

Each job remembers who made it, what was asked, what came out and, when
something went wrong, the `Failure` that explains it (the support desk reads
it). Crawl and batch jobs hold their whole outcome from the start and reveal
it along a `Timeline`, so their state is a function of the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from tui.api.requests import BatchScrapeRequest, CrawlRequest, ScrapeOptions, ScrapeRequest, WebhookConfig
from tui.emulator.core.clock import isoformat_z
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
        return {"metadata": {"sourceURL": self.url, "url": self.url, "statusCode": status,
                             "scrapeId": self.id, "error": self.failure.message}}


@dataclass
class _PagedJob:
    """What crawl and batch jobs share: an outcome revealed along a timeline."""

    id: str
    team_id: str
    api_key: str
    created_at: datetime
    status_path: str  # "/v2/crawl/<id>": the status URL is built from the base URL each caller used
    timeline: Timeline
    webhook: WebhookConfig | None
    page_ids: list[str]
    cancelled_at: datetime | None = None

    @property
    def expires_at(self) -> datetime:
        return self.created_at + JOB_RETENTION

    def results(self) -> list[FetchResult]:  # pragma: no cover - overridden
        raise NotImplementedError

    def status(self, now: datetime) -> JobStatus:
        return self.timeline.status(now, self.cancelled_at)

    def completed(self, now: datetime) -> int:
        return self.timeline.completed(now, self.cancelled_at)

    def documents(self, now: datetime) -> list[dict[str, Any]]:
        """Documents of the pages scraped by `now`, each with its own scrapeId."""
        done = self.completed(now)
        docs = []
        for page_id, result in zip(self.page_ids[:done], self.results()[:done], strict=True):
            if result.document is not None:
                docs.append({**result.document, "metadata": {**result.document["metadata"], "scrapeId": page_id}})
        return docs

    def credits_used(self, now: datetime) -> int:
        return sum(result.credits for result in self.results()[: self.completed(now)])

    def status_payload(self, now: datetime, skip: int, limit: int, base_url: str) -> dict[str, Any]:
        """The body of `GET /v2/crawl/{id}` / `GET /v2/batch/scrape/{id}` for one page of data."""
        docs = self.documents(now)
        page = docs[skip: skip + limit]
        body: dict[str, Any] = {
            "success": True,
            "status": self.status(now),
            "completed": self.completed(now),
            "total": self.total,
            "creditsUsed": self.credits_used(now),
            "expiresAt": isoformat_z(self.expires_at),
        }
        if skip + limit < len(docs):
            body["next"] = f"{base_url}{self.status_path}?skip={skip + limit}&limit={limit}"
        body["data"] = page
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

    @property
    def failure(self) -> Failure | None:
        """The reason this crawl failed or came back thin, if any."""
        return self.plan.start_failure or self.nothing_matched

    def errors_payload(self, now: datetime) -> dict[str, Any]:
        """`GET /v2/crawl/{id}/errors`: pages that could not be scraped, and robots.txt refusals."""
        errors = self.plan.errors if self.status(now) != "scraping" else []
        if self.plan.start_failure is not None and self.plan.start_failure.kind != FailureKind.ROBOTS:
            errors = [CrawlError(self.url, self.plan.start_failure)]
        done = self.completed(now)
        return {
            "success": True,
            "errors": [{"id": self.id, "timestamp": isoformat_z(self.timeline.ends_at), "url": e.url,
                        "error": e.failure.message} for e in errors]
            + [_error_entry(self.page_ids[i], self.timeline.page_done_at(i), r)
               for i, r in enumerate(self.plan.results[:done]) if is_cache_miss(r.failure)],
            "robotsBlocked": list(self.plan.robots_blocked),
        }

    def active_record(self) -> dict[str, Any]:
        """The element of `GET /v2/crawl/active`'s `crawls`."""
        assert self.request is not None
        options = self.request.to_wire()
        for key in ("url", "webhook", "prompt"):
            options.pop(key, None)
        options["scrapeOptions"] = scrape_options_wire(self.request.scrape_options)
        return {"id": self.id, "teamId": self.team_id, "url": self.url, "options": options,
                "created_at": isoformat_z(self.created_at)}


@dataclass
class BatchJob(_PagedJob):
    """One batch scrape: one fetch per valid URL, revealed along its timeline."""

    kind: ClassVar[str] = "batch_scrape"

    request: BatchScrapeRequest | None = None
    fetched: list[FetchResult] = field(default_factory=list)
    invalid_urls: list[str] = field(default_factory=list)

    def results(self) -> list[FetchResult]:
        return self.fetched

    @property
    def url(self) -> str:
        return self.fetched[0].url if self.fetched else ""

    @property
    def failure(self) -> Failure | None:
        """The first page that failed, as the batch's most telling problem."""
        return next((r.failure for r in self.fetched if r.failure is not None), None)

    def errors_payload(self, now: datetime) -> dict[str, Any]:
        done = self.completed(now)
        return {
            "success": True,
            "errors": [_error_entry(self.page_ids[i], self.timeline.page_done_at(i), r)
                       for i, r in enumerate(self.fetched[:done]) if _is_error(r)],
            "robotsBlocked": [],
        }


def _is_error(result: FetchResult) -> bool:
    """A page the job could not scrape: nothing came back, or a cache-only scrape found nothing."""
    return result.failure is not None and (not result.has_document or is_cache_miss(result.failure))


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
        return {"success": True, "status": "failed", "error": self.failure.message, "data": None,
                "expiresAt": isoformat_z(self.created_at + JOB_RETENTION)}


Job = ScrapeJob | CrawlJob | BatchJob | AgentJob
