"""`client.team`: token usage history and recent activity."""

from __future__ import annotations

from tui.api.pagination import AsyncCursorPager
from tui.api.resources._base import Resource, build_request
from tui.contract.limits import ACTIVITY_LIMIT_MAX
from tui.contract.models.team import ActivityEntry, ActivityPage, TokenUsageHistory
from tui.contract.requests import ActivityEndpoint, ActivityQuery, TokenUsageQuery


class TeamResource(Resource):
    """Usage and activity of the team that owns the API key."""

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
