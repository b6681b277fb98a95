"""Token usage periods carry `totalTokens` (the contract) and `tokensUsed` (the real service's SDKs).

A client written against either name must read the same figure, so the
emulator sends both; checked over raw HTTP, as an SDK sees the wire.
"""

from __future__ import annotations

from typing import Any

from tests.contract.service import SITE, Service
from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2
from tui.contract.models import TokenUsageHistory


def assert_both_names(periods: list[dict[str, Any]]) -> None:
    assert periods, "some usage was recorded"
    for period in periods:
        assert isinstance(period["totalTokens"], int) and not isinstance(period["totalTokens"], bool)
        assert period["tokensUsed"] == period["totalTokens"], period


async def test_historical_token_usage_sends_tokens_used_and_total_tokens(service: Service) -> None:
    await service.client(ALPHA_KEY).scrape.create(f"{SITE}/about")  # 1 credit
    await service.client(ALPHA_KEY_2).map(SITE, limit=5)  # 1 credit
    response = await service.raw("GET", "/v2/team/token-usage/historical")
    assert response.status_code == 200
    [june] = response.json()["periods"]
    assert_both_names([june])
    assert june["tokensUsed"] == 30  # 2 credits x 15

    by_key = await service.raw("GET", "/v2/team/token-usage/historical", params={"byApiKey": "true"})
    assert by_key.status_code == 200
    periods = by_key.json()["periods"]
    assert_both_names(periods)
    assert sorted(p["tokensUsed"] for p in periods) == [15, 15]


async def test_a_client_reading_only_tokens_used_gets_the_contract_figure(service: Service) -> None:
    """What an SDK written against the real service does: read `tokensUsed` and nothing else."""
    await service.client(ALPHA_KEY).scrape.create(f"{SITE}/about")
    wire = (await service.raw("GET", "/v2/team/token-usage/historical")).json()
    sdk_view = [{k: v for k, v in p.items() if k != "totalTokens"} for p in wire["periods"]]
    contract_view = [{k: v for k, v in p.items() if k != "tokensUsed"} for p in wire["periods"]]
    for view in (sdk_view, contract_view):
        history = TokenUsageHistory.model_validate({"success": True, "periods": view})
        assert [p.total_tokens for p in history.periods] == [15]


async def test_credit_usage_history_keeps_its_own_field(service: Service) -> None:
    """The sibling credit endpoint reports credits, not tokens: no token alias leaks into it."""
    await service.client(ALPHA_KEY).scrape.create(f"{SITE}/about")
    response = await service.raw("GET", "/v2/team/credit-usage/historical")
    assert response.status_code == 200
    [period] = response.json()["periods"]
    assert period["creditsUsed"] == 1 and "tokensUsed" not in period and "totalTokens" not in period
