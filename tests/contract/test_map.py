"""Site maps: `POST /v2/map`."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from tests.contract.refusals import Limit, assert_limit, kwargs_of, limit_params
from tests.contract.service import SITE, Service
from tui.api.client import WdsClient
from tui.api.errors import RequestTimeoutError
from tui.contract.models import MapLink, MapResult
from tui.contract.requests import MapRequest, is_http_url


async def test_map_happy_path_lists_the_sites_urls_with_titles(alpha: WdsClient) -> None:
    mapped = await alpha.map(SITE, limit=20)
    assert isinstance(mapped, MapResult) and mapped.success is True
    assert len(mapped.links) == 20 and all(isinstance(link, MapLink) for link in mapped.links)
    assert mapped.links[0].url == f"{SITE}/" and mapped.links[0].title and mapped.links[0].description
    assert all(is_http_url(link.url) and "acme-outdoor.com" in link.url for link in mapped.links)
    assert len({link.url for link in mapped.links}) == 20
    assert not any("?" in link.url for link in mapped.links), "ignoreQueryParameters defaults to true"


async def test_map_search_orders_by_relevance_without_filtering(alpha: WdsClient) -> None:
    everything = await alpha.map(SITE)
    ranked = await alpha.map(SITE, search="terracotta pot")
    assert ranked.links[0].url == f"{SITE}/products/terracotta-pot"
    assert {link.url for link in ranked.links} == {link.url for link in everything.links}


async def test_map_options_change_what_is_listed(alpha: WdsClient) -> None:
    default = {link.url for link in (await alpha.map(SITE)).links}
    own_host = {link.url for link in (await alpha.map(SITE, include_subdomains=False)).links}
    assert own_host < default and all(url.startswith(f"{SITE}") for url in own_host)
    only = {link.url for link in (await alpha.map(SITE, sitemap="only")).links}
    skip = {link.url for link in (await alpha.map(SITE, sitemap="skip")).links}
    assert any("/landing/" in url for url in only) and not any("/landing/" in url for url in skip)


MAP_LIMITS = [
    Limit("url-http", "url", {"url": SITE}, {"url": "ftp://acme-outdoor.com"}),
    Limit("limit-min", "limit", {"url": SITE, "limit": 1}, {"url": SITE, "limit": 0}),
    Limit("limit-max", "limit", {"url": SITE, "limit": 100_000}, {"url": SITE, "limit": 100_001}),
    Limit("sitemap-enum", "sitemap", {"url": SITE, "sitemap": "only"}, {"url": SITE, "sitemap": "never"}),
    Limit(
        "includeSubdomains-boolean",
        "includeSubdomains",
        {"url": SITE, "includeSubdomains": False},
        {"url": SITE, "includeSubdomains": "no"},
    ),
    Limit("timeout-min", "timeout", {"url": SITE, "limit": 1, "timeout": 60_000}, {"url": SITE, "timeout": 0}),
    Limit(
        "location.country",
        "location.country",
        {"url": SITE, "location": {"country": "FR", "languages": ["fr"]}},
        {"url": SITE, "location": {"country": "France"}},
    ),
]


@pytest.mark.parametrize("limit", limit_params(MAP_LIMITS))
async def test_map_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[MapResult]:
        return alpha.map(**kwargs_of(MapRequest, body))

    mapped = await assert_limit(service, limit, call, "POST", "/v2/map")
    assert mapped.links and len(mapped.links) <= limit.inside.get("limit", 5000)


async def test_a_map_slower_than_its_timeout_is_408(alpha: WdsClient) -> None:
    with pytest.raises(RequestTimeoutError) as info:
        await alpha.map(SITE, timeout=10)
    assert (info.value.status, info.value.code) == (408, "MAP_TIMEOUT")


async def test_map_is_billed_and_recorded_for_the_callers_team(
    service: Service, alpha: WdsClient, beta: WdsClient
) -> None:
    before = service.team().credits_remaining
    await alpha.map(SITE, limit=1)
    assert before - service.team().credits_remaining == 1
    assert [e.target for e in await alpha.team.iter_activity(endpoint="map").to_list()] == [SITE]
    assert await beta.team.iter_activity(endpoint="map").to_list() == []
