"""What the rules are fed: typed observations the dashboard's polls and `wds-tui watch` make.

Field names follow the contract's models (`tui.contract.models`) where one exists,
so a poll's answer reads into an observation without renaming. Every observation
carries `at`, when it was seen: the rules count windows in that time, and the
engine's clock only decides what is old.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tui.contract.models import CreditBalance, QueueStatus
from tui.contract.models.common import FINISHED_STATES, Timestamp

FAILED = "failed"


class Observed(BaseModel):
    """Base of every observation: immutable, unknown fields refused, `at` when it was seen."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    at: Timestamp


class JobObserved(Observed):
    """A job's state as a poll saw it: `kind` (scrape, crawl, batch, extract, ...), its id and host."""

    kind: str
    id: str
    host: str | None = None
    state: str | None = None
    http_status: int | None = None
    error: str | None = None

    @property
    def failed(self) -> bool:
        """As `JobSummary.failed`: the job failed, or its page answered an error status."""
        return self.state == FAILED or (self.http_status is not None and self.http_status >= 400)


class CrawlProgress(Observed):
    """A crawl's progress (`CrawlStatus`'s `status`, `completed`, `total`) under its id."""

    id: str
    status: str
    completed: int = Field(0, ge=0)
    total: int = Field(0, ge=0)

    @property
    def finished(self) -> bool:
        """Whether the crawl will not change any more."""
        return self.status in FINISHED_STATES


class BatchFinished(Observed):
    """A batch scrape that finished: how many of its `total` pages `failed`."""

    id: str
    total: int = Field(ge=0)
    failed: int = Field(ge=0)

    @property
    def failed_percent(self) -> float:
        """Share of the batch that failed, 0 to 100 (0 for an empty batch)."""
        return 100.0 * self.failed / self.total if self.total else 0.0


class SessionSeen(Observed):
    """A browser session as the sessions list showed it (`BrowserSession`'s `id`, `status`, `expires_at`)."""

    id: str
    status: str = "active"
    expires_at: Timestamp | None = None


class CreditReading(Observed):
    """The team's credits (`CreditBalance`'s fields): what remains of the plan in this billing period."""

    remaining_credits: float
    plan_credits: float | None = None
    billing_period_start: Timestamp | None = None
    billing_period_end: Timestamp | None = None

    @classmethod
    def from_balance(cls, balance: CreditBalance, at: datetime) -> CreditReading:
        """The reading a credit-usage poll made at `at`."""
        return cls(
            at=at,
            remaining_credits=balance.remaining_credits,
            plan_credits=balance.plan_credits,
            billing_period_start=balance.billing_period_start,
            billing_period_end=balance.billing_period_end,
        )


class UsageHourly(Observed):
    """Credits used in one hour (starting at `hour`), for the team or one API key."""

    hour: Timestamp
    credits: float = Field(ge=0)
    api_key: str | None = None


class QueueReading(Observed):
    """The team's queue (`QueueStatus`'s fields): busy workers, waiting jobs, how many workers there are."""

    active_jobs_in_queue: int = Field(0, ge=0)
    waiting_jobs_in_queue: int = Field(0, ge=0)
    max_concurrency: int | None = None

    @classmethod
    def from_status(cls, status: QueueStatus, at: datetime) -> QueueReading:
        """The reading a queue-status poll made at `at`."""
        return cls(
            at=at,
            active_jobs_in_queue=status.active_jobs_in_queue,
            waiting_jobs_in_queue=status.waiting_jobs_in_queue,
            max_concurrency=status.max_concurrency,
        )

    @property
    def saturated(self) -> bool:
        """As `QueueStatus.saturated`: every worker busy and jobs waiting."""
        if self.max_concurrency is None:
            return False
        return self.active_jobs_in_queue >= self.max_concurrency and self.waiting_jobs_in_queue > 0


class ServiceHealth(Observed):
    """Whether the last call reached the service: `ok`, `unreachable` (no answer) or `refused` (key refused)."""

    state: Literal["ok", "unreachable", "refused"]
    detail: str | None = None


class WebhookDelivery(Observed):
    """A webhook event that arrived, and whether its signature checked out."""

    verified: bool
    type: str | None = None
    webhook_id: str | None = None


Observation = (
    JobObserved
    | CrawlProgress
    | BatchFinished
    | SessionSeen
    | CreditReading
    | UsageHourly
    | QueueReading
    | ServiceHealth
    | WebhookDelivery
)
"""Anything the engine can be fed."""
