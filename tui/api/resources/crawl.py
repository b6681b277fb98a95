"""`client.crawl`: crawl parameter preview, active crawls, start, status, live status and cancel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from tui.api.body_reader import DOCUMENTS_ANSWER_MAX_BYTES as DOCUMENTS
from tui.api.resources._base import Resource, build_request, job_id_segment, page_params
from tui.api.resources.options import CrawlArgs
from tui.contract.models.crawl import ActiveCrawlList, CrawlCancelled, CrawlParamsPreview, CrawlStarted, CrawlStatus
from tui.contract.requests import CrawlParamsPreviewRequest, CrawlRequest

if TYPE_CHECKING:
    from tui.api.crawl_watch import CrawlWatch

PREVIEW_READ_TIMEOUT = 60.0
"""The preview asks an LLM; give it longer than an ordinary call."""


class CrawlResource(Resource):
    """Plan, start and follow crawls of whole sites."""

    async def params_preview(
        self, url: str | None = None, prompt: str | None = None, *, request: CrawlParamsPreviewRequest | None = None
    ) -> CrawlParamsPreview:
        """Crawl parameters derived from a natural-language `prompt` (`POST /v2/crawl/params-preview`)."""
        body = build_request(CrawlParamsPreviewRequest, request, url=url, prompt=prompt)
        return await self._client.request(
            "POST",
            "/v2/crawl/params-preview",
            CrawlParamsPreview,
            json=body.to_wire(),
            read_timeout=PREVIEW_READ_TIMEOUT,
        )

    async def active(self) -> ActiveCrawlList:
        """The team's running crawls (`GET /v2/crawl/active`)."""
        return await self._client.request("GET", "/v2/crawl/active", ActiveCrawlList)

    async def start(
        self, url: str | None = None, *, request: CrawlRequest | None = None, **options: Unpack[CrawlArgs]
    ) -> CrawlStarted:
        """Start crawling the site at `url` (`POST /v2/crawl`).

        `options` are the crawl options (`limit`, `max_depth`, `include_paths`,
        `webhook`, `scrape_options`, ...) in Python or wire spelling. The
        returned `id` is also the `id` of the crawl's webhook events.
        """
        body = build_request(CrawlRequest, request, url=url, **options)
        return await self._client.request("POST", "/v2/crawl", CrawlStarted, json=body.to_wire())

    async def get(self, job_id: str, skip: int | None = None, limit: int | None = None) -> CrawlStatus:
        """Status, progress and documents of a crawl (`GET /v2/crawl/{id}`), paged by `skip`/`limit`."""
        path = f"/v2/crawl/{job_id_segment(job_id)}"
        return await self._client.request(
            "GET", path, CrawlStatus, params=page_params(skip, limit), max_bytes=DOCUMENTS
        )

    def watch(self, job_id: str, *, keep_documents: int | None = None) -> CrawlWatch:
        """Follow a crawl live over the service's WebSocket (`ws {base}/v2/crawl/{id}`); see `CrawlWatch`.

        `async with client.crawl.watch(id) as updates: async for status in updates: ...`
        yields `CrawlStatus` as the service pushes it, the last one final. Where the
        service offers no socket it raises `SocketNotOfferedError`: poll `get` instead.
        `keep_documents`: how many documents each status lists (default: a status page's 100).
        """
        from tui.api.crawl_watch import KEEP_DOCUMENTS, CrawlWatch  # websockets is loaded by the first watch only

        keep_documents = KEEP_DOCUMENTS if keep_documents is None else keep_documents
        segment = job_id_segment(job_id)
        size = max(keep_documents, 1)
        return CrawlWatch(self._client, segment, lambda: self.get(segment, limit=size), keep_documents=keep_documents)

    async def cancel(self, job_id: str) -> CrawlCancelled:
        """Stop a running crawl (`DELETE /v2/crawl/{id}`); the pages scraped so far stay.

        Not in the contract's tables, so a service may not have it: expect a
        `NotFoundError` (no such crawl, or no such route) or an `APIStatusError`
        with status 405 (the method is not allowed there). Never retried: the
        client retries GETs only.
        """
        path = f"/v2/crawl/{job_id_segment(job_id)}"
        return await self._client.request("DELETE", path, CrawlCancelled)
