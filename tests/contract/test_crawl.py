"""Crawls: `POST /v2/crawl/params-preview`, `GET /v2/crawl/active`, `POST /v2/crawl`, `GET /v2/crawl/{id}`.

The crawl-started webhook, delivered to a real receiver, is in test_socket.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable
from datetime import timedelta
from typing import Any

import pytest

from tests.contract.refusals import (
    Limit,
    assert_fails_with,
    assert_job_id_refused,
    assert_limit,
    kwargs_of,
    limit_params,
    refused_before_sending,
)
from tests.contract.service import BASE_URL, SITE, UNKNOWN_ID, Service
from tests.support.emulator_teams import BETA_KEY
from tui.api.client import WdsClient
from tui.api.errors import APIStatusError, NotFoundError, PermissionDeniedError
from tui.contract.models import ActiveCrawl, ActiveCrawlList, CrawlParamsPreview, CrawlStarted, CrawlStatus, JobState
from tui.contract.requests import CrawlParamsPreviewRequest

# --- params preview -----------------------------------------------------------------------------

EVERY_RULE = (
    "Only blog posts, exclude the careers pages, depth 2, 2 clicks from the home page, up to 50 pages, include "
    "subdomains and external links, crawl the entire domain, ignore robots.txt, skip the sitemap, ignore query "
    "parameters, wait 2 seconds between requests, as Googlebot, keep duplicates"
)


async def test_params_preview_happy_path_fills_every_contract_field(alpha: WdsClient) -> None:
    preview = await alpha.crawl.params_preview(f"{SITE}/", EVERY_RULE)
    assert isinstance(preview, CrawlParamsPreview) and preview.success is True
    assert preview.data.model_dump() == {
        "url": f"{SITE}/",
        "include_paths": ["^/blog(/.*)?$"],
        "exclude_paths": ["^/careers(/.*)?$"],
        "max_depth": 2,
        "max_discovery_depth": 2,
        "crawl_entire_domain": True,
        "allow_external_links": True,
        "allow_subdomains": True,
        "sitemap": "skip",
        "ignore_query_parameters": True,
        "ignore_robots_txt": True,
        "robots_user_agent": "Googlebot",
        "deduplicate_similar_urls": False,
        "delay": 2.0,
        "limit": 50,
    }


PREVIEW_LIMITS = [
    Limit("prompt-min", "prompt", {"url": SITE, "prompt": "x"}, {"url": SITE, "prompt": ""}),
    Limit("prompt-max", "prompt", {"url": SITE, "prompt": "p" * 10_000}, {"url": SITE, "prompt": "p" * 10_001}),
    Limit("url-http", "url", {"url": SITE, "prompt": "only the blog"}, {"url": "acme-outdoor.com", "prompt": "blog"}),
]


@pytest.mark.parametrize("limit", limit_params(PREVIEW_LIMITS))
async def test_params_preview_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[CrawlParamsPreview]:
        return alpha.crawl.params_preview(**kwargs_of(CrawlParamsPreviewRequest, body))

    preview = await assert_limit(service, limit, call, "POST", "/v2/crawl/params-preview")
    assert preview.data.url == limit.inside["url"]


# --- start and active ---------------------------------------------------------------------------


async def test_start_happy_path_returns_id_and_status_url(alpha: WdsClient) -> None:
    started = await alpha.crawl.start(SITE, limit=5)
    assert isinstance(started, CrawlStarted) and started.success is True
    assert uuid.UUID(started.id).version == 4
    assert started.url == f"{BASE_URL}/v2/crawl/{started.id}"
    [entry] = (await alpha.team.activity(endpoint="crawl")).entries
    assert (entry.id, entry.target) == (started.id, SITE)


async def test_active_lists_running_crawls_with_their_scrape_options(service: Service, alpha: WdsClient) -> None:
    started = await alpha.crawl.start(
        SITE,
        limit=5,
        scrape_options={"formats": ["markdown", "links"], "profile": {"name": "shop", "saveChanges": False}},
    )
    listed = await alpha.crawl.active()
    assert isinstance(listed, ActiveCrawlList) and listed.success is True
    [crawl] = listed.crawls
    assert isinstance(crawl, ActiveCrawl)
    assert (crawl.id, crawl.team_id, crawl.url) == (started.id, service.team().id, SITE)
    options = crawl.options.scrape_options
    assert options is not None and options.formats == ["markdown", "links"]
    assert options.profile is not None and (options.profile.name, options.profile.save_changes) == ("shop", False)
    service.clock.advance(3600)
    assert (await alpha.crawl.active()).crawls == [], "a finished crawl is no longer active"


async def test_active_crawls_of_another_team_are_never_listed(alpha: WdsClient, beta: WdsClient) -> None:
    mine = await alpha.crawl.start(SITE, limit=3)
    theirs = await beta.crawl.start(SITE, limit=3)
    assert [c.id for c in (await alpha.crawl.active()).crawls] == [mine.id]
    assert [c.id for c in (await beta.crawl.active()).crawls] == [theirs.id]


CRAWL_LIMITS = [
    Limit("url-http", "url", {"url": SITE, "limit": 2}, {"url": "mailto:a@acme-outdoor.com"}),
    Limit("limit-min", "limit", {"url": SITE, "limit": 1}, {"url": SITE, "limit": 0}),
    Limit("maxDepth-min", "maxDepth", {"url": SITE, "limit": 2, "maxDepth": 0}, {"url": SITE, "maxDepth": -1}),
    Limit(
        "prompt-max", "prompt", {"url": SITE, "limit": 2, "prompt": "p" * 10_000}, {"url": SITE, "prompt": "p" * 10_001}
    ),
    Limit(
        "sitemap-enum", "sitemap", {"url": SITE, "limit": 2, "sitemap": "skip"}, {"url": SITE, "sitemap": "sometimes"}
    ),
    Limit("delay-min", "delay", {"url": SITE, "limit": 2, "delay": 0}, {"url": SITE, "delay": -0.5}),
    Limit(
        "webhook-url",
        "webhook",
        {"url": SITE, "limit": 2, "webhook": {"url": "http://127.0.0.1:9/h", "events": ["started"]}},
        {"url": SITE, "webhook": {"url": "hooks.test/h"}},
    ),
    Limit(
        "scrapeOptions.timeout-min",
        "scrapeOptions.timeout",
        {"url": SITE, "limit": 2, "scrapeOptions": {"timeout": 1000}},
        {"url": SITE, "scrapeOptions": {"timeout": 999}},
    ),
    Limit(
        "scrapeOptions.timeout-max",
        "scrapeOptions.timeout",
        {"url": SITE, "limit": 2, "scrapeOptions": {"timeout": 300_000}},
        {"url": SITE, "scrapeOptions": {"timeout": 300_001}},
    ),
    Limit(
        "scrapeOptions.profile.name-max",
        "scrapeOptions.profile.name",
        {"url": SITE, "limit": 2, "scrapeOptions": {"profile": {"name": "p" * 128}}},
        {"url": SITE, "scrapeOptions": {"profile": {"name": "p" * 129}}},
    ),
]


@pytest.mark.parametrize("limit", limit_params(CRAWL_LIMITS))
async def test_start_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[CrawlStarted]:
        return alpha.crawl.start(**body)  # crawl options in wire spelling

    started = await assert_limit(service, limit, call, "POST", "/v2/crawl")
    assert started.id in {c.id for c in (await alpha.crawl.active()).crawls}


# --- status ---------------------------------------------------------------------------------------


async def test_get_happy_path_follows_progress_to_completion(service: Service, alpha: WdsClient) -> None:
    started = await alpha.crawl.start(SITE, limit=4)
    begun = await alpha.crawl.get(started.id)
    assert isinstance(begun, CrawlStatus) and begun.status == JobState.SCRAPING
    assert (begun.completed, begun.total) == (0, 4) and begun.data == []
    assert begun.expires_at == service.clock.now() + timedelta(hours=24)
    service.clock.advance(3600)
    done = await alpha.crawl.get(started.id)
    assert done.status == JobState.COMPLETED and done.is_finished
    assert (done.completed, done.total, len(done.data)) == (4, 4, 4) and done.credits_used == 4
    assert done.data[0].metadata.source_url == SITE and all(d.markdown for d in done.data)


async def test_get_pages_with_skip_limit_and_next(service: Service, alpha: WdsClient) -> None:
    started = await alpha.crawl.start(SITE, limit=5)
    service.clock.advance(3600)
    first = await alpha.crawl.get(started.id, limit=2)
    assert len(first.data) == 2 and first.next == f"{BASE_URL}/v2/crawl/{started.id}?skip=2&limit=2"
    last = await alpha.crawl.get(started.id, skip=4, limit=2)
    assert len(last.data) == 1 and last.next is None


@pytest.mark.parametrize(("query", "field"), [({"skip": -1}, "skip"), ({"limit": 0}, "limit")])
async def test_get_paging_limits(service: Service, alpha: WdsClient, query: dict[str, int], field: str) -> None:
    started = await alpha.crawl.start(SITE, limit=2)
    await refused_before_sending(service, lambda: alpha.crawl.get(started.id, **query), field)
    response = await service.raw("GET", f"/v2/crawl/{started.id}", params=query)
    assert response.status_code == 400 and response.json()["details"][0]["path"] == [field]


async def another_teams(service: Service) -> str:
    """403: the crawl belongs to another team."""
    return (await service.client(BETA_KEY).crawl.start(SITE, limit=2)).id


async def unknown(service: Service) -> str:
    """404: no such crawl."""
    return UNKNOWN_ID


async def a_scrape(service: Service) -> str:
    """404: the id is a scrape job, not a crawl."""
    return service.scrape_job()


async def expired(service: Service) -> str:
    """404 "Job expired.": a crawl is kept 24 hours."""
    job_id = (await service.client().crawl.start(SITE, limit=2)).id
    service.clock.advance(24 * 3600 + 1)
    return job_id


GET_STATUSES = [
    pytest.param(another_teams, PermissionDeniedError, 403, id="403-another-teams-crawl"),
    pytest.param(unknown, NotFoundError, 404, id="404-unknown-crawl"),
    pytest.param(a_scrape, NotFoundError, 404, id="404-a-scrape-is-not-a-crawl"),
    pytest.param(expired, NotFoundError, 404, id="404-expired"),
]


@pytest.mark.parametrize(("scenario", "error", "status"), GET_STATUSES)
async def test_get_statuses(
    service: Service, alpha: WdsClient, scenario: Any, error: type[APIStatusError], status: int
) -> None:
    job_id = await scenario(service)
    await assert_fails_with(lambda: alpha.crawl.get(job_id), error, status)


async def test_get_job_id_must_be_a_uuid(service: Service, alpha: WdsClient) -> None:
    await assert_job_id_refused(service, lambda: alpha.crawl.get("crawl-1"), "GET", "/v2/crawl/crawl-1")


async def test_params_preview_fills_every_contract_field_even_when_the_prompt_names_none(alpha: WdsClient) -> None:
    preview = await alpha.crawl.params_preview(f"{SITE}/", "crawl it")
    wire = preview.data.model_dump(by_alias=True)
    for field in ("limit", "delay", "robotsUserAgent", "maxDepth", "sitemap", "includePaths"):
        assert wire.get(field) is not None, field
