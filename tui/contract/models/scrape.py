"""Scrape jobs and the browser bound to them (`/v2/scrape...`)."""

from __future__ import annotations

from pydantic import Field

from tui.contract.models.common import Document, WdsModel


class ScrapeResult(WdsModel):
    """A scraped page (`POST /v2/scrape`, `GET /v2/scrape/{id}`).

    The scrape job's id, needed for interact, is `job_id`
    (wire: `data.metadata.scrapeId`).
    """

    success: bool = True
    data: Document | None = None

    @property
    def job_id(self) -> str | None:
        """The scrape job's id, or None when the server did not say."""
        return self.data.metadata.scrape_id if self.data is not None else None


class InteractResult(WdsModel):
    """What running code or a prompt in a scrape's browser produced.

    `output` is the AI agent's final answer (prompt only); `result` is the
    last expression's value (code) or the final page snapshot (prompt).
    """

    success: bool = True
    session_id: str | None = None
    cdp_url: str | None = Field(None, repr=False)
    live_view_url: str | None = None
    interactive_live_view_url: str | None = None
    output: str | None = None
    stdout: str | None = None
    result: str | None = None
    stderr: str | None = None
    exit_code: float | None = None
    killed: bool = False
    error: str | None = None

    @property
    def failed(self) -> bool:
        """True when the code raised, exited non-zero or was killed by the timeout."""
        return self.error is not None or self.killed or self.exit_code not in (None, 0)


class InteractionStopped(WdsModel):
    """The answer to `DELETE /v2/scrape/{id}/interact`."""

    success: bool = True
    session_duration_ms: int | None = None
    credits_billed: float | None = None
