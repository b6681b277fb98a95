"""What a poller hands its answers to: the part of `tui.monitor.hub.Monitor` that polls feed.

A Protocol rather than the class: the poller depends on these calls only, and its
tests feed a recorder instead of a whole monitor.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal, Protocol

from tui.contract.models import BrowserSession, CreditBalance, QueueStatus, TokenUsageHistory
from tui.contract.models.batch import BatchScrapeStatus
from tui.contract.models.crawl import CrawlStatus
from tui.contract.models.job_summary import JobSummary
from tui.contract.models.team import ActivityEntry

Health = Literal["ok", "unreachable", "refused"]


class MonitorFeed(Protocol):
    """The calls a poll makes; each is synchronous and never blocks (see `Monitor`)."""

    def saw_activity(self, entries: Iterable[ActivityEntry]) -> None: ...

    def saw_job(
        self,
        kind: str,
        job_id: str,
        summary: JobSummary,
        *,
        target: str | None = None,
        created_at: datetime | None = None,
    ) -> None: ...

    def saw_crawl(
        self, kind: Literal["crawl", "batch"], job_id: str, status: CrawlStatus | BatchScrapeStatus
    ) -> None: ...

    def saw_credits(self, balance: CreditBalance) -> None: ...

    def saw_queue(self, status: QueueStatus) -> None: ...

    def saw_token_usage(self, history: TokenUsageHistory) -> None: ...

    def saw_sessions(self, sessions: Iterable[BrowserSession]) -> None: ...

    def saw_health(self, state: Health, detail: str | None = None) -> None: ...

    def tick(self) -> object: ...
