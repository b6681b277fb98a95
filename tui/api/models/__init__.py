"""Response models, one module per resource. Tolerant by design: see `common.py`."""

from tui.api.limits import TOKENS_PER_CREDIT
from tui.api.models.batch import BatchScrapeStarted, BatchScrapeStatus
from tui.api.models.browser import (
    BrowserSession,
    BrowserSessionCreated,
    BrowserSessionDeleted,
    BrowserSessionList,
    ExecuteResult,
    SessionStatus,
    StopOutcome,
)
from tui.api.models.common import Document, DocumentMetadata, JobState, JobStatus, Timestamp, WdsModel
from tui.api.models.crawl import (
    ActiveCrawl,
    ActiveCrawlList,
    ActiveCrawlOptions,
    CrawlParams,
    CrawlParamsPreview,
    CrawlStarted,
    CrawlStatus,
    ProfileEcho,
    ScrapeOptionsEcho,
)
from tui.api.models.extract import ExtractStatus
from tui.api.models.map import MapLink, MapResult
from tui.api.models.scrape import InteractionStopped, InteractResult, ScrapeResult
from tui.api.models.support import (
    AgentFeedback,
    Confidence,
    DocsSearchAnswer,
    Evidence,
    FixValidation,
    SupportAnswer,
    SupportAskPartial,
    TokenCounts,
    ValidationOutcome,
)
from tui.api.models.team import ActivityEntry, ActivityPage, TokenUsageHistory, TokenUsagePeriod
from tui.api.models.webhook import CrawlStartedEvent, WebhookEvent

__all__ = [
    "TOKENS_PER_CREDIT",
    "ActiveCrawl",
    "ActiveCrawlList",
    "ActiveCrawlOptions",
    "ActivityEntry",
    "ActivityPage",
    "AgentFeedback",
    "BatchScrapeStarted",
    "BatchScrapeStatus",
    "BrowserSession",
    "BrowserSessionCreated",
    "BrowserSessionDeleted",
    "BrowserSessionList",
    "Confidence",
    "CrawlParams",
    "CrawlParamsPreview",
    "CrawlStarted",
    "CrawlStartedEvent",
    "CrawlStatus",
    "DocsSearchAnswer",
    "Document",
    "DocumentMetadata",
    "Evidence",
    "ExecuteResult",
    "ExtractStatus",
    "FixValidation",
    "InteractResult",
    "InteractionStopped",
    "JobState",
    "JobStatus",
    "MapLink",
    "MapResult",
    "ProfileEcho",
    "ScrapeOptionsEcho",
    "ScrapeResult",
    "SessionStatus",
    "StopOutcome",
    "SupportAnswer",
    "SupportAskPartial",
    "Timestamp",
    "TokenCounts",
    "TokenUsageHistory",
    "TokenUsagePeriod",
    "ValidationOutcome",
    "WdsModel",
    "WebhookEvent",
]
