"""Job routes: scrape, crawl, batch scrape, map, crawl params preview, extract status.

The rules live in `JobStore` (and the pure modules it uses); this module maps
HTTP to it. Decisions where the contract is silent (see also observed-behaviour.md):
- A job of another team answers 403 "You are not allowed to access this
  resource." (as the real service does, and as interact does); an unknown id 404
  "Job not found."; a crawl/batch older than 24 h 404 "Job expired.".
- `POST /v2/scrape` answers 200 with the Document even when the target answered
  404/500/403 (`metadata.statusCode` and `metadata.error` say so); a timeout
  answers 408 `SCRAPE_TIMEOUT`; the cache-only misses answer 404 with their codes.
- Status pages: `skip` (default 0) and `limit` (default 100, at most 1000)
  documents; `next` is present while more scraped documents remain.
- `DELETE /v2/crawl/{id}` and `DELETE /v2/batch/scrape/{id}` cancel (`status: cancelled`),
  and `GET .../{id}/errors` lists failed pages and robots.txt refusals, as the real service does.
- `GET /v2/concurrency-check` and `GET /v2/team/queue-status` answer as the real
  service does (the official SDKs call them), from the team's running jobs.
- `POST /v2/batch/scrape` reads, validates and sorts its URLs off the event loop
  (100,000 URLs are ~5 MB of JSON), and is refused past the team's queue cap
  (`JobStore.check_queue`: 429 with `Retry-After`, or 400 for a batch larger than the cap).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tui.contract.requests import BatchScrapeRequest, CrawlParamsPreviewRequest, CrawlRequest, MapRequest, ScrapeRequest
from tui.emulator.core.clock import Clock
from tui.emulator.core.errors import TimedOut
from tui.emulator.core.offload import PAGES, off_loop
from tui.emulator.http.big_json import encode_json, json_body_response
from tui.emulator.http.errors import ApiError, not_found
from tui.emulator.http.parsing import base_url, caller, job_id_param, ok, parse_body, parse_query, parse_raw_body
from tui.emulator.jobs.batch_intake import SortedUrls
from tui.emulator.jobs.model import AgentJob, BatchJob, CrawlJob, ScrapeJob
from tui.emulator.jobs.params_preview import read_prompt
from tui.emulator.jobs.queue import concurrency_check, queue_status
from tui.emulator.jobs.scrape_engine import FailureKind
from tui.emulator.jobs.store import JobStore
from tui.emulator.jobs.team_cache import CACHE_MISS_CODES, CACHE_MISS_STATUS

STATUS_PAGE_DEFAULT = 100
STATUS_PAGE_MAX = 1000


class StatusPageQuery(BaseModel):
    """Paging of a crawl or batch status: which scraped documents to return."""

    skip: int = Field(0, ge=0)
    limit: int = Field(STATUS_PAGE_DEFAULT, ge=1, le=STATUS_PAGE_MAX)


# A scrape that produced no document answers with its failure's status and code; the
# cache-only misses with the codes every scrape path shares (`team_cache`).
_SCRAPE_FAILURE_STATUS = {
    FailureKind.TIMEOUT: (408, "SCRAPE_TIMEOUT"),
    **{kind: (CACHE_MISS_STATUS, code) for kind, code in CACHE_MISS_CODES.items()},
}


def scrape_error(job: ScrapeJob) -> ApiError | None:
    """The error `POST /v2/scrape` answers for a scrape that produced no document."""
    if job.document is not None or job.failure is None:
        return None
    status, code = _SCRAPE_FAILURE_STATUS.get(job.failure.kind, (500, "SCRAPE_FAILED"))
    return ApiError(status, job.failure.message, code)


def routes(store: JobStore, clock: Clock) -> list[BaseRoute]:
    """The job routes over the job store."""

    def paged_job(request: Request, kind: str) -> CrawlJob | BatchJob:
        job = store.owned(job_id_param(request), caller(request).team.id, (kind,))
        assert isinstance(job, CrawlJob | BatchJob)
        if clock.now() > job.expires_at:
            raise not_found("Job expired.")
        return job

    # -- scrape -------------------------------------------------------------------

    async def scrape(request: Request) -> JSONResponse:
        body = await parse_body(request, ScrapeRequest)
        job = store.create_scrape(caller(request), body)
        error = scrape_error(job)
        if error is not None:
            raise error
        return ok({"data": job.document})

    async def scrape_status(request: Request) -> JSONResponse:
        job = store.owned(job_id_param(request), caller(request).team.id, ("scrape",))
        assert isinstance(job, ScrapeJob)
        return ok({"data": job.to_document()})

    # -- crawl --------------------------------------------------------------------

    async def crawl(request: Request) -> JSONResponse:
        body = await parse_body(request, CrawlRequest)
        planned = await off_loop(store.plan_crawl, body)  # CPU-heavy: keep the loop serving others
        job = store.start_crawl(caller(request), body, planned=planned)
        return ok({"id": job.id, "url": base_url(request) + job.status_path})

    async def crawl_active(request: Request) -> JSONResponse:
        crawls = store.active_crawls(caller(request).team.id)
        return ok({"crawls": [job.active_record() for job in crawls]})

    async def params_preview(request: Request) -> JSONResponse:
        body = await parse_body(request, CrawlParamsPreviewRequest)
        # Reading a 10,000-character prompt takes tens of milliseconds: off the loop.
        return ok({"data": await off_loop(read_prompt, body.url, body.prompt, lane=PAGES)})

    async def status(request: Request, kind: str) -> Response:
        job = paged_job(request, kind)
        page = parse_query(request, StatusPageQuery)
        if request.method == "GET":  # a HEAD (Starlette answers one on every GET route) is no poll
            store.polled(job)  # a job moved on this poll reads moved (`progression`): before `now` is read
        now, base = clock.now(), base_url(request)
        if isinstance(job, BatchJob):
            await store.running_batches.catch_up(job)  # its URLs are scraped (on the loop, in slices) before it is read
        # A page of 1000 documents in every format is megabytes to render: off the loop, in slices.
        body = await off_loop(
            lambda: encode_json(job.status_payload(now, page.skip, page.limit, base), "data"), lane=PAGES
        )
        return json_body_response(body)

    async def errors(request: Request, kind: str) -> Response:
        job = paged_job(request, kind)
        now = clock.now()
        if isinstance(job, BatchJob):
            await store.running_batches.catch_up(job)
        # A batch of 100,000 URLs may list as many errors: written off the loop.
        return json_body_response(await off_loop(lambda: encode_json(job.errors_payload(now), "errors"), lane=PAGES))

    async def cancel(request: Request, kind: str) -> JSONResponse:
        job = paged_job(request, kind)
        store.cancel(job)
        return ok({"status": job.status(clock.now())})

    async def crawl_status(request: Request) -> Response:
        return await status(request, "crawl")

    async def crawl_errors(request: Request) -> Response:
        return await errors(request, "crawl")

    async def crawl_cancel(request: Request) -> JSONResponse:
        return await cancel(request, "crawl")

    # -- batch --------------------------------------------------------------------

    def read_batch(raw: bytes) -> tuple[BatchScrapeRequest, SortedUrls]:
        body = parse_raw_body(raw, BatchScrapeRequest)
        return body, store.sort_batch_urls(body)

    async def batch(request: Request) -> JSONResponse:
        store.check_queue(caller(request).team.id, None)  # a full queue refuses before megabytes are read
        # Decoding, validating and sorting 100,000 URLs take about a second of CPU: off the loop.
        body, urls = await off_loop(read_batch, await request.body())
        job = store.create_batch(caller(request), body, urls=urls)
        payload: dict[str, Any] = {"id": job.id, "url": base_url(request) + job.status_path}
        if body.ignore_invalid_urls is not False:
            payload["invalidURLs"] = job.invalid_urls
        return ok(payload)

    async def batch_status(request: Request) -> Response:
        return await status(request, "batch_scrape")

    async def batch_errors(request: Request) -> Response:
        return await errors(request, "batch_scrape")

    async def batch_cancel(request: Request) -> JSONResponse:
        return await cancel(request, "batch_scrape")

    # -- map and extract ----------------------------------------------------------

    def list_and_encode(body: MapRequest) -> tuple[list[dict[str, str]], bytes]:
        links = store.list_map(body)
        return links, encode_json({"success": True, "links": links}, "links")

    async def map_urls(request: Request) -> Response:
        body = await parse_body(request, MapRequest)
        try:
            # Ranking and encoding 100,000 links take about 0.5 s of CPU: off the loop.
            listed, encoded = await off_loop(list_and_encode, body, lane=PAGES)
        except TimedOut as exc:
            raise ApiError(408, exc.message, "MAP_TIMEOUT") from None
        store.map_site(caller(request), body, links=listed)  # recorded on the loop, where state changes
        return json_body_response(encoded)

    # -- the team's queue (not in the contract; the official SDKs ask for it) -------

    async def concurrency(request: Request) -> JSONResponse:
        return ok(concurrency_check(store.for_team(caller(request).team.id), clock.now()))

    async def queue(request: Request) -> JSONResponse:
        return ok(queue_status(store.for_team(caller(request).team.id), clock.now()))

    async def extract_status(request: Request) -> JSONResponse:
        job = store.owned(job_id_param(request), caller(request).team.id, ("agent",))
        assert isinstance(job, AgentJob)
        return ok(job.status_payload())

    return [
        Route("/v2/scrape", scrape, methods=["POST"]),
        Route("/v2/scrape/{jobId}", scrape_status, methods=["GET"]),
        Route("/v2/crawl", crawl, methods=["POST"]),
        Route("/v2/crawl/active", crawl_active, methods=["GET"]),
        Route("/v2/crawl/params-preview", params_preview, methods=["POST"]),
        Route("/v2/crawl/{jobId}", crawl_status, methods=["GET"]),
        Route("/v2/crawl/{jobId}", crawl_cancel, methods=["DELETE"]),
        Route("/v2/crawl/{jobId}/errors", crawl_errors, methods=["GET"]),
        Route("/v2/batch/scrape", batch, methods=["POST"]),
        Route("/v2/batch/scrape/{jobId}", batch_status, methods=["GET"]),
        Route("/v2/batch/scrape/{jobId}", batch_cancel, methods=["DELETE"]),
        Route("/v2/batch/scrape/{jobId}/errors", batch_errors, methods=["GET"]),
        Route("/v2/map", map_urls, methods=["POST"]),
        Route("/v2/extract/{jobId}", extract_status, methods=["GET"]),
        Route("/v2/concurrency-check", concurrency, methods=["GET"]),
        Route("/v2/team/queue-status", queue, methods=["GET"]),
    ]
