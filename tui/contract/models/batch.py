"""Batch scrape jobs (`/v2/batch/scrape...`)."""

from __future__ import annotations

from pydantic import Field

from tui.contract.models.common import JobStatus, WdsModel


class BatchScrapeStarted(WdsModel):
    """The answer to `POST /v2/batch/scrape`.

    `url` is where the batch's status can be fetched; `invalid_urls` lists the
    URLs the server dropped (None when `ignoreInvalidURLs` was false).
    """

    success: bool = True
    id: str
    url: str | None = None
    invalid_urls: list[str] | None = Field(None, alias="invalidURLs")


class BatchScrapeStatus(JobStatus):
    """Status, progress and one page of documents of a batch scrape."""
