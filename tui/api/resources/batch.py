"""`client.batch`: batch scrape jobs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from tui.api.body_reader import DOCUMENTS_ANSWER_MAX_BYTES as DOCUMENTS
from tui.api.resources._base import Resource, build_request, job_id_segment, page_params
from tui.api.resources.options import BatchScrapeArgs
from tui.contract.models.batch import BatchScrapeStarted, BatchScrapeStatus
from tui.contract.requests import BatchScrapeRequest


class BatchResource(Resource):
    """Start a batch scrape of many URLs and follow it."""

    async def create(
        self,
        urls: Sequence[str] | None = None,
        *,
        request: BatchScrapeRequest | None = None,
        **options: Unpack[BatchScrapeArgs],
    ) -> BatchScrapeStarted:
        """Start scraping `urls` (`POST /v2/batch/scrape`).

        `options`: `webhook` (URL or config), `max_concurrency`,
        `ignore_invalid_urls` and every scrape option (`formats`, `timeout`
        1000-300000 ms, `proxy`, ...), in Python or wire spelling. Invalid URLs
        are dropped and listed in `invalid_urls` unless `ignore_invalid_urls`
        is false.
        """
        body = build_request(BatchScrapeRequest, request, urls=list(urls) if urls is not None else None, **options)
        return await self._client.request("POST", "/v2/batch/scrape", BatchScrapeStarted, json=body.to_wire())

    async def get(self, job_id: str, skip: int | None = None, limit: int | None = None) -> BatchScrapeStatus:
        """Status, progress and documents of a batch (`GET /v2/batch/scrape/{id}`), paged by `skip`/`limit`."""
        path = f"/v2/batch/scrape/{job_id_segment(job_id)}"
        return await self._client.request(
            "GET", path, BatchScrapeStatus, params=page_params(skip, limit), max_bytes=DOCUMENTS
        )
