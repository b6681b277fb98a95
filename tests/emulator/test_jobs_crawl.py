"""Crawls: creation, progress with the clock, the active list, paging, options, failures, teams."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

HOME = "https://example.com/"


async def start(client: httpx.AsyncClient, key: str = ALPHA_KEY, **body: Any) -> str:
    response = await client.post("/v2/crawl", json={"url": HOME, **body}, headers=auth(key))
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


async def status(client: httpx.AsyncClient, crawl_id: str, key: str = ALPHA_KEY, **params: Any) -> dict[str, Any]:
    response = await client.get(f"/v2/crawl/{crawl_id}", params=params, headers=auth(key))
    assert response.status_code == 200, response.text
    return dict(response.json())


async def finished(client: httpx.AsyncClient, clock: ManualClock, **body: Any) -> list[str]:
    """Run a crawl to its end and return the URLs it scraped."""
    crawl_id = await start(client, **body)
    clock.advance(3600)
    result = await status(client, crawl_id, limit=1000)
    assert result["status"] == "completed"
    return [doc["metadata"]["url"] for doc in result["data"]]


async def test_crawl_answers_id_and_status_url(client: httpx.AsyncClient) -> None:
    response = await client.post("/v2/crawl", json={"url": HOME, "limit": 5}, headers=auth(ALPHA_KEY))
    body = response.json()
    assert response.status_code == 200 and body["success"] is True
    assert uuid.UUID(body["id"]).version == 4
    assert body["url"] == f"http://emulator.test/v2/crawl/{body['id']}"


async def test_crawl_progresses_with_the_clock(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, limit=10)
    first = await status(client, crawl_id)
    assert first["status"] == "scraping" and first["completed"] == 0 and first["total"] == 10
    assert first["data"] == [] and first["creditsUsed"] == 0
    clock.advance(2)  # two workers, one page per second each
    middle = await status(client, crawl_id)
    assert middle["status"] == "scraping" and middle["completed"] == 4 and len(middle["data"]) == 4
    clock.advance(3)
    done = await status(client, crawl_id)
    assert done["status"] == "completed" and done["completed"] == done["total"] == 10
    assert len(done["data"]) == 10 and done["creditsUsed"] >= 10
    assert "next" not in done and done["expiresAt"].endswith("Z")
    ids = [doc["metadata"]["scrapeId"] for doc in done["data"]]
    assert len(set(ids)) == 10


async def test_active_list_shrinks_as_crawls_finish(
    client: httpx.AsyncClient, clock: ManualClock, emulator: Emulator
) -> None:
    short = await start(client, limit=2)
    long = await start(
        client, limit=20, scrapeOptions={"formats": ["markdown"], "profile": {"name": "p1", "saveChanges": False}}
    )
    await start(client, BETA_KEY, limit=20)
    active = (await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))).json()
    assert active["success"] is True
    assert [c["id"] for c in active["crawls"]] == [short, long]
    record = active["crawls"][1]
    assert record["teamId"] == emulator.team_by_key(ALPHA_KEY).id and record["url"] == HOME
    assert record["options"]["scrapeOptions"]["profile"] == {"name": "p1", "saveChanges": False}
    assert record["options"]["scrapeOptions"]["timeout"] == 60000 and record["options"]["limit"] == 20
    assert record["created_at"].endswith("Z")
    clock.advance(1.5)
    assert [c["id"] for c in (await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))).json()["crawls"]] == [long]
    clock.advance(60)
    assert (await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))).json()["crawls"] == []


async def test_status_paging_with_skip_limit_and_next(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, limit=7)
    clock.advance(60)
    page = await status(client, crawl_id, limit=3)
    assert len(page["data"]) == 3 and page["next"] == f"http://emulator.test/v2/crawl/{crawl_id}?skip=3&limit=3"
    urls = [doc["metadata"]["url"] for doc in page["data"]]
    while "next" in page:
        page = (await client.get(page["next"], headers=auth(ALPHA_KEY))).json()
        urls += [doc["metadata"]["url"] for doc in page["data"]]
    assert len(urls) == len(set(urls)) == 7
    assert (await client.get(f"/v2/crawl/{crawl_id}", params={"limit": 0}, headers=auth(ALPHA_KEY))).status_code == 400
    assert (await client.get(f"/v2/crawl/{crawl_id}", params={"skip": -1}, headers=auth(ALPHA_KEY))).status_code == 400


async def test_crawl_lookup_errors_and_isolation(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, limit=3)
    assert (await client.get(f"/v2/crawl/{crawl_id}", headers=auth(BETA_KEY))).status_code == 403
    unknown = await client.get(f"/v2/crawl/{uuid.uuid4()}", headers=auth(ALPHA_KEY))
    assert unknown.status_code == 404 and unknown.json()["error"] == "Job not found."
    assert (await client.get("/v2/crawl/123", headers=auth(ALPHA_KEY))).status_code == 400
    clock.advance(24 * 3600 + 1)
    expired = await client.get(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
    assert expired.status_code == 404 and expired.json()["error"] == "Job expired."


async def test_a_scrape_id_is_not_a_crawl(client: httpx.AsyncClient) -> None:
    scrape = await client.post("/v2/scrape", json={"url": HOME}, headers=auth(ALPHA_KEY))
    job_id = scrape.json()["data"]["metadata"]["scrapeId"]
    assert (await client.get(f"/v2/crawl/{job_id}", headers=auth(ALPHA_KEY))).status_code == 404


async def test_limit(client: httpx.AsyncClient, clock: ManualClock) -> None:
    assert len(await finished(client, clock, limit=1)) == 1
    assert (await client.post("/v2/crawl", json={"url": HOME, "limit": 0}, headers=auth(ALPHA_KEY))).status_code == 400


async def test_include_and_exclude_paths(client: httpx.AsyncClient, clock: ManualClock) -> None:
    only_blog = await finished(client, clock, includePaths=["^/blog/"])
    assert len(only_blog) > 3 and all("/blog/" in url for url in only_blog[1:])
    no_blog = await finished(client, clock, excludePaths=["^/blog"])
    assert all("/blog" not in url for url in no_blog)
    bad = await client.post("/v2/crawl", json={"url": HOME, "includePaths": ["("]}, headers=auth(ALPHA_KEY))
    assert bad.status_code == 400 and bad.json()["details"][0]["path"] == ["includePaths", 0]


async def test_depth_limits(client: httpx.AsyncClient, clock: ManualClock) -> None:
    shallow = await finished(client, clock, maxDepth=1, sitemap="skip")
    assert all(url.rstrip("/").count("/") <= 3 for url in shallow)
    assert any(url.count("/") == 4 for url in await finished(client, clock, maxDepth=2, sitemap="skip"))
    just_start = await finished(client, clock, maxDiscoveryDepth=0, sitemap="skip")
    assert just_start == [HOME]
    one_hop = await finished(client, clock, maxDiscoveryDepth=1, sitemap="skip")
    assert 1 < len(one_hop) < len(await finished(client, clock, sitemap="skip"))


async def test_subdomains_and_query_parameters(client: httpx.AsyncClient, clock: ManualClock) -> None:
    same_host = await finished(client, clock)
    assert all(url.startswith("https://example.com/") for url in same_host)
    with_subdomains = await finished(client, clock, allowSubdomains=True)
    assert any(url.startswith("https://docs.example.com/") for url in with_subdomains)
    assert any("?" in url for url in same_host)
    assert not any("?" in url for url in await finished(client, clock, ignoreQueryParameters=True))


async def test_sitemap_modes(client: httpx.AsyncClient, clock: ManualClock) -> None:
    included = await finished(client, clock)
    skipped = await finished(client, clock, sitemap="skip")
    only = await finished(client, clock, sitemap="only")
    assert any("/landing/" in url for url in included)  # landing pages are only in the sitemap
    assert not any("/landing/" in url for url in skipped)
    assert not any("/careers/" in url for url in only)  # careers pages are only linked


async def test_crawl_below_a_path_stays_there(client: httpx.AsyncClient, clock: ManualClock) -> None:
    urls = await finished(client, clock, url="https://example.com/blog")
    assert all(url.startswith("https://example.com/blog") for url in urls)
    assert any(
        "/about" in url for url in await finished(client, clock, url="https://example.com/blog", crawlEntireDomain=True)
    )


async def test_robots_blocked_start_fails_the_crawl(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, url="https://example.com/admin")
    assert (await status(client, crawl_id))["status"] == "scraping"
    clock.advance(1)
    failed = await status(client, crawl_id)
    assert failed["status"] == "failed" and failed["total"] == 0 and failed["data"] == []
    errors = (await client.get(f"/v2/crawl/{crawl_id}/errors", headers=auth(ALPHA_KEY))).json()
    assert errors["robotsBlocked"] == ["https://example.com/admin"]
    assert (await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))).json()["crawls"] == []


async def test_errors_endpoint_lists_pages_that_timed_out(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, crawlEntireDomain=True)
    clock.advance(3600)
    errors = (await client.get(f"/v2/crawl/{crawl_id}/errors", headers=auth(ALPHA_KEY))).json()
    assert any("/reports/" in e["url"] and "timed out" in e["error"] for e in errors["errors"])
    assert any("/admin" in url for url in errors["robotsBlocked"])


async def test_cancel_freezes_progress(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, limit=20)
    clock.advance(2)
    cancelled = await client.delete(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    clock.advance(60)
    after = await status(client, crawl_id)
    assert after["status"] == "cancelled" and after["completed"] == 4
    assert (await client.delete(f"/v2/crawl/{crawl_id}", headers=auth(BETA_KEY))).status_code == 403


async def test_delay_slows_a_crawl(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl_id = await start(client, limit=5, delay=4)
    clock.advance(8)
    assert (await status(client, crawl_id))["completed"] == 2


async def test_prompt_fills_options_that_the_request_leaves_out(client: httpx.AsyncClient, clock: ManualClock) -> None:
    urls = await finished(client, clock, prompt="only blog posts, up to 4 pages")
    assert len(urls) == 4 and all("/blog" in url for url in urls[1:])
    explicit = await finished(client, clock, prompt="only blog posts, up to 4 pages", limit=2)
    assert len(explicit) == 2


async def test_crawl_is_recorded_and_billed(client: httpx.AsyncClient, emulator: Emulator) -> None:
    team = emulator.team_by_key(ALPHA_KEY)
    before = team.credits_remaining
    crawl_id = await start(client, limit=3, includePaths=["^/blog/"])
    entries = (await client.get("/v2/team/activity", params={"endpoint": "crawl"}, headers=auth(ALPHA_KEY))).json()
    assert [(e["id"], e["target"]) for e in entries["data"]] == [(crawl_id, HOME)]
    assert before - team.credits_remaining == 3


@pytest.mark.parametrize("field", ["maxDepth", "maxDiscoveryDepth"])
async def test_negative_depth_is_refused(client: httpx.AsyncClient, field: str) -> None:
    response = await client.post("/v2/crawl", json={"url": HOME, field: -1}, headers=auth(ALPHA_KEY))
    assert response.status_code == 400 and response.json()["code"] == "BAD_REQUEST"
