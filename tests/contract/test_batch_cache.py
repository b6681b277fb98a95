"""Batch scrape and crawl through the team's cache: `maxAge`, `minAge`, `lockdown`, `storeInCache`.

Each URL of a batch and each page of a crawl follows the rules of a single
`POST /v2/scrape` with the job's scrape options. Where a single scrape answers
404 `SCRAPE_LOCKDOWN_CACHE_MISS` / `SCRAPE_NO_CACHED_DATA`, the job's status has
a document for that URL with `metadata.statusCode` 404, the same `error`
message and the `code`; its errors list names the URL with the code too.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.contract.service import SITE, Service
from tui.api.client import WdsClient
from tui.api.errors import APIStatusError
from tui.contract.models import Document, JobState

CACHED = f"{SITE}/pricing"
NEVER_CACHED = f"{SITE}/about"
ALSO_NEVER_CACHED = f"{SITE}/legal/terms"


def extra(document: Document, name: str) -> Any:
    """A metadata field our model keeps as an extra (`cacheState`, `cachedAt`, `creditsUsed`)."""
    return (document.metadata.model_extra or {}).get(name)


def by_url(documents: list[Document]) -> dict[str, Document]:
    return {d.metadata.source_url or "": d for d in documents}


async def single_scrape_error(client: WdsClient, url: str, **options: Any) -> APIStatusError:
    """The error a single scrape of `url` with `options` answers."""
    with pytest.raises(APIStatusError) as info:
        await client.scrape.create(url, **options)
    return info.value


async def finished_batch(service: Service, client: WdsClient, urls: list[str], **options: Any) -> Any:
    started = await client.batch.create(urls, **options)
    service.clock.advance(3600)
    status = await client.batch.get(started.id)
    assert status.status == JobState.COMPLETED
    return started.id, status


async def batch_errors(service: Service, job_id: str) -> list[dict[str, Any]]:
    answer = await service.raw("GET", f"/v2/batch/scrape/{job_id}/errors")
    assert answer.status_code == 200
    return list(answer.json()["errors"])


def assert_hit(document: Document, markdown: str | None) -> None:
    assert document.metadata.status_code == 200 and document.metadata.error is None
    assert extra(document, "cacheState") == "hit" and extra(document, "cachedAt")
    assert document.markdown == markdown, "served from the cache: the page as it was scraped"


def assert_miss_404(document: Document, code: str, single: APIStatusError) -> None:
    """The URL's entry says what a single scrape of it answers: 404, the message, the code."""
    assert (single.status, single.code) == (404, code)
    assert document.metadata.status_code == 404
    assert document.metadata.error == single.message
    assert document.metadata.code == code and extra(document, "cacheState") == "miss"
    assert document.markdown is None, "never scraped: the target is not contacted"
    assert document.metadata.scrape_id, "each URL of the batch keeps its own scrape id"


async def test_lockdown_batch_serves_the_cached_url_and_404s_the_never_cached_one(
    service: Service, alpha: WdsClient
) -> None:
    fresh = await alpha.scrape.create(CACHED)
    single = await single_scrape_error(alpha, NEVER_CACHED, lockdown=True)
    job_id, status = await finished_batch(service, alpha, [CACHED, NEVER_CACHED], lockdown=True)
    docs = by_url(status.data)
    assert len(status.data) == 2 and status.total == 2
    assert_hit(docs[CACHED], fresh.data.markdown)  # type: ignore[union-attr]
    assert_miss_404(docs[NEVER_CACHED], "SCRAPE_LOCKDOWN_CACHE_MISS", single)
    assert status.credits_used == 5 + 1, "lockdown: 5 credits a hit, 1 a miss, as a single scrape"
    assert [(e["url"], e["code"]) for e in await batch_errors(service, job_id)] == [
        (NEVER_CACHED, "SCRAPE_LOCKDOWN_CACHE_MISS")
    ]


async def test_min_age_batch_serves_old_enough_entries_and_404s_the_rest(service: Service, alpha: WdsClient) -> None:
    fresh = await alpha.scrape.create(CACHED)
    service.clock.advance(60)
    single = await single_scrape_error(alpha, NEVER_CACHED, min_age=1)
    job_id, status = await finished_batch(service, alpha, [CACHED, NEVER_CACHED], min_age=1)
    docs = by_url(status.data)
    assert_hit(docs[CACHED], fresh.data.markdown)  # type: ignore[union-attr]
    assert_miss_404(docs[NEVER_CACHED], "SCRAPE_NO_CACHED_DATA", single)
    assert status.credits_used == 1 + 0, "minAge: 1 credit a hit, nothing for a miss"
    assert [e["code"] for e in await batch_errors(service, job_id)] == ["SCRAPE_NO_CACHED_DATA"]


async def test_min_age_refuses_an_entry_younger_than_asked(service: Service, alpha: WdsClient) -> None:
    await alpha.scrape.create(CACHED)
    service.clock.advance(10)
    single = await single_scrape_error(alpha, CACHED, min_age=60_000)
    _, status = await finished_batch(service, alpha, [CACHED], min_age=60_000)
    assert_miss_404(status.data[0], "SCRAPE_NO_CACHED_DATA", single)


async def test_max_age_serves_a_young_enough_entry_and_scrapes_the_rest(service: Service, alpha: WdsClient) -> None:
    fresh = await alpha.scrape.create(CACHED)
    service.clock.advance(10)
    _, status = await finished_batch(service, alpha, [CACHED, NEVER_CACHED], max_age=60_000)
    docs = by_url(status.data)
    assert_hit(docs[CACHED], fresh.data.markdown)  # type: ignore[union-attr]
    scraped = docs[NEVER_CACHED]
    assert scraped.metadata.status_code == 200 and scraped.markdown
    assert extra(scraped, "cacheState") == "miss" and extra(scraped, "cachedAt") is None
    assert status.credits_used == 2


