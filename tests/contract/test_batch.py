"""Batch scrape: `POST /v2/batch/scrape` and `GET /v2/batch/scrape/{id}`."""

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
    limit_params,
    refused_before_sending,
)
from tests.contract.service import BASE_URL, SITE, UNKNOWN_ID, Service
from tests.support.emulator_teams import BETA_KEY
from tui.api.client import WdsClient
from tui.api.errors import APIStatusError, BadRequestError, NotFoundError, PermissionDeniedError
from tui.contract.models import BatchScrapeStarted, BatchScrapeStatus, JobState

PAGES = [f"{SITE}/pricing", f"{SITE}/about", f"{SITE}/legal/terms"]


async def test_create_happy_path_drops_invalid_urls_by_default(alpha: WdsClient) -> None:
    started = await alpha.batch.create([*PAGES, "not a url"], formats=["markdown"])
    assert isinstance(started, BatchScrapeStarted) and started.success is True
    assert uuid.UUID(started.id).version == 4
    assert started.url == f"{BASE_URL}/v2/batch/scrape/{started.id}"
    assert started.invalid_urls == ["not a url"]


async def test_invalid_urls_fail_the_request_when_not_ignored(service: Service, alpha: WdsClient) -> None:
    """A rule only the server applies: the client sends, the 400 comes back with details."""
    with pytest.raises(BadRequestError) as info:
        await alpha.batch.create([PAGES[0], "ftp://files.test/a"], ignore_invalid_urls=False)
    assert info.value.code == "BAD_REQUEST"
    assert info.value.details == [{"path": ["urls", 1], "message": "Invalid URL: 'ftp://files.test/a'"}]
    started = await alpha.batch.create(PAGES, ignore_invalid_urls=False)
    assert started.invalid_urls is None, "without ignoring, invalidURLs is absent"


BATCH_LIMITS = [
    Limit("urls-min", "urls", {"urls": PAGES[:1]}, {"urls": []}),
    Limit("timeout-min", "timeout", {"urls": PAGES[:1], "timeout": 1000}, {"urls": PAGES[:1], "timeout": 999}),
    Limit("timeout-max", "timeout", {"urls": PAGES[:1], "timeout": 300_000}, {"urls": PAGES[:1], "timeout": 300_001}),
    Limit(
        "maxConcurrency-min",
        "maxConcurrency",
        {"urls": PAGES[:1], "maxConcurrency": 1},
        {"urls": PAGES[:1], "maxConcurrency": 0},
    ),
    Limit(
        "ignoreInvalidURLs-boolean",
        "ignoreInvalidURLs",
        {"urls": PAGES[:1], "ignoreInvalidURLs": True},
        {"urls": PAGES[:1], "ignoreInvalidURLs": "yes"},
    ),
    Limit(
        "webhook-url",
        "webhook",
        {"urls": PAGES[:1], "webhook": "http://127.0.0.1:9/hooks"},
        {"urls": PAGES[:1], "webhook": "not a url"},
    ),
    Limit(
        "formats-enum", "formats[0]", {"urls": PAGES[:1], "formats": ["links"]}, {"urls": PAGES[:1], "formats": ["pdf"]}
    ),
    Limit("minAge-min", "minAge", {"urls": PAGES[:1], "minAge": 1}, {"urls": PAGES[:1], "minAge": 0}),
]


@pytest.mark.parametrize("limit", limit_params(BATCH_LIMITS))
async def test_create_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[BatchScrapeStarted]:
        return alpha.batch.create(**body)  # urls and options in wire spelling

    started = await assert_limit(service, limit, call, "POST", "/v2/batch/scrape")
    assert isinstance(started, BatchScrapeStarted)


async def test_get_happy_path_follows_progress(service: Service, alpha: WdsClient) -> None:
    started = await alpha.batch.create(PAGES)
    begun = await alpha.batch.get(started.id)
    assert isinstance(begun, BatchScrapeStatus) and begun.status == JobState.SCRAPING and not begun.is_finished
    assert (begun.completed, begun.total, begun.data) == (0, 3, [])
    assert begun.expires_at == service.clock.now() + timedelta(hours=24)
    service.clock.advance(3600)
    done = await alpha.batch.get(started.id)
    assert done.status == JobState.COMPLETED and done.is_finished and done.progress == 1.0
    assert (done.completed, done.total, done.credits_used) == (3, 3, 3)
    assert sorted(d.metadata.source_url or "" for d in done.data) == sorted(PAGES)
    assert len({d.metadata.scrape_id for d in done.data}) == 3, "each page has its own scrape id"


async def test_get_pages_with_skip_limit_and_next(service: Service, alpha: WdsClient) -> None:
    started = await alpha.batch.create(PAGES)
    service.clock.advance(3600)
    first = await alpha.batch.get(started.id, limit=2)
    assert len(first.data) == 2 and first.next == f"{BASE_URL}/v2/batch/scrape/{started.id}?skip=2&limit=2"
    rest = await alpha.batch.get(started.id, skip=2, limit=2)
    assert len(rest.data) == 1 and rest.next is None
    everything = (await alpha.batch.get(started.id)).data
    assert [d.metadata.scrape_id for d in first.data + rest.data] == [d.metadata.scrape_id for d in everything]


@pytest.mark.parametrize(("query", "field"), [({"skip": -1}, "skip"), ({"limit": 0}, "limit")])
async def test_get_paging_limits(service: Service, alpha: WdsClient, query: dict[str, int], field: str) -> None:
    started = await alpha.batch.create(PAGES[:1])
    await refused_before_sending(service, lambda: alpha.batch.get(started.id, **query), field)
    response = await service.raw("GET", f"/v2/batch/scrape/{started.id}", params=query)
    assert response.status_code == 400 and response.json()["details"][0]["path"] == [field]


async def expired(service: Service) -> str:
    """404 "Job expired.": a batch is kept 24 hours."""
    job_id = (await service.client().batch.create(PAGES[:1])).id
    service.clock.advance(24 * 3600 + 1)
    return job_id


async def another_teams(service: Service) -> str:
    """403: the batch belongs to another team."""
    return (await service.client(BETA_KEY).batch.create(PAGES[:1])).id


async def unknown(service: Service) -> str:
    """404: no such batch."""
    return UNKNOWN_ID


GET_STATUSES = [
    pytest.param(another_teams, PermissionDeniedError, 403, id="403-another-teams-job"),
    pytest.param(unknown, NotFoundError, 404, id="404-unknown-job"),
    pytest.param(expired, NotFoundError, 404, id="404-expired"),
]


@pytest.mark.parametrize(("scenario", "error", "status"), GET_STATUSES)
async def test_get_statuses(
    service: Service, alpha: WdsClient, scenario: Any, error: type[APIStatusError], status: int
) -> None:
    job_id = await scenario(service)
    await assert_fails_with(lambda: alpha.batch.get(job_id), error, status)


async def test_get_job_id_must_be_a_uuid(service: Service, alpha: WdsClient) -> None:
    await assert_job_id_refused(service, lambda: alpha.batch.get("batch-1"), "GET", "/v2/batch/scrape/batch-1")
