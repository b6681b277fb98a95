"""`client.team`: token usage history, recent activity, and the team's capacity now (queue, workers, credits)."""

from __future__ import annotations

from tui.api.pagination import AsyncCursorPager
from tui.api.resources._base import Resource, build_request
from tui.contract.limits import ACTIVITY_LIMIT_MAX
from tui.contract.models.team import (
    ActivityEntry,
    ActivityPage,
    ConcurrencyCheck,
    CreditBalance,
    CreditUsage,
    QueueStatus,
    TokenUsageHistory,
)
from tui.contract.requests import ActivityEndpoint, ActivityQuery, TokenUsageQuery


class TeamResource(Resource):
    """Usage, activity and capacity of the team that owns the API key."""

    async def token_usage_historical(
        self, by_api_key: bool | None = None, *, request: TokenUsageQuery | None = None
    ) -> TokenUsageHistory:
        """Month-by-month token usage (`GET /v2/team/token-usage/historical`).

        `by_api_key=True` breaks each month down per API key.
        """
        query = build_request(TokenUsageQuery, request, by_api_key=by_api_key)
        return await self._client.request(
            "GET", "/v2/team/token-usage/historical", TokenUsageHistory, params=query.to_wire()
        )

    async def activity(
        self,
        endpoint: ActivityEndpoint | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        *,
        request: ActivityQuery | None = None,
    ) -> ActivityPage:
        """One page of the last 24 hours of API calls (`GET /v2/team/activity`).

        `limit` is 1 to 100 (the server's default is 50); pass the previous
        page's `cursor` for the next one, while `has_more` is true.
        """
        query = build_request(ActivityQuery, request, endpoint=endpoint, limit=limit, cursor=cursor)
        return await self._client.request("GET", "/v2/team/activity", ActivityPage, params=query.to_wire())

    def iter_activity(
        self, endpoint: ActivityEndpoint | None = None, page_size: int = ACTIVITY_LIMIT_MAX
    ) -> AsyncCursorPager[ActivityEntry]:
        """Every activity entry of the last 24 hours, page after page.

        `async for entry in client.team.iter_activity(): ...`; `.pages()` walks
        pages instead. The arguments are checked now, before the first page.
        """
        first = build_request(ActivityQuery, None, endpoint=endpoint, limit=page_size)

        async def fetch(cursor: str | None) -> ActivityPage:
            return await self.activity(endpoint=first.endpoint, limit=first.limit, cursor=cursor)

        return AsyncCursorPager(fetch)

    # The three calls below are the real service's, not the contract's (the official SDKs
    # make them): a service without them answers 404, 405 or 501, which callers tell apart.

    async def queue_status(self) -> QueueStatus:
        """The team's queue now: active and waiting jobs, its concurrency, the last success (`GET /v2/team/queue-status`)."""
        return await self._client.request("GET", "/v2/team/queue-status", QueueStatus)

    async def concurrency_check(self) -> ConcurrencyCheck:
        """The team's workers busy now, and how many it has (`GET /v2/concurrency-check`)."""
        return await self._client.request("GET", "/v2/concurrency-check", ConcurrencyCheck)

    async def credit_usage(self) -> CreditBalance:
        """Credits left this billing period, of the plan's (`GET /v2/team/credit-usage`, its `data`)."""
        return (await self._client.request("GET", "/v2/team/credit-usage", CreditUsage)).data
