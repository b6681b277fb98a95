"""POST /v2/scrape and GET /v2/scrape/{id}: documents, the cache, failures, limits, teams."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.jobs.scrape_engine import FailureKind
from tui.emulator.service import Emulator

ABOUT = "https://example.com/about"


async def scrape(client: httpx.AsyncClient, key: str = ALPHA_KEY, **body: object) -> httpx.Response:
    return await client.post("/v2/scrape", json=body, headers=auth(key))


def slow_url(emulator: Emulator) -> str:
    return next(p.url for p in emulator.sites.site("example.com").pages() if p.section == "reports")


async def test_scrape_returns_a_document_with_its_job_id(client: httpx.AsyncClient) -> None:
    response = await scrape(client, url=ABOUT, formats=["markdown", "html", "rawHtml", "links"])
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    data = body["data"]
    meta = data["metadata"]
    assert uuid.UUID(meta["scrapeId"]).version == 4
    assert meta["sourceURL"] == ABOUT and meta["url"] == ABOUT and meta["statusCode"] == 200
    assert meta["title"].startswith("About")
    assert data["markdown"].startswith("# About") and data["html"].startswith("<main>")
    assert data["rawHtml"].startswith("<!DOCTYPE html>") and isinstance(data["links"], list)


async def test_markdown_is_the_default_format(client: httpx.AsyncClient) -> None:
    data = (await scrape(client, url=ABOUT)).json()["data"]
    assert "markdown" in data and "html" not in data and "links" not in data


async def test_get_scrape_returns_the_same_document(client: httpx.AsyncClient) -> None:
    data = (await scrape(client, url=ABOUT)).json()["data"]
    job_id = data["metadata"]["scrapeId"]
    again = await client.get(f"/v2/scrape/{job_id}", headers=auth(ALPHA_KEY_2))  # another key of the same team
    assert again.status_code == 200
    assert again.json() == {"success": True, "data": data}


async def test_get_scrape_errors(client: httpx.AsyncClient) -> None:
    job_id = (await scrape(client, url=ABOUT)).json()["data"]["metadata"]["scrapeId"]
    other_team = await client.get(f"/v2/scrape/{job_id}", headers=auth(BETA_KEY))
    assert other_team.status_code == 403 and other_team.json()["code"] == "FORBIDDEN"
    unknown = await client.get(f"/v2/scrape/{uuid.uuid4()}", headers=auth(ALPHA_KEY))
    assert unknown.status_code == 404 and unknown.json()["error"] == "Job not found."
    malformed = await client.get("/v2/scrape/not-a-uuid", headers=auth(ALPHA_KEY))
    assert malformed.status_code == 400
    assert malformed.json()["error"] == "Invalid job ID format. Job ID must be a valid UUID."
    assert (await client.get(f"/v2/scrape/{job_id}")).status_code == 401


async def test_scrape_is_recorded_in_activity_and_usage(client: httpx.AsyncClient, emulator: Emulator) -> None:
    job_id = (await scrape(client, url=ABOUT)).json()["data"]["metadata"]["scrapeId"]
    entries = (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).json()["data"]
    assert [(e["id"], e["endpoint"], e["target"]) for e in entries] == [(job_id, "scrape", ABOUT)]
    periods = (await client.get("/v2/team/token-usage/historical", headers=auth(ALPHA_KEY))).json()["periods"]
    assert sum(p.get("totalTokens", p.get("tokensUsed", 0)) for p in periods) == 15
    beta = (await client.get("/v2/team/activity", headers=auth(BETA_KEY))).json()["data"]
    assert beta == []


async def test_slow_page_answers_408_and_is_not_billed(client: httpx.AsyncClient, emulator: Emulator) -> None:
    response = await scrape(client, url=slow_url(emulator))
    assert response.status_code == 408
    assert response.json()["code"] == "SCRAPE_TIMEOUT" and response.json()["success"] is False
    job = emulator.jobs.for_team(emulator.team_by_key(ALPHA_KEY).id)[0]
    assert job.failure.kind == FailureKind.TIMEOUT and job.credits == 0
    # The failed job can still be fetched; its metadata says why.
    meta = (await client.get(f"/v2/scrape/{job.id}", headers=auth(ALPHA_KEY))).json()["data"]["metadata"]
    assert meta["statusCode"] == 408 and "timed out" in meta["error"]
    ok = await scrape(client, url=slow_url(emulator), timeout=300000)
    assert ok.status_code == 200


async def test_target_404_is_a_successful_scrape_of_an_error_page(client: httpx.AsyncClient) -> None:
    response = await scrape(client, url="https://example.com/this/page/is/gone")
    assert response.status_code == 200
    meta = response.json()["data"]["metadata"]
    assert meta["statusCode"] == 404 and "404" in meta["error"]


@pytest.mark.parametrize(("timeout", "status"), [(999, 400), (1000, 200), (300000, 200), (300001, 400)])
async def test_timeout_boundaries(client: httpx.AsyncClient, emulator: Emulator, timeout: int, status: int) -> None:
    fast = next(p.url for p in emulator.sites.site("example.com").pages() if p.load_ms < 1000 and p.section == "blog")
    response = await scrape(client, url=fast, timeout=timeout)
    assert response.status_code == status
    if status == 400:
        body = response.json()
        assert body["code"] == "BAD_REQUEST" and body["details"][0]["path"][0] == "timeout"


async def test_scrape_validation(client: httpx.AsyncClient) -> None:
    assert (await scrape(client, url="ftp://example.com/")).status_code == 400
    assert (await scrape(client)).status_code == 400
    assert (await scrape(client, url=ABOUT, minAge=0)).status_code == 400
    assert (await scrape(client, url=ABOUT, proxy="stealthy")).status_code == 400
    bad_json = await client.post("/v2/scrape", content=b"{", headers=auth(ALPHA_KEY))
    assert bad_json.status_code == 400 and bad_json.json()["code"] == "BAD_REQUEST_INVALID_JSON"


# -- the cache -----------------------------------------------------------------------------


async def test_repeat_scrape_is_a_cache_hit_within_max_age(client: httpx.AsyncClient, clock: ManualClock) -> None:
    first = (await scrape(client, url=ABOUT)).json()["data"]
    assert first["metadata"]["cacheState"] == "miss"
    clock.advance(3600)
    second = (await scrape(client, url=ABOUT, formats=["links"])).json()["data"]
    assert second["metadata"]["cacheState"] == "hit" and "cachedAt" in second["metadata"]
    assert second["metadata"]["scrapeId"] != first["metadata"]["scrapeId"]
    assert "links" in second and "markdown" not in second  # re-rendered in the formats asked now
    fresh = (await scrape(client, url=ABOUT, maxAge=0)).json()["data"]
    assert fresh["metadata"]["cacheState"] == "miss"
    clock.advance(2 * 86400 + 1)
    expired = (await scrape(client, url=ABOUT)).json()["data"]
    assert expired["metadata"]["cacheState"] == "miss"


async def test_cache_is_per_team(client: httpx.AsyncClient) -> None:
    await scrape(client, url=ABOUT)
    beta = (await scrape(client, BETA_KEY, url=ABOUT)).json()["data"]
    assert beta["metadata"]["cacheState"] == "miss"


async def test_min_age_without_cached_data_is_404(client: httpx.AsyncClient, clock: ManualClock) -> None:
    miss = await scrape(client, url=ABOUT, minAge=1)
    assert miss.status_code == 404 and miss.json()["code"] == "SCRAPE_NO_CACHED_DATA"
    await scrape(client, url=ABOUT)
    clock.advance(1)
    hit = await scrape(client, url=ABOUT, minAge=1)
    assert hit.status_code == 200 and hit.json()["data"]["metadata"]["cacheState"] == "hit"
    too_young = await scrape(client, url=ABOUT, minAge=60_000)
    assert too_young.status_code == 404 and too_young.json()["code"] == "SCRAPE_NO_CACHED_DATA"


async def test_lockdown_miss_then_hit_and_their_credits(client: httpx.AsyncClient, emulator: Emulator) -> None:
    team = emulator.team_by_key(ALPHA_KEY)
    before = team.credits_remaining
    miss = await scrape(client, url=ABOUT, lockdown=True)
    assert miss.status_code == 404 and miss.json()["code"] == "SCRAPE_LOCKDOWN_CACHE_MISS"
    assert before - team.credits_remaining == 1
    await scrape(client, url=ABOUT)  # fills the cache: 1 credit
    hit = await scrape(client, url=ABOUT, lockdown=True)
    assert hit.status_code == 200 and hit.json()["data"]["metadata"]["cacheState"] == "hit"
    assert before - team.credits_remaining == 1 + 1 + 5


async def test_sensitive_scrapes_are_not_cached(client: httpx.AsyncClient) -> None:
    await scrape(client, url=ABOUT, headers={"Cookie": "session=1"})
    assert (await scrape(client, url=ABOUT, minAge=1)).status_code == 404
    await scrape(client, url=ABOUT, storeInCache=False)
    assert (await scrape(client, url=ABOUT, minAge=1)).status_code == 404


async def test_enhanced_proxy_costs_five_credits(client: httpx.AsyncClient, emulator: Emulator) -> None:
    team = emulator.team_by_key(ALPHA_KEY)
    before = team.credits_remaining
    data = (await scrape(client, url=ABOUT, proxy="enhanced")).json()["data"]
    assert data["metadata"]["creditsUsed"] == 5 and before - team.credits_remaining == 5


async def test_failing_scrape_recipes_fail_for_their_reason(emulator: Emulator) -> None:
    from tui.emulator.core.teams import Caller

    team = emulator.team_by_key(ALPHA_KEY)
    for kind in (
        FailureKind.TIMEOUT,
        FailureKind.TARGET_NOT_FOUND,
        FailureKind.TARGET_SERVER_ERROR,
        FailureKind.ANTI_BOT,
        FailureKind.LOCKDOWN_MISS,
        FailureKind.NO_CACHED_DATA,
        FailureKind.JS_NOT_RENDERED,
    ):
        job = emulator.jobs.failing_scrape(Caller(team, ALPHA_KEY), kind, "shop.example.net")
        assert job.failure is not None and job.failure.kind == kind
