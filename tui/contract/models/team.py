"""Team usage, activity and capacity.

The contract's `GET /v2/team/token-usage/historical` and `GET /v2/team/activity`;
and the real service's calls the official SDKs make beside them (not in the
contract, observed-behaviour.md): the queue (`GET /v2/team/queue-status`), the
workers (`GET /v2/concurrency-check`) and the balance (`GET /v2/team/credit-usage`).
"""

from __future__ import annotations

from pydantic import AliasChoices, Field

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.contract.models.common import Timestamp, WdsModel
from tui.contract.models.page import CursorPage


class TokenUsagePeriod(WdsModel):
    """Token usage of one month (of one API key when broken down by key).

    `total_tokens` is read from the contract's `totalTokens` or from the real
    service's `tokensUsed` (drift).
    """

    start_date: Timestamp
    end_date: Timestamp
    api_key: str | None = None
    total_tokens: int = Field(validation_alias=AliasChoices("totalTokens", "tokensUsed", "total_tokens", "tokens_used"))

    @property
    def credits(self) -> float:
        """The same usage in credits."""
        return self.total_tokens / TOKENS_PER_CREDIT


class TokenUsageHistory(WdsModel):
    """Month-by-month token usage of the team."""

    success: bool = True
    periods: list[TokenUsagePeriod]  # always sent: a missing list is a broken answer, not an empty one


class ActivityEntry(WdsModel):
    """One recorded API call of the last 24 hours.

    `endpoint` is the kind of call (`scrape`, `crawl`, ...; see
    `tui.contract.requests.ACTIVITY_ENDPOINTS`), kept as a string so that kinds
    added by the service later still show.
    """

    id: str
    endpoint: str
    api_version: str | None = None
    created_at: Timestamp
    target: str | None = None


class ActivityPage(CursorPage[ActivityEntry]):
    """A page of activity: `entries` (wire: `data`), `cursor`, `has_more`."""


class QueueStatus(WdsModel):
    """The team's queue now (`GET /v2/team/queue-status`): jobs being worked on, jobs waiting, the last success.

    `max_concurrency` is how many the team may run at once; `most_recent_success`
    when a job of the team last succeeded (None: none yet).
    """

    success: bool = True
    jobs_in_queue: int = 0
    active_jobs_in_queue: int = 0
    waiting_jobs_in_queue: int = 0
    max_concurrency: int | None = None
    most_recent_success: Timestamp | None = None

    @property
    def saturated(self) -> bool:
        """Every worker busy and jobs waiting: new work queues up behind them."""
        if self.max_concurrency is None:
            return False
        return self.active_jobs_in_queue >= self.max_concurrency and self.waiting_jobs_in_queue > 0


class ConcurrencyCheck(WdsModel):
    """The team's workers (`GET /v2/concurrency-check`): busy now, and how many it has."""

    success: bool = True
    concurrency: int
    max_concurrency: int | None = None


class CreditBalance(WdsModel):
    """What is left of this billing period's credits (the `data` of `GET /v2/team/credit-usage`)."""

    remaining_credits: float
    plan_credits: float | None = None
    billing_period_start: Timestamp | None = None
    billing_period_end: Timestamp | None = None

    @property
    def share_left(self) -> float | None:
        """Remaining credits as a share of the plan's, 0.0 to 1.0; None when the plan is not said."""
        if not self.plan_credits or self.plan_credits <= 0:
            return None
        return max(0.0, min(1.0, self.remaining_credits / self.plan_credits))


class CreditUsage(WdsModel):
    """The answer of `GET /v2/team/credit-usage`: `{success, data: CreditBalance}`."""

    success: bool = True
    data: CreditBalance
