"""Sites of realistic sizes: deterministic, lazy, and the same as before for the hosts already in use."""

from __future__ import annotations

import hashlib
import time
import tracemalloc
from collections import deque
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.contract.requests import MapRequest
from tui.emulator.core.clock import ManualClock
from tui.emulator.sites.registry import SiteRegistry
from tui.emulator.sites.site import SyntheticSite
from tui.emulator.sites.site_map import map_links
from tui.emulator.sites.sizes import BIGGEST_HOST, NAMED_SIZES, STANDARD_HOSTS, site_size

MEDIUM = "trailhead-journal.com"


def fingerprint(seed: int, host: str) -> str:
    """Every page of the site, its body and its map: what scrapes, crawls and snapshots see."""
    registry = SiteRegistry(seed)
    site = registry.site(host)
    parts = [repr((page, site.body(page))) for page in site.pages()]
    parts.append(repr(map_links(registry, MapRequest(url=f"https://{host}/", limit=100_000))))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


# Taken with the code before sites had sizes (commit 5195812): these sites must not change.
BEFORE_SIZES = {
    (0, "acme-outdoor.com"): "b633c59003616041",
    (0, "northwind.dev"): "a92d25280b712b68",
    (0, "lumen-labs.io"): "beb5bb25df840b03",
    (0, "fernwood.co"): "3b09132a1ce1657c",
    (7, "acme-outdoor.com"): "c5893bdbd7fdf536",
    (7, "example.com"): "beefc7b645dada74",
}


@pytest.mark.parametrize(
    "host",
    [*STANDARD_HOSTS, "example.com", "docs.example.com", "shop.example.net", "a.test", "freeze-1.example", "localhost"],
)
def test_demo_hosts_and_reserved_names_keep_the_standard_layout(host: str) -> None:
    site = SiteRegistry(0).site(host)
    assert site.size.kind == "standard" and site.catalogue is None
    assert 55 <= site.url_count() <= 80


def test_the_pages_of_a_demo_host_are_those_from_before_sizes() -> None:
    for (seed, host), digest in BEFORE_SIZES.items():
        assert fingerprint(seed, host) == digest, f"{host} changed: UI snapshots and seeded history depend on it"


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_named_hosts_have_their_documented_sizes_for_every_seed(seed: int) -> None:
    registry = SiteRegistry(seed)
    for host, (kind, low, high) in NAMED_SIZES.items():
        site = registry.site(host)
        assert site.size.kind == kind and low <= site.size.catalogue_pages <= high
    assert registry.site(BIGGEST_HOST).url_count() > 100_000
    assert registry.site("corner-bakery.com").url_count() <= 12


def test_sizes_are_deterministic_and_other_hosts_draw_from_a_long_tail() -> None:
    hosts = [f"shop-{n}.com" for n in range(400)]
    sizes = [site_size(3, host) for host in hosts]
    assert sizes == [site_size(3, host) for host in hosts]
    kinds = {size.kind for size in sizes}
    assert kinds == {"brochure", "standard", "catalogue"}
    counts = [SiteRegistry(3).site(host).url_count() for host in hosts[:60]]
    assert min(counts) < 12 and max(counts) > 1_000


@pytest.mark.serial  # a bound on the wall clock
def test_a_huge_site_costs_nothing_until_it_is_mapped() -> None:
    tracemalloc.start()
    try:
        started = time.perf_counter()
        site = SyntheticSite(0, BIGGEST_HOST)
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 0.2 and peak < 2_000_000
    assert len(list(site.pages())) < 100, "only the standard pages are built; the catalogue is derived"


def test_every_listed_catalogue_url_is_a_page_with_its_own_title() -> None:
    site = SiteRegistry(0).site(MEDIUM)
    assert site.catalogue is not None
    for url in list(site.sitemap_urls())[::37]:
        page = site.lookup(url)
        assert page is not None and page.url == url and page.status_code == 200 and page.title
    item = next(url for url in site.sitemap_urls() if "/catalog/" in url)
    assert site.lookup(item + "0") is None and site.fetch(item + "0").status_code == 404


