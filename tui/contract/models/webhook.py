"""Webhook events the service POSTs to a receiver."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tui.contract.models.common import WdsModel


class WebhookEvent(WdsModel):
    """Any webhook event (`crawl.page`, `batch_scrape.completed`, ...), fields kept as sent.

    `webhook_id` is the same on every retry of a delivery: deduplicate on it.
    """

    success: bool = True
    type: str
    id: str
    webhook_id: str
    data: Any = Field(default_factory=list)
    error: str | None = None
    metadata: dict[str, Any] | None = None


class CrawlStartedEvent(WebhookEvent):
    """`crawl.started`: a crawl began; `id` is the crawl's job id, `data` is empty."""

    type: Literal["crawl.started"]
    data: list[Any] = Field(default_factory=list)
