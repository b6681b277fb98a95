"""`client.scrape`: single scrapes and the browser bound to a scrape job."""

from __future__ import annotations

from typing import Unpack

from tui.api.body_reader import DOCUMENTS_ANSWER_MAX_BYTES as DOCUMENTS
from tui.api.resources._base import READ_MARGIN, Resource, build_request, job_id_segment
from tui.api.resources.options import ScrapeOptionsArgs
from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, INTERACT_TIMEOUT_DEFAULT
from tui.contract.models.scrape import InteractionStopped, InteractResult, ScrapeResult
from tui.contract.requests import InteractRequest, Language, ScrapeRequest


def scrape_read_timeout(timeout_ms: int | None, wait_for_ms: int | None = None) -> float:
    """Seconds to wait for a scrape's answer: its own timeout and wait, plus a margin."""
    return ((timeout_ms or BATCH_TIMEOUT_DEFAULT) + (wait_for_ms or 0)) / 1000 + READ_MARGIN


class ScrapeResource(Resource):
    """Scrape one page, fetch a scrape job, and drive the browser it left behind."""

    async def create(
        self, url: str | None = None, *, request: ScrapeRequest | None = None, **options: Unpack[ScrapeOptionsArgs]
    ) -> ScrapeResult:
        """Scrape `url` now (`POST /v2/scrape`).

        `options` are the scrape options of the contract in Python or wire
        spelling (`only_main_content=True`, `formats=["markdown", "links"]`,
        `timeout=30000` ms, ...); an unknown option raises TypeError. The job
        id for `interact` is `result.job_id`.
        """
        body = build_request(ScrapeRequest, request, url=url, **options)
        return await self._client.request(
            "POST",
            "/v2/scrape",
            ScrapeResult,
            json=body.to_wire(),
            read_timeout=scrape_read_timeout(body.timeout, body.wait_for),
            max_bytes=DOCUMENTS,
        )

    async def get(self, job_id: str) -> ScrapeResult:
        """A finished scrape job's document (`GET /v2/scrape/{id}`)."""
        path = f"/v2/scrape/{job_id_segment(job_id)}"
        return await self._client.request("GET", path, ScrapeResult, max_bytes=DOCUMENTS)

    async def interact(
        self,
        job_id: str,
        code: str | None = None,
        prompt: str | None = None,
        language: Language | None = None,
        timeout: float | None = None,
        origin: str | None = None,
        *,
        request: InteractRequest | None = None,
    ) -> InteractResult:
        """Run `code` or a `prompt` (exactly one) in the scrape's browser (`POST /v2/scrape/{id}/interact`).

        Continues from the page state the scrape left; later calls on the same
        job reuse the session. `timeout` 1-300 s (default 30). Statuses: 402
        credits, 403 another team's job, 404 no such job, 409 replay context
        gone, 410 session destroyed, 429 too many sessions, 502 browser or
        agent failed, 503 no browser feature. Never retried except on 429.
        """
        path = f"/v2/scrape/{job_id_segment(job_id)}/interact"
        body = build_request(
            InteractRequest, request, code=code, prompt=prompt, language=language, timeout=timeout, origin=origin
        )
        budget = (body.timeout or INTERACT_TIMEOUT_DEFAULT) + READ_MARGIN
        return await self._client.request(
            "POST", path, InteractResult, json=body.to_wire(), read_timeout=budget, max_bytes=DOCUMENTS
        )

    async def stop_interaction(self, job_id: str) -> InteractionStopped:
        """Stop the browser bound to a scrape job (`DELETE /v2/scrape/{id}/interact`)."""
        path = f"/v2/scrape/{job_id_segment(job_id)}/interact"
        return await self._client.request("DELETE", path, InteractionStopped)
