"""Team routes: recent activity and usage history.

`GET /v2/team/activity` and `GET /v2/team/token-usage/historical` are the
contract's; the credit-usage history and the current balances are the real
service's siblings (observed-behaviour.md), served so the dashboard can show
a balance against the emulator too.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.contract.requests import ActivityQuery, TokenUsageQuery
from tui.emulator.core.activity import ActivityLog
from tui.emulator.core.clock import Clock, isoformat_z
from tui.emulator.core.usage import UsageLedger, month_end, month_start
from tui.emulator.http.parsing import caller, ok, parse_query


def routes(activity: ActivityLog, usage: UsageLedger, clock: Clock) -> list[BaseRoute]:
    """The team routes over the activity log and the usage ledger."""

    async def recent_activity(request: Request) -> JSONResponse:
        query = parse_query(request, ActivityQuery)
        page = activity.page(caller(request).team.id, endpoint=query.endpoint, limit=query.limit, cursor=query.cursor)
        return ok({"data": [e.to_wire() for e in page.entries], "cursor": page.next_cursor, "has_more": page.has_more})

    async def token_usage_historical(request: Request) -> JSONResponse:
        query = parse_query(request, TokenUsageQuery)
        return ok({"periods": usage.periods(caller(request).team.id, query.by_api_key)})

    async def credit_usage_historical(request: Request) -> JSONResponse:
        query = parse_query(request, TokenUsageQuery)
        return ok({"periods": usage.periods(caller(request).team.id, query.by_api_key, unit="credits")})

    def balance(request: Request, unit: str) -> JSONResponse:
        team = caller(request).team
        start = month_start(clock.now())
        used = usage.credits_in_month(team.id, start)
        factor = TOKENS_PER_CREDIT if unit == "Tokens" else 1
        return ok(
            {
                "data": {
                    f"remaining{unit}": team.credits_remaining * factor,
                    f"plan{unit}": (team.credits_remaining + used) * factor,
                    "billingPeriodStart": isoformat_z(start),
                    "billingPeriodEnd": isoformat_z(month_end(start)),
                }
            }
        )

    async def token_usage(request: Request) -> JSONResponse:
        return balance(request, "Tokens")

    async def credit_usage(request: Request) -> JSONResponse:
        return balance(request, "Credits")

    return [
        Route("/v2/team/activity", recent_activity, methods=["GET"]),
        Route("/v2/team/token-usage/historical", token_usage_historical, methods=["GET"]),
        Route("/v2/team/credit-usage/historical", credit_usage_historical, methods=["GET"]),
        Route("/v2/team/token-usage", token_usage, methods=["GET"]),
        Route("/v2/team/credit-usage", credit_usage, methods=["GET"]),
    ]
