"""`POST /v2/map` on sites of every size, through the typed client (issue 11).

Each option must change the answer the way the contract says: `limit` bounds
it, `search` orders without filtering, `sitemap` chooses the sources,
`includeSubdomains` and `ignoreQueryParameters` leave URLs out.
"""

from __future__ import annotations

import time

import pytest

from tui.api.client import WdsClient
from tui.api.errors import RequestTimeoutError
from tui.contract.limits import MAP_LIMIT_DEFAULT, MAP_LIMIT_MAX
from tui.emulator.sites.sizes import BIGGEST_HOST

BIG = f"https://{BIGGEST_HOST}"
MEDIUM = "https://trailhead-journal.com"
TINY = "https://corner-bakery.com"


@pytest.mark.serial  # a bound on the wall clock
async def test_the_biggest_site_fills_the_contracts_largest_map(alpha: WdsClient) -> None:
    started = time.perf_counter()
    mapped = await alpha.map(BIG, limit=MAP_LIMIT_MAX)
    elapsed = time.perf_counter() - started
    urls = [link.url for link in mapped.links]
    assert len(urls) == MAP_LIMIT_MAX and len(set(urls)) == MAP_LIMIT_MAX
    assert all(link.title and link.description for link in mapped.links[:1000])
    assert urls[0] == f"{BIG}/" and not any("?" in url for url in urls)
    assert elapsed < 10, "in-process and unoptimised here; tests/benchmarks/bench_map.py measures the real server"


async def test_the_default_limit_applies_to_a_big_site(alpha: WdsClient) -> None:
    assert len((await alpha.map(BIG)).links) == MAP_LIMIT_DEFAULT


async def test_sizes_range_from_a_handful_of_pages_to_thousands(alpha: WdsClient) -> None:
    tiny = (await alpha.map(TINY, limit=MAP_LIMIT_MAX)).links
    medium = (await alpha.map(MEDIUM, limit=MAP_LIMIT_MAX)).links
    assert 3 <= len(tiny) <= 12
    assert 1_000 < len(medium) < 5_000


async def test_sitemap_modes_choose_the_sources_on_a_catalogue_site(alpha: WdsClient) -> None:
    default = {link.url for link in (await alpha.map(MEDIUM, limit=MAP_LIMIT_MAX)).links}
    only = {link.url for link in (await alpha.map(MEDIUM, sitemap="only", limit=MAP_LIMIT_MAX)).links}
    skip = {link.url for link in (await alpha.map(MEDIUM, sitemap="skip", limit=MAP_LIMIT_MAX)).links}
    assert only < default and skip < default and only | skip == default
    assert only - skip and skip - only, "some pages are only in the sitemap, some only linked"


async def test_subdomains_and_query_parameters_change_a_big_map(alpha: WdsClient) -> None:
    everything = (await alpha.map(MEDIUM, limit=MAP_LIMIT_MAX)).links
    own_host = (await alpha.map(MEDIUM, include_subdomains=False, limit=MAP_LIMIT_MAX)).links
    assert len(own_host) < len(everything)
    assert all(link.url.startswith(f"{MEDIUM}/") for link in own_host)
    with_queries = (await alpha.map(MEDIUM, ignore_query_parameters=False, limit=MAP_LIMIT_MAX)).links
    queried = [link.url for link in with_queries if "?" in link.url]
    assert queried and len(with_queries) == len(everything) + len(queried)
    assert any("/catalog?page=2" in url for url in queried)


async def test_search_ranks_a_catalogue_item_first_and_keeps_every_link(alpha: WdsClient) -> None:
    plain = (await alpha.map(MEDIUM, limit=MAP_LIMIT_MAX)).links
    target = next(link for link in plain if "/catalog/" in link.url and link.url.endswith("-1234"))
    ranked = (await alpha.map(MEDIUM, search=f"{target.title} 1234", limit=MAP_LIMIT_MAX)).links
    assert ranked[0].url == target.url
    assert {link.url for link in ranked} == {link.url for link in plain}
    first_ten = (await alpha.map(MEDIUM, search=target.title, limit=10)).links
    assert len(first_ten) == 10 and target.url in {link.url for link in first_ten}


@pytest.mark.parametrize("path", ["/catalog", "/catalog?page=3", "an item"])
async def test_a_map_started_inside_the_catalogue_still_lists_the_site(alpha: WdsClient, path: str) -> None:
    if path == "an item":
        path = next(link.url for link in (await alpha.map(BIG, limit=200)).links if "/catalog/" in link.url)[len(BIG) :]
    links = (await alpha.map(f"{BIG}{path}", sitemap="skip", limit=MAP_LIMIT_MAX)).links
    assert len(links) == MAP_LIMIT_MAX and f"{BIG}/" in {link.url for link in links[:100]}


async def test_a_missing_page_of_a_catalogue_leads_nowhere(alpha: WdsClient) -> None:
    links = (await alpha.map(f"{BIG}/catalog/plants/no-such-thing-3", sitemap="skip")).links
    assert [link.url for link in links] == [f"{BIG}/catalog/plants/no-such-thing-3"]


@pytest.mark.serial  # a bound on the wall clock
async def test_a_big_map_fits_a_minute_and_not_a_second(alpha: WdsClient) -> None:
    assert len((await alpha.map(BIG, limit=10, timeout=60_000)).links) == 10
    with pytest.raises(RequestTimeoutError) as info:
        await alpha.map(BIG, limit=10, timeout=1_000)
    assert (info.value.status, info.value.code) == (408, "MAP_TIMEOUT")
