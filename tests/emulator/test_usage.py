"""Historical token usage: months derived from recorded credits, per key when asked."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.core.usage import UsageLedger, month_end, month_start
from tui.emulator.service import Emulator


def test_month_bounds_are_first_and_last_instants() -> None:
    assert month_start(datetime(2024, 2, 29, 23, 59, tzinfo=UTC)) == datetime(2024, 2, 1, tzinfo=UTC)
    assert month_end(datetime(2024, 2, 1, tzinfo=UTC)) == datetime(2024, 2, 29, 23, 59, 59, 999000, tzinfo=UTC)
    assert month_end(datetime(2024, 12, 1, tzinfo=UTC)) == datetime(2024, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)


def test_periods_cover_every_month_up_to_now_oldest_first() -> None:
    clock = ManualClock(datetime(2025, 3, 10, tzinfo=UTC))
    ledger = UsageLedger(clock)
    ledger.record("t", "k1", 10, datetime(2024, 12, 31, 23, 59, 59, tzinfo=UTC))
    ledger.record("t", "k1", 5, datetime(2025, 1, 1, tzinfo=UTC))
    ledger.record("t", "k2", 2, datetime(2025, 3, 1, tzinfo=UTC))
    periods = ledger.periods("t", by_api_key=False)
    assert [p["startDate"] for p in periods] == [
        "2024-12-01T00:00:00.000Z",
        "2025-01-01T00:00:00.000Z",
        "2025-02-01T00:00:00.000Z",
        "2025-03-01T00:00:00.000Z",
    ]
    assert [p["totalTokens"] for p in periods] == [150, 75, 0, 30]
    assert periods[0]["endDate"] == "2024-12-31T23:59:59.999Z"
    assert all(p["apiKey"] is None for p in periods)
    assert ledger.periods("other", by_api_key=False) == []


def test_periods_by_api_key_are_masked_and_split() -> None:
    clock = ManualClock(datetime(2025, 2, 10, tzinfo=UTC))
    ledger = UsageLedger(clock)
    ledger.record("t", "wds-aaaa1111", 4, datetime(2025, 1, 5, tzinfo=UTC))
    ledger.record("t", "wds-bbbb2222", 1, datetime(2025, 2, 5, tzinfo=UTC))
    periods = ledger.periods("t", by_api_key=True)
    assert [(p["startDate"][:7], p["apiKey"], p["totalTokens"]) for p in periods] == [
        ("2025-01", "…1111", 60),
        ("2025-01", "…2222", 0),
        ("2025-02", "…1111", 0),
        ("2025-02", "…2222", 15),
    ]
    assert ledger.periods("t", by_api_key=True, unit="credits")[0]["creditsUsed"] == 4


async def test_route_reports_what_the_emulator_charged(client: httpx.AsyncClient, emulator: Emulator) -> None:
    alpha = emulator.team_by_name("alpha")
    assert alpha is not None
    emulator.record_call(Caller(alpha, ALPHA_KEY), "scrape", "https://a.dev", credits=3)
    emulator.record_call(Caller(alpha, ALPHA_KEY_2), "map", "https://a.dev", credits=1)

    r = await client.get("/v2/team/token-usage/historical", headers=auth(ALPHA_KEY))
    assert r.status_code == 200
    assert r.json() == {
        "success": True,
        "periods": [
            {
                "startDate": "2025-06-01T00:00:00.000Z",
                "endDate": "2025-06-30T23:59:59.999Z",
                "apiKey": None,
                "totalTokens": 60,
                "tokensUsed": 60,  # the real service's name for the same figure
            }
        ],
    }
    r = await client.get("/v2/team/token-usage/historical", params={"byApiKey": "true"}, headers=auth(ALPHA_KEY))
    by_key = {p["apiKey"]: p["totalTokens"] for p in r.json()["periods"]}
    assert by_key == {"…" + ALPHA_KEY[-4:]: 45, "…" + ALPHA_KEY_2[-4:]: 15}
    assert ALPHA_KEY not in r.text and ALPHA_KEY_2 not in r.text

    # Team isolation: beta used nothing.
    r = await client.get("/v2/team/token-usage/historical", headers=auth(BETA_KEY))
    assert r.json()["periods"] == []


async def test_by_api_key_must_be_a_boolean(client: httpx.AsyncClient) -> None:
    for value, status in (("false", 200), ("1", 200), ("maybe", 400)):
        r = await client.get("/v2/team/token-usage/historical", params={"byApiKey": value}, headers=auth(ALPHA_KEY))
        assert r.status_code == status, value


async def test_balances_and_credit_history(client: httpx.AsyncClient, emulator: Emulator) -> None:
    alpha = emulator.team_by_name("alpha")
    assert alpha is not None
    start = alpha.credits_remaining
    emulator.record_call(Caller(alpha, ALPHA_KEY), "scrape", "https://a.dev", credits=10)
    r = await client.get("/v2/team/credit-usage", headers=auth(ALPHA_KEY))
    data = r.json()["data"]
    assert data["remainingCredits"] == start - 10 and data["planCredits"] == start
    assert data["billingPeriodStart"] == "2025-06-01T00:00:00.000Z"
    r = await client.get("/v2/team/token-usage", headers=auth(ALPHA_KEY))
    assert r.json()["data"]["remainingTokens"] == (start - 10) * 15
    r = await client.get("/v2/team/credit-usage/historical", headers=auth(ALPHA_KEY))
    assert r.json()["periods"][-1]["creditsUsed"] == 10


async def test_seeded_history_has_past_months(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    alpha = emulator.team_by_name("alpha")
    periods = emulator.usage.periods(alpha.id, by_api_key=False)
    assert len(periods) == 6  # five seeded past months and the current one
    assert all(p["totalTokens"] > 0 for p in periods[:-1])
    assert all(p["totalTokens"] % 15 == 0 for p in periods)
