"""Team: `GET /v2/team/token-usage/historical` and `GET /v2/team/activity` (+ `iter_activity`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.contract.refusals import Limit, assert_limit, kwargs_of, limit_params
from tests.contract.service import SITE, Service
from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY
from tui.api.client import WdsClient
from tui.api.errors import BadRequestError
from tui.contract.models import ActivityEntry, ActivityPage, TokenUsageHistory
from tui.contract.requests import ActivityQuery, TokenUsageQuery

# --- token usage ------------------------------------------------------------------------------


async def test_token_usage_happy_path_counts_15_tokens_per_credit(service: Service) -> None:
    await service.client(ALPHA_KEY).scrape.create(f"{SITE}/about")  # 1 credit
    await service.client(ALPHA_KEY_2).map(SITE, limit=5)  # 1 credit
    usage = await service.client(ALPHA_KEY).team.token_usage_historical()
    assert isinstance(usage, TokenUsageHistory) and usage.success is True
    [june] = usage.periods
    assert june.start_date == datetime(2025, 6, 1, tzinfo=UTC)
    assert june.end_date == datetime(2025, 6, 30, 23, 59, 59, 999000, tzinfo=UTC)
    assert (june.api_key, june.total_tokens, june.credits) == (None, 30, 2)


async def test_token_usage_by_api_key_splits_per_masked_key(service: Service) -> None:
    await service.client(ALPHA_KEY).scrape.create(f"{SITE}/about")
    await service.client(ALPHA_KEY_2).map(SITE, limit=5)
    await service.client(ALPHA_KEY_2).map(SITE, limit=5)
    usage = await service.client(ALPHA_KEY).team.token_usage_historical(by_api_key=True)
    assert {(p.api_key, p.total_tokens) for p in usage.periods} == {("…a1a1", 15), ("…a2a2", 30)}
    assert all(p.api_key not in (ALPHA_KEY, ALPHA_KEY_2) for p in usage.periods), "keys are shown masked"


async def test_token_usage_includes_every_endpoint(service: Service, alpha: WdsClient) -> None:
    """A browser session is billed too: 2 credits per started minute (90 s: 4 credits)."""
    await alpha.scrape.create(f"{SITE}/about")
    session = await alpha.browser.create(ttl=600)
    service.clock.advance(90)
    await alpha.browser.delete(session.id)
    assert [p.total_tokens for p in (await alpha.team.token_usage_historical()).periods] == [(1 + 4) * 15]


async def test_token_usage_is_scoped_to_the_team(service: Service, alpha: WdsClient, beta: WdsClient) -> None:
    await alpha.scrape.create(f"{SITE}/about")
    assert (await beta.team.token_usage_historical()).periods == []
    await beta.scrape.create(f"{SITE}/about")
    assert [p.total_tokens for p in (await beta.team.token_usage_historical()).periods] == [15]
    assert [p.total_tokens for p in (await alpha.team.token_usage_historical()).periods] == [15]


USAGE_LIMITS = [Limit("byApiKey-boolean", "byApiKey", {"byApiKey": True}, {"byApiKey": "maybe"})]


@pytest.mark.parametrize("limit", limit_params(USAGE_LIMITS))
async def test_token_usage_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(query: dict[str, Any]) -> Awaitable[TokenUsageHistory]:
        return alpha.team.token_usage_historical(**kwargs_of(TokenUsageQuery, query))

    await assert_limit(service, limit, call, "GET", "/v2/team/token-usage/historical")


# --- activity ---------------------------------------------------------------------------------


def fill(service: Service, count: int, key: str = ALPHA_KEY) -> list[str]:
    """`count` scrapes by `key`, one second apart; their job ids, oldest first."""
    ids = []
    for i in range(count):
        ids.append(service.scrape_job(key, url=f"{SITE}/about?n={i}"))
        service.clock.advance(1)
    return ids


async def test_activity_happy_path_lists_the_call_with_its_job_id(service: Service, alpha: WdsClient) -> None:
    scraped = await alpha.scrape.create(f"{SITE}/about")
    page = await alpha.team.activity()
    assert isinstance(page, ActivityPage) and page.success is True
    assert (page.cursor, page.has_more) == (None, False)
    [entry] = page.entries
    assert isinstance(entry, ActivityEntry)
    assert (entry.id, entry.endpoint, entry.api_version) == (scraped.job_id, "scrape", "v2")
    assert entry.target == f"{SITE}/about"
    assert entry.created_at == service.clock.now()


ACTIVITY_LIMITS = [
    Limit("limit-min", "limit", {"limit": 1}, {"limit": 0}),
    Limit("limit-max", "limit", {"limit": 100}, {"limit": 101}),
    Limit("endpoint-enum", "endpoint", {"endpoint": "batch_scrape"}, {"endpoint": "batch"}),
    # a real cursor, just inside, is followed in test_activity_pages_with_cursor_and_has_more
    Limit("cursor-empty", "cursor", {"limit": 5}, {"cursor": ""}),
]


@pytest.mark.parametrize("limit", limit_params(ACTIVITY_LIMITS))
async def test_activity_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    fill(service, 3)

    def call(query: dict[str, Any]) -> Awaitable[ActivityPage]:
        return alpha.team.activity(**kwargs_of(ActivityQuery, query))

    page = await assert_limit(service, limit, call, "GET", "/v2/team/activity")
    assert len(page.entries) <= limit.inside.get("limit", 50)


async def test_activity_pages_with_cursor_and_has_more(service: Service, alpha: WdsClient) -> None:
    ids = fill(service, 7)[::-1]  # newest first, as the service lists them
    first = await alpha.team.activity(limit=3)
    assert [e.id for e in first.entries] == ids[:3] and first.has_more and first.cursor
    second = await alpha.team.activity(limit=3, cursor=first.cursor)
    assert [e.id for e in second.entries] == ids[3:6] and second.has_more
    last = await alpha.team.activity(limit=3, cursor=second.cursor)
    assert [e.id for e in last.entries] == ids[6:] and (last.has_more, last.cursor) == (False, None)


async def test_iter_activity_walks_every_page(service: Service, alpha: WdsClient) -> None:
    ids = fill(service, 7)[::-1]
    pager = alpha.team.iter_activity(page_size=3)
    assert [e.id for e in await pager.to_list()] == ids
    assert [len(page.entries) async for page in pager.pages()] == [3, 3, 1]


async def test_iter_activity_yields_each_entry_once_while_new_ones_arrive(service: Service, alpha: WdsClient) -> None:
    ids = fill(service, 6)[::-1]
    seen = []
    async for entry in alpha.team.iter_activity(page_size=2):
        seen.append(entry.id)
        fill(service, 1)  # a call made while paging is newer than the walk's start
    assert seen == ids


async def test_iter_activity_endpoint_filter(service: Service, alpha: WdsClient) -> None:
    fill(service, 2)
    await alpha.map(SITE, limit=1)
    entries = await alpha.team.iter_activity(endpoint="map").to_list()
    assert [e.endpoint for e in entries] == ["map"]


@pytest.mark.parametrize(
    ("make_cursor", "what"),
    [
        pytest.param(lambda cursor: "not-a-cursor", "Invalid cursor", id="garbage"),
        pytest.param(lambda cursor: cursor, "different endpoint filter", id="cursor-of-another-filter"),
    ],
)
async def test_activity_bad_cursor_is_400(
    service: Service, alpha: WdsClient, make_cursor: Callable[[str], str], what: str
) -> None:
    fill(service, 3)
    filtered = await alpha.team.activity(endpoint="scrape", limit=1)
    assert filtered.cursor is not None
    with pytest.raises(BadRequestError) as info:
        await alpha.team.activity(cursor=make_cursor(filtered.cursor))
    assert info.value.code == "BAD_REQUEST" and what in info.value.message


async def test_activity_shows_only_the_last_24_hours(service: Service, alpha: WdsClient) -> None:
    fill(service, 2)  # at t=0 and t=1; the clock is now at t=2
    service.clock.advance(24 * 3600 - 2)  # the first entry is exactly 24 h old: it has left the window
    assert len((await alpha.team.activity()).entries) == 1
    service.clock.advance(1)
    assert (await alpha.team.activity()).entries == []


async def test_activity_of_another_team_is_never_listed(service: Service, alpha: WdsClient, beta: WdsClient) -> None:
    alpha_ids = set(fill(service, 4, ALPHA_KEY))
    beta_ids = set(fill(service, 2, BETA_KEY))
    assert {e.id for e in await beta.team.iter_activity().to_list()} == beta_ids
    assert {e.id for e in await service.client(ALPHA_KEY_2).team.iter_activity().to_list()} == alpha_ids
    # an alpha cursor is only a position: beta following it still sees only beta's entries
    cursor = (await alpha.team.activity(limit=1)).cursor
    assert {e.id for e in (await beta.team.activity(cursor=cursor)).entries} <= beta_ids


RETRIEVAL = {
    "scrape": lambda client, job_id: client.scrape.get(job_id),
    "crawl": lambda client, job_id: client.crawl.get(job_id, limit=1),
    "batch_scrape": lambda client, job_id: client.batch.get(job_id, limit=1),
    "agent": lambda client, job_id: client.extract.get(job_id),
}


async def test_every_listed_job_id_opens_with_its_retrieval_endpoint(make_service: Any) -> None:
    """The contract's table: an entry's id opens with GET /v2/{scrape,crawl,batch/scrape,extract}/{id}."""
    service = await make_service(history=True)
    alpha = service.client(ALPHA_KEY)
    entries = await alpha.team.iter_activity().to_list()
    retrievable = [e for e in entries if e.endpoint in RETRIEVAL]
    assert {e.endpoint for e in retrievable} == set(RETRIEVAL), "the seeded history has every retrievable kind"
    for entry in retrievable:
        job = await RETRIEVAL[entry.endpoint](alpha, entry.id)
        assert job.success is True, entry