def test_the_catalogue_shortcut_lists_what_walking_every_link_finds() -> None:
    """A map adds a catalogue's linked pages at once; walking them one by one must find the same."""
    registry = SiteRegistry(0)
    site = registry.site(MEDIUM)
    start = f"https://{MEDIUM}/"
    walked, queue = {start}, deque([start])
    while queue:
        page = site.lookup(queue.popleft())
        if page is None or page.status_code >= 400:
            continue
        for link in page.links:
            if link not in walked and link.split("/")[2].removeprefix("www.") in site.hosts:
                walked.add(link)
                queue.append(link)
    request = MapRequest(url=start, sitemap="skip", ignore_query_parameters=False, limit=100_000)
    mapped = {link["url"] for link in map_links(registry, request)}
    found = {page.url if (page := site.lookup(url)) is not None else url for url in walked}
    assert mapped == found


async def post(client: httpx.AsyncClient, path: str, **body: Any) -> dict[str, Any]:
    response = await client.post(path, json=body, headers=auth(ALPHA_KEY))
    assert response.status_code == 200, response.text
    return dict(response.json())


@pytest.mark.serial  # a bound on the wall clock
async def test_a_crawl_of_the_biggest_site_is_bounded_by_its_limit(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    started = time.perf_counter()
    crawl = await post(client, "/v2/crawl", url=f"https://{BIGGEST_HOST}/", limit=30)
    assert time.perf_counter() - started < 5
    clock.advance(3600)
    done = (await client.get(f"/v2/crawl/{crawl['id']}", headers=auth(ALPHA_KEY))).json()
    assert done["status"] == "completed" and done["completed"] == done["total"] == 30
    assert any("/catalog" in doc["metadata"]["url"] for doc in done["data"]) or len(done["data"]) == 30


async def test_catalogue_pages_scrape_like_any_other(client: httpx.AsyncClient) -> None:
    links = (await post(client, "/v2/map", url=f"https://{BIGGEST_HOST}/", limit=2_000))["links"]
    item = next(link for link in links if "/catalog/" in link["url"])
    scraped = (await post(client, "/v2/scrape", url=item["url"], formats=["markdown", "links"]))["data"]
    assert scraped["metadata"]["statusCode"] == 200 and scraped["metadata"]["title"] == item["title"]
    assert f"# {item['title']}" in scraped["markdown"]
    assert f"https://{BIGGEST_HOST}/" in scraped["links"]


def test_the_help_and_readme_name_every_sized_host() -> None:
    from pathlib import Path

    from tui.emulator.cli import build_parser

    help_text = " ".join(build_parser().format_help().split())
    readme = Path(__file__).resolve().parents[2].joinpath("README.md").read_text()
    for host in [*NAMED_SIZES, *STANDARD_HOSTS]:
        assert host in help_text and host in readme
    assert f"{BIGGEST_HOST} (the biggest)" in help_text


def test_a_big_site_serves_a_sitemap_index_within_the_protocols_limit() -> None:
    site = SiteRegistry(0).site(BIGGEST_HOST)
    index = site.body(site.fetch(f"https://{BIGGEST_HOST}/sitemap.xml")).raw_text or ""
    files = [part.split("</loc>")[0] for part in index.split("<loc>")[1:]]
    assert "<sitemapindex" in index and files[0] == f"https://{BIGGEST_HOST}/sitemap-pages.xml"
    listed: list[str] = []
    for file in files:
        text = site.body(site.fetch(file)).raw_text or ""
        urls = [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]
        assert 0 < len(urls) <= 50_000
        listed += urls
    assert listed and set(listed) == set(site.sitemap_urls(BIGGEST_HOST))
    assert site.fetch(f"https://{BIGGEST_HOST}/sitemap-catalogue-999.xml").status_code == 404
