"""`tui.api`: the typed async client of the web-data service.

    from tui.api import WdsClient, NotFoundError

    async with WdsClient(base_url, api_key) as client:
        sessions = await client.browser.list(status="active")

Names are loaded on first use, so `tui.api.webhooks` and `tui.api.errors` can
be imported (by a webhook receiver) without loading httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tui.api import errors as _errors

_MODULE_OF: dict[str, str] = {
    "WdsClient": "tui.api.client",
    "DEFAULT_TIMEOUT": "tui.api.client",
    "AsyncCursorPager": "tui.api.pagination",
    "CursorPage": "tui.contract.models.page",
    "RetryPolicy": "tui.api.retries",
    "parse_event": "tui.api.webhooks",
    "verify_signature": "tui.api.webhooks",
    "sign": "tui.contract.webhook_signature",
    "SIGNATURE_HEADER": "tui.contract.webhook_signature",
    "CrawlWatch": "tui.api.crawl_watch",
}
_SOCKET_ERRORS = (
    "SocketDroppedError",
    "SocketError",
    "SocketMessageError",
    "SocketNotOfferedError",
    "SocketRefusedError",
)
_MODULE_OF.update(dict.fromkeys(_SOCKET_ERRORS, "tui.api.socket_errors"))
_MODELS = (
    "ActiveCrawl",
    "ActiveCrawlList",
    "ActivityEntry",
    "ActivityPage",
    "BatchScrapeStarted",
    "BatchScrapeStatus",
    "BrowserSession",
    "BrowserSessionCreated",
    "BrowserSessionDeleted",
    "BrowserSessionList",
    "CrawlParams",
    "CrawlParamsPreview",
    "CrawlStarted",
    "CrawlStartedEvent",
    "CrawlStatus",
    "DocsSearchAnswer",
    "Document",
    "ExecuteResult",
    "ExtractStatus",
    "InteractResult",
    "InteractionStopped",
    "JobState",
    "MapLink",
    "MapLinks",
    "MapResult",
    "ScrapeResult",
    "SessionStatus",
    "SupportAnswer",
    "SupportAskPartial",
    "TokenUsageHistory",
    "TokenUsagePeriod",
    "WebhookEvent",
)
_MODULE_OF.update(dict.fromkeys(_MODELS, "tui.contract.models"))

__all__ = sorted([*_MODULE_OF, *_errors.__all__])


def __getattr__(name: str) -> Any:
    if name in _errors.__all__:
        return getattr(_errors, name)
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'tui.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # what type checkers and IDEs see
    from tui.api.client import DEFAULT_TIMEOUT, WdsClient  # noqa: F401
    from tui.api.crawl_watch import CrawlWatch  # noqa: F401
    from tui.api.errors import *  # noqa: F403
    from tui.api.pagination import AsyncCursorPager  # noqa: F401
    from tui.api.retries import RetryPolicy  # noqa: F401
    from tui.api.socket_errors import *  # noqa: F403
    from tui.api.webhooks import SIGNATURE_HEADER, parse_event, sign, verify_signature  # noqa: F401
    from tui.contract.models import *  # noqa: F403
    from tui.contract.models.page import CursorPage  # noqa: F401
