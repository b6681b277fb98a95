"""Batch scrape, map, crawl params preview and extract status."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator

URLS = ["https://example.com/", "https://example.com/about", "https://example.com/contact"]


async def post(client: httpx.AsyncClient, path: str, key: str = ALPHA_KEY, **body: Any) -> httpx.Response:
    return await client.post(path, json=body, headers=auth(key))


# -- batch scrape ----------------------------------------------------------------------------


async def test_batch_scrape_runs_every_url(client: httpx.AsyncClient, clock: ManualClock) -> None:
    response = await post(client, "/v2/batch/scrape", urls=URLS)
    body = response.json()
    assert response.status_code == 200 and body["success"] is True
    assert body["invalidURLs"] == [] and body["url"] == f"http://emulator.test/v2/batch/scrape/{body['id']}"
    first = (await client.get(body["url"], headers=auth(ALPHA_KEY))).json()
    assert first["status"] == "scraping" and first["total"] == 3 and first["completed"] == 0
    clock.advance(2)
    done = (await client.get(body["url"], headers=auth(ALPHA_KEY))).json()
    assert done["status"] == "completed" and done["completed"] == 3 and done["creditsUsed"] == 3
    assert [doc["metadata"]["sourceURL"] for doc in done["data"]] == URLS


async def test_invalid_urls_are_dropped_by_default(client: httpx.AsyncClient, clock: ManualClock) -> None:
    body = (await post(client, "/v2/batch/scrape", urls=[*URLS, "not a url", "ftp://x.org/"])).json()
    assert body["invalidURLs"] == ["not a url", "ftp://x.org/"]
    clock.advance(10)
    assert (await client.get(body["url"], headers=auth(ALPHA_KEY))).json()["total"] == 3


async def test_invalid_urls_fail_the_request_when_not_ignored(client: httpx.AsyncClient) -> None:
    response = await post(client, "/v2/batch/scrape", urls=[*URLS, "not a url"], ignoreInvalidURLs=False)
    body = response.json()
    assert response.status_code == 400 and body["code"] == "BAD_REQUEST" and "invalidURLs" not in body
    assert body["details"] == [{"path": ["urls", 3], "message": "Invalid URL: 'not a url'"}]
    valid = await post(client, "/v2/batch/scrape", urls=URLS, ignoreInvalidURLs=False)
    assert valid.status_code == 200 and "invalidURLs" not in valid.json()


async def test_batch_validation(client: httpx.AsyncClient) -> None:
    assert (await post(client, "/v2/batch/scrape", urls=[])).status_code == 400
    assert (await post(client, "/v2/batch/scrape", urls=["nope"])).status_code == 400
    assert (await post(client, "/v2/batch/scrape", urls=URLS, timeout=999)).status_code == 400
    assert (await post(client, "/v2/batch/scrape", urls=URLS, timeout=300001)).status_code == 400
    assert (await post(client, "/v2/batch/scrape", urls=URLS, timeout=300000)).status_code == 200
    assert (await post(client, "/v2/batch/scrape", urls=URLS, maxConcurrency=0)).status_code == 400


async def test_max_concurrency_paces_the_batch(client: httpx.AsyncClient, clock: ManualClock) -> None:
    body = (await post(client, "/v2/batch/scrape", urls=URLS, maxConcurrency=1)).json()
    clock.advance(2)
    assert (await client.get(body["url"], headers=auth(ALPHA_KEY))).json()["completed"] == 2


async def test_batch_failures_and_isolation(client: httpx.AsyncClient, clock: ManualClock, emulator: Emulator) -> None:
    slow = next(p.url for p in emulator.sites.site("example.com").pages() if p.section == "reports")
    body = (await post(client, "/v2/batch/scrape", urls=[URLS[0], slow])).json()
    clock.advance(5)
    status = (await client.get(body["url"], headers=auth(ALPHA_KEY))).json()
    assert status["completed"] == 2 and len(status["data"]) == 1
    errors = (await client.get(f"{body['url']}/errors", headers=auth(ALPHA_KEY))).json()
    assert [e["url"] for e in errors["errors"]] == [slow]
    assert (await client.get(body["url"], headers=auth(BETA_KEY))).status_code == 403
    assert (await client.get(f"/v2/batch/scrape/{uuid.uuid4()}", headers=auth(ALPHA_KEY))).status_code == 404
    entries = (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).json()["data"]
    assert entries[0]["endpoint"] == "batch_scrape" and entries[0]["id"] == body["id"]


# -- map -----------------------------------------------------------------------------------------


async def links(client: httpx.AsyncClient, **body: Any) -> list[dict[str, str]]:
    response = await post(client, "/v2/map", url="https://example.com", **body)
    assert response.status_code == 200, response.text
    assert response.json()["success"] is True
    return list(response.json()["links"])


async def test_map_lists_the_site(client: httpx.AsyncClient) -> None:
    found = await links(client)
    assert found[0]["url"] == "https://example.com/" and found[0]["title"] and found[0]["description"]
    assert all(set(link) == {"url", "title", "description"} for link in found)
    urls = [link["url"] for link in found]
    assert len(urls) == len(set(urls))
    assert any(url.startswith("https://docs.example.com/") for url in urls)  # includeSubdomains defaults to true
    assert not any("?" in url for url in urls)  # ignoreQueryParameters defaults to true
    assert not any("github.com" in url for url in urls)


async def test_map_options(client: httpx.AsyncClient) -> None:
    default = {link["url"] for link in await links(client)}
    no_sub = {link["url"] for link in await links(client, includeSubdomains=False)}
    assert no_sub < default and all(url.startswith("https://example.com") for url in no_sub)
    with_query = {link["url"] for link in await links(client, ignoreQueryParameters=False)}
    assert any("?" in url for url in with_query)
    skip = {link["url"] for link in await links(client, sitemap="skip")}
    only = {link["url"] for link in await links(client, sitemap="only")}
    assert any("/landing/" in url for url in only) and not any("/landing/" in url for url in skip)
    assert any("/careers/" in url for url in skip) and not any("/careers/" in url for url in only)
    assert len(await links(client, limit=5)) == 5


async def test_map_search_orders_by_relevance(client: httpx.AsyncClient, emulator: Emulator) -> None:
    product = next(
        p for p in emulator.sites.site("example.com").pages() if p.section == "products" and p.path != "/products"
    )
    found = await links(client, search=product.title.split(" | ")[0])
    assert found[0]["url"] == product.url
    assert len(found) == len(await links(client))  # ordered, not filtered


@pytest.mark.parametrize(("limit", "status"), [(0, 400), (1, 200), (100000, 200), (100001, 400)])
async def test_map_limit_boundaries(client: httpx.AsyncClient, limit: int, status: int) -> None:
    assert (await post(client, "/v2/map", url="https://example.com", limit=limit)).status_code == status


async def test_map_timeout_and_billing(client: httpx.AsyncClient, emulator: Emulator) -> None:
    timed_out = await post(client, "/v2/map", url="https://example.com", timeout=10)
    assert timed_out.status_code == 408
    team = emulator.team_by_key(ALPHA_KEY)
    before = team.credits_remaining
    await links(client, timeout=60000)
    assert before - team.credits_remaining == 1
    entries = (await client.get("/v2/team/activity", params={"endpoint": "map"}, headers=auth(ALPHA_KEY))).json()
    assert [e["target"] for e in entries["data"]] == ["https://example.com"]


# -- crawl params preview ---------------------------------------------------------------------------


async def preview(client: httpx.AsyncClient, prompt: str) -> dict[str, Any]:
    response = await post(client, "/v2/crawl/params-preview", url="https://example.com", prompt=prompt)
    assert response.status_code == 200, response.text
    return dict(response.json()["data"])


async def test_preview_reads_the_prompt(client: httpx.AsyncClient) -> None:
    data = await preview(client, "Only blog posts, up to 50 pages, depth 2, include subdomains, ignore robots.txt")
    assert data["url"] == "https://example.com"
    assert data["includePaths"] == ["^/blog(/.*)?$"] and data["limit"] == 50 and data["maxDepth"] == 2
    assert data["allowSubdomains"] is True and data["ignoreRobotsTxt"] is True
    assert data["excludePaths"] == [] and data["sitemap"] == "include"


async def test_preview_more_phrases(client: httpx.AsyncClient) -> None:
    data = await preview(
        client,
        "the entire site except careers and legal; skip the sitemap; "
        "wait 2 seconds between requests; at most twenty pages; 1 click from the home page",
    )
    assert data["crawlEntireDomain"] is True and data["sitemap"] == "skip" and data["delay"] == 2
    assert data["excludePaths"] == ["^/careers(/.*)?$", "^/legal(/.*)?$"]
    assert data["limit"] == 20 and data["maxDiscoveryDepth"] == 1
    plain = await preview(client, "hello there")
    assert plain["limit"] == 10000 and plain["includePaths"] == [] and plain["allowSubdomains"] is False


async def test_preview_prompt_limits(client: httpx.AsyncClient) -> None:
    ok = await post(client, "/v2/crawl/params-preview", url="https://example.com", prompt="x" * 10000)
    assert ok.status_code == 200
    long = await post(client, "/v2/crawl/params-preview", url="https://example.com", prompt="x" * 10001)
    assert long.status_code == 400 and long.json()["details"][0]["path"] == ["prompt"]
    assert (await post(client, "/v2/crawl/params-preview", url="nope", prompt="x")).status_code == 400


# -- extract status -----------------------------------------------------------------------------------


async def test_extract_status_says_there_is_no_llm(client: httpx.AsyncClient, emulator: Emulator) -> None:
    team = emulator.team_by_key(ALPHA_KEY)
    job = emulator.jobs.create_agent_job(Caller(team, ALPHA_KEY), "List the prices", ["https://example.com/"])
    response = await client.get(f"/v2/extract/{job.id}", headers=auth(ALPHA_KEY))
    body = response.json()
    assert response.status_code == 200 and body["status"] == "failed" and "LLM" in body["error"]
    assert body["data"] is None
    assert (await client.get(f"/v2/extract/{job.id}", headers=auth(BETA_KEY))).status_code == 403
    assert (await client.get(f"/v2/extract/{uuid.uuid4()}", headers=auth(ALPHA_KEY))).status_code == 404
    entries = (await client.get("/v2/team/activity", params={"endpoint": "agent"}, headers=auth(ALPHA_KEY))).json()
    assert [e["id"] for e in entries["data"]] == [job.id]


async def test_seeded_history_is_backed_by_real_jobs(make_emulator: Any) -> None:
    emulator = make_emulator(history=True)
    team = emulator.team_by_key(ALPHA_KEY)
    jobs = emulator.jobs.for_team(team.id)
    kinds = {job.kind for job in jobs}
    assert {"scrape", "crawl", "batch_scrape", "agent"} <= kinds
    assert any(job.failure is not None for job in jobs if job.kind == "scrape")
    again = make_emulator(history=True)
    assert [job.id for job in again.jobs.for_team(team.id)] == [job.id for job in jobs]
    await emulator.aclose()
    await again.aclose()
