"""Response models, one module per resource. Tolerant by design: see `common.py`."""

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.contract.models.batch import BatchScrapeStarted, BatchScrapeStatus
from tui.contract.models.browser import (
    BrowserSession,
    BrowserSessionCreated,
    BrowserSessionDeleted,
    BrowserSessionList,
    ExecuteResult,
    SessionStatus,
    StopOutcome,
)
from tui.contract.models.common import Document, DocumentMetadata, JobState, JobStatus, Timestamp, WdsModel
from tui.contract.models.crawl import (
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
from tui.contract.models.extract import ExtractStatus
from tui.contract.models.map import MapLink, MapLinks, MapResult
from tui.contract.models.scrape import InteractionStopped, InteractResult, ScrapeResult
from tui.contract.models.support import (
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
from tui.contract.models.team import (
    ActivityEntry,
    ActivityPage,
    ConcurrencyCheck,
    CreditBalance,
    CreditUsage,
    QueueStatus,
    TokenUsageHistory,
    TokenUsagePeriod,
)
from tui.contract.models.webhook import CrawlStartedEvent, WebhookEvent

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
    "ConcurrencyCheck",
    "Confidence",
    "CrawlParams",
    "CrawlParamsPreview",
    "CrawlStarted",
    "CrawlStartedEvent",
    "CrawlStatus",
    "CreditBalance",
    "CreditUsage",
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
    "MapLinks",
    "MapResult",
    "ProfileEcho",
    "QueueStatus",
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
