"""Single scrapes: `POST /v2/scrape` and `GET /v2/scrape/{id}`, with the cache-only 404 codes."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable
from typing import Any

import pytest

from tests.contract.refusals import (
    Limit,
    assert_fails_with,
    assert_job_id_refused,
    assert_limit,
    limit_params,
    refused_before_sending,
)
from tests.contract.service import SITE, UNKNOWN_ID, Service
from tui.api.client import WdsClient
from tui.api.errors import (
    APIStatusError,
    LockdownCacheMissError,
    NoCachedDataError,
    NotFoundError,
    PermissionDeniedError,
    RequestTimeoutError,
    RequestValidationError,
)
from tui.contract.models import ScrapeResult

FAST_PAGE = f"{SITE}/pricing"  # loads in well under a second: even the minimum timeout is enough
SLOW_PAGE = f"{SITE}/reports/annual-2021"  # needs about 90 s to load


async def test_scrape_happy_path_returns_the_document_and_its_job_id(alpha: WdsClient) -> None:
    scraped = await alpha.scrape.create(f"{SITE}/about", formats=["markdown", "links", "html"], only_main_content=True)
    assert isinstance(scraped, ScrapeResult) and scraped.success is True and scraped.data is not None
    job_id = scraped.job_id
    assert job_id is not None and uuid.UUID(job_id).version == 4
    document = scraped.data
    assert document.markdown and document.markdown.startswith("# About | Acme Outdoor")
    assert document.html and document.links is not None
    meta = document.metadata
    assert (meta.title, meta.source_url, meta.url, meta.status_code) == (
        "About | Acme Outdoor",
        f"{SITE}/about",
        f"{SITE}/about",
        200,
    )


async def test_get_returns_the_same_document(alpha: WdsClient) -> None:
    scraped = await alpha.scrape.create(f"{SITE}/about")
    fetched = await alpha.scrape.get(scraped.job_id or "")
    assert isinstance(fetched, ScrapeResult) and fetched.job_id == scraped.job_id
    assert fetched.data == scraped.data


SCRAPE_LIMITS = [
    Limit("url-http", "url", {"url": FAST_PAGE}, {"url": "acme-outdoor.com/pricing"}),
    Limit("timeout-min", "timeout", {"url": FAST_PAGE, "timeout": 1000}, {"url": FAST_PAGE, "timeout": 999}),
    Limit("timeout-max", "timeout", {"url": FAST_PAGE, "timeout": 300_000}, {"url": FAST_PAGE, "timeout": 300_001}),
    Limit("maxAge-min", "maxAge", {"url": FAST_PAGE, "maxAge": 0}, {"url": FAST_PAGE, "maxAge": -1}),
    Limit("waitFor-min", "waitFor", {"url": FAST_PAGE, "waitFor": 0}, {"url": FAST_PAGE, "waitFor": -1}),
    Limit(
        "formats-enum",
        "formats[1]",
        {"url": FAST_PAGE, "formats": ["markdown", "rawHtml"]},
        {"url": FAST_PAGE, "formats": ["markdown", "pdf"]},
    ),
    Limit("proxy-enum", "proxy", {"url": FAST_PAGE, "proxy": "enhanced"}, {"url": FAST_PAGE, "proxy": "tor"}),
    Limit(
        "location.country",
        "location.country",
        {"url": FAST_PAGE, "location": {"country": "DE"}},
        {"url": FAST_PAGE, "location": {"country": "DEU"}},
    ),
    Limit("mobile-boolean", "mobile", {"url": FAST_PAGE, "mobile": True}, {"url": FAST_PAGE, "mobile": "yes"}),
]


@pytest.mark.parametrize("limit", limit_params(SCRAPE_LIMITS))
async def test_scrape_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[ScrapeResult]:
        return alpha.scrape.create(**body)  # the client takes scrape options in wire spelling too

    scraped = await assert_limit(service, limit, call, "POST", "/v2/scrape")
    assert scraped.data is not None and scraped.data.metadata.status_code == 200


async def test_min_age_zero_is_refused_on_both_sides(service: Service, alpha: WdsClient) -> None:
    """minAge 1 is the smallest (any cached copy); just inside is tested with the cache below."""
    await refused_before_sending(service, lambda: alpha.scrape.create(FAST_PAGE, min_age=0), "minAge")
    response = await service.raw("POST", "/v2/scrape", json={"url": FAST_PAGE, "minAge": 0})
    assert response.status_code == 400 and response.json()["details"][0]["path"] == ["minAge"]


async def test_unknown_options_are_a_type_error_not_a_request(service: Service, alpha: WdsClient) -> None:
    before = service.sent
    with pytest.raises(TypeError, match="no option 'colour'"):
        await alpha.scrape.create(FAST_PAGE, colour="blue")  # type: ignore[call-arg]  # the unknown name is the test
    assert service.sent == before


# --- cache-only modes: the contract's two 404 codes ------------------------------------------------


async def test_min_age_without_cached_data_is_no_cached_data(alpha: WdsClient) -> None:
    with pytest.raises(NoCachedDataError) as info:
        await alpha.scrape.create(FAST_PAGE, min_age=1)
    assert (info.value.status, info.value.code) == (404, "SCRAPE_NO_CACHED_DATA")


async def test_lockdown_without_cached_data_is_lockdown_cache_miss(alpha: WdsClient) -> None:
    with pytest.raises(LockdownCacheMissError) as info:
        await alpha.scrape.create(FAST_PAGE, lockdown=True)
    assert (info.value.status, info.value.code) == (404, "SCRAPE_LOCKDOWN_CACHE_MISS")
    assert isinstance(info.value, NotFoundError), "a cache miss is still a 404 to code that only knows 404"


async def test_cache_only_modes_serve_what_the_team_scraped(
    service: Service, alpha: WdsClient, beta: WdsClient
) -> None:
    fresh = await alpha.scrape.create(FAST_PAGE)
    service.clock.advance(60)
    aged = await alpha.scrape.create(FAST_PAGE, min_age=1)
    locked = await alpha.scrape.create(FAST_PAGE, lockdown=True)
    for cached in (aged, locked):
        assert cached.data is not None and cached.data.markdown == fresh.data.markdown  # type: ignore[union-attr]
        assert cached.data.metadata.model_extra["cacheState"] == "hit"  # type: ignore[index]
    with pytest.raises(LockdownCacheMissError):
        await beta.scrape.create(FAST_PAGE, lockdown=True)  # the cache is the team's own


async def test_a_page_slower_than_the_timeout_is_408(alpha: WdsClient) -> None:
    with pytest.raises(RequestTimeoutError) as info:
        await alpha.scrape.create(SLOW_PAGE)
    assert (info.value.status, info.value.code) == (408, "SCRAPE_TIMEOUT")


# --- GET /v2/scrape/{id} statuses --------------------------------------------------------------


GET_STATUSES = [
    pytest.param("beta", PermissionDeniedError, 403, id="403-another-teams-job"),
    pytest.param(UNKNOWN_ID, NotFoundError, 404, id="404-unknown-job"),
]


@pytest.mark.parametrize(("job", "error", "status"), GET_STATUSES)
async def test_get_statuses(
    alpha: WdsClient, beta: WdsClient, job: str, error: type[APIStatusError], status: int
) -> None:
    job_id = (await beta.scrape.create(FAST_PAGE)).job_id if job == "beta" else job
    failure = await assert_fails_with(lambda: alpha.scrape.get(job_id or ""), error, status)
    assert FAST_PAGE not in str(failure.body), "nothing of another team's job leaks"


async def test_get_job_id_must_be_a_uuid(service: Service, alpha: WdsClient) -> None:
    response = await assert_job_id_refused(service, lambda: alpha.scrape.get("scrape-1"), "GET", "/v2/scrape/scrape-1")
    assert response.json()["error"] == "Invalid job ID format. Job ID must be a valid UUID."


@pytest.mark.parametrize("spelling", ["hex", "braces", "urn"])
async def test_the_client_never_sends_a_job_id_the_service_refuses(
    service: Service, alpha: WdsClient, spelling: str
) -> None:
    job_id = (await alpha.scrape.create(FAST_PAGE)).job_id or ""
    written = {"hex": job_id.replace("-", ""), "braces": "{" + job_id + "}", "urn": "urn:uuid:" + job_id}[spelling]
    before = service.sent
    try:
        fetched = await alpha.scrape.get(written)  # either sent in the canonical form ...
    except RequestValidationError:
        assert service.sent == before  # ... or refused before sending
    else:
        assert fetched.job_id == job_id
