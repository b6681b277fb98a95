"""The crawl WebSocket's messages (`ws {base}/v2/crawl/{id}`), as the service and the SDKs' watchers speak them.

Not in the contract's tables: the shapes are the service's own crawl status
socket. A watcher first gets a `catchup` with the crawl's status and every
document so far, then a `document` per page scraped after it. The end is not a
message but a close: 1000 with the reason `{"type": "done"}`; a refusal is a
close whose reason is `{"type": "error", "error": ...}` (`REFUSAL_STATUS`).
"""

from __future__ import annotations

from typing import Literal

from tui.contract.models.common import Document, WdsModel
from tui.contract.models.crawl import CrawlStatus

DONE_CODE = 1000
"""The close code of a crawl that ended (completed, failed or cancelled)."""

REFUSAL_STATUS: dict[int, int] = {3000: 401, 3003: 403, 1008: 404, 1011: 500}
"""Refusing close codes, with the HTTP status the same refusal has on `GET /v2/crawl/{id}`.

3000: a missing or unknown key; 3003: another team's crawl; 1008: an unknown
or expired crawl, or an id that is not one; 1011: an unexpected error.
"""


class CrawlCatchup(WdsModel):
    """`{"type": "catchup", "data": <status>}`: the first message, with every document scraped so far."""

    type: Literal["catchup"]
    data: CrawlStatus


class CrawlDocumentPushed(WdsModel):
    """`{"type": "document", "data": <Document>}`: one more page scraped (pages that failed send none)."""

    type: Literal["document"]
    data: Document


class CrawlSocketError(WdsModel):
    """`{"type": "error", "error": ...}`: a refusal, as a message or as the reason of a close."""

    type: Literal["error"]
    error: str | None = None