async def test_max_age_older_than_the_entry_or_zero_scrapes_afresh(service: Service, alpha: WdsClient) -> None:
    await alpha.scrape.create(CACHED)
    service.clock.advance(120)
    for max_age in (60_000, 0):
        _, status = await finished_batch(service, alpha, [CACHED], max_age=max_age)
        assert extra(status.data[0], "cacheState") == "miss" and extra(status.data[0], "cachedAt") is None


async def test_a_batch_stores_what_it_scrapes_for_the_team(service: Service, alpha: WdsClient, beta: WdsClient) -> None:
    await finished_batch(service, alpha, [NEVER_CACHED])
    locked = await alpha.scrape.create(NEVER_CACHED, lockdown=True)
    assert locked.data is not None and extra(locked.data, "cacheState") == "hit"
    _, again = await finished_batch(service, alpha, [NEVER_CACHED], lockdown=True)
    assert extra(again.data[0], "cacheState") == "hit"
    single = await single_scrape_error(beta, NEVER_CACHED, lockdown=True)
    _, other_team = await finished_batch(service, beta, [NEVER_CACHED], lockdown=True)
    assert_miss_404(other_team.data[0], "SCRAPE_LOCKDOWN_CACHE_MISS", single)


async def test_store_in_cache_false_leaves_nothing_behind(service: Service, alpha: WdsClient) -> None:
    _, status = await finished_batch(service, alpha, [NEVER_CACHED, ALSO_NEVER_CACHED], store_in_cache=False)
    assert [d.metadata.status_code for d in status.data] == [200, 200]
    single = await single_scrape_error(alpha, NEVER_CACHED, lockdown=True)
    assert single.code == "SCRAPE_LOCKDOWN_CACHE_MISS"
    _, locked = await finished_batch(service, alpha, [ALSO_NEVER_CACHED], lockdown=True)
    assert_miss_404(
        locked.data[0], "SCRAPE_LOCKDOWN_CACHE_MISS", await single_scrape_error(alpha, ALSO_NEVER_CACHED, lockdown=True)
    )


async def test_a_lockdown_batch_stores_nothing(service: Service, alpha: WdsClient) -> None:
    """Lockdown is zero data retention: its hits are not re-stored, its misses never fetched."""
    await finished_batch(service, alpha, [NEVER_CACHED], lockdown=True)
    assert (await single_scrape_error(alpha, NEVER_CACHED, min_age=1)).code == "SCRAPE_NO_CACHED_DATA"


# --- crawl: the same rules with the crawl's scrapeOptions ------------------------------------------


async def finished_crawl(service: Service, client: WdsClient, **options: Any) -> Any:
    started = await client.crawl.start(f"{SITE}/", limit=4, **options)
    service.clock.advance(3600)
    status = await client.crawl.get(started.id)
    assert status.status == JobState.COMPLETED
    return started.id, status


async def test_a_lockdown_crawl_serves_cached_pages_and_404s_the_others(service: Service, alpha: WdsClient) -> None:
    fresh = await alpha.scrape.create(f"{SITE}/")
    job_id, status = await finished_crawl(service, alpha, scrape_options={"lockdown": True})
    start, *others = status.data
    assert start.metadata.source_url == f"{SITE}/"
    assert_hit(start, fresh.data.markdown)  # type: ignore[union-attr]
    assert others, "the crawl still visits the site's pages"
    for page in others:
        url = page.metadata.source_url or ""
        assert_miss_404(page, "SCRAPE_LOCKDOWN_CACHE_MISS", await single_scrape_error(alpha, url, lockdown=True))
    assert status.credits_used == 5 + len(others)
    answer = (await service.raw("GET", f"/v2/crawl/{job_id}/errors")).json()
    assert sorted(e["url"] for e in answer["errors"] if e.get("code")) == sorted(p.metadata.source_url for p in others)


async def test_a_min_age_crawl_and_a_crawl_that_fills_the_cache(service: Service, alpha: WdsClient) -> None:
    _, first = await finished_crawl(service, alpha)
    assert all(extra(d, "cacheState") == "miss" for d in first.data), "a first crawl scrapes every page"
    _, second = await finished_crawl(service, alpha, scrape_options={"minAge": 1})
    assert [d.metadata.source_url for d in second.data] == [d.metadata.source_url for d in first.data]
    assert all(
        extra(d, "cacheState") == "hit" and d.metadata.status_code == d2.metadata.status_code
        for d, d2 in zip(second.data, first.data, strict=True)
    ), "the first crawl stored its pages"
    _, unstored = await finished_crawl(
        service, alpha, include_paths=["^/legal"], scrape_options={"storeInCache": False, "maxAge": 0}
    )
    assert all(extra(d, "cacheState") == "miss" for d in unstored.data)


async def test_a_lockdown_crawl_never_fails_on_what_the_target_would_have_done(
    service: Service, alpha: WdsClient
) -> None:
    """The start page needs ~90 s to load: a normal crawl fails on it, a lockdown one never contacts it."""
    slow = f"{SITE}/reports/annual-2021"
    started = await alpha.crawl.start(slow, limit=1, scrape_options={"lockdown": True})
    service.clock.advance(3600)
    status = await alpha.crawl.get(started.id)
    assert status.status == JobState.COMPLETED and len(status.data) == 1
    assert_miss_404(status.data[0], "SCRAPE_LOCKDOWN_CACHE_MISS", await single_scrape_error(alpha, slow, lockdown=True))
    failed = await alpha.crawl.start(slow, limit=1)
    service.clock.advance(3600)
    assert (await alpha.crawl.get(failed.id)).status == JobState.FAILED
