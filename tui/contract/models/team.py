"""Team usage and activity: `GET /v2/team/token-usage/historical`, `GET /v2/team/activity`."""

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
