"""Scraping one URL through the team's cache: the rules every scrape shares.

A single scrape, each URL of a batch and each page of a crawl go through
`TeamCacheScraper.scrape` with their scrape options, so `maxAge`, `minAge`,
`lockdown` and `storeInCache` mean the same everywhere:
- `lockdown`: cache-only; a hit costs 5 credits, a miss 1 and fails
  `SCRAPE_LOCKDOWN_CACHE_MISS` (404). Nothing is stored (zero data retention).
- `minAge`: cache-only; serves an entry at least that old (1 credit), a miss
  costs nothing and fails `SCRAPE_NO_CACHED_DATA` (404).
- otherwise an entry younger than `maxAge` is served (1 credit), else the page
  is scraped and, when `storeInCache` allows, stored for the team.

A single scrape answers a cache-only miss with the 404 error; a batch or crawl
gives that URL an entry instead (`job_result`): a document whose metadata says
`statusCode: 404`, `error` and `code`, as `GET /v2/scrape/{id}` reports a
failed scrape.

A job of many URLs keeps of each scrape only how it was served (`Served`, one
byte), its credits and, for a hit, the cache entry: `replay` writes the same
result again from those, since a fetch depends only on the site and the URL.
"""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tui.contract.limits import LOCKDOWN_HIT_CREDITS, LOCKDOWN_MISS_CREDITS
from tui.contract.requests import ScrapeOptions
from tui.emulator.core.clock import isoformat_z
from tui.emulator.jobs.scrape_cache import CacheEntry, ScrapeCache
from tui.emulator.jobs.scrape_engine import (
    BASE_CREDITS,
    EffectiveOptions,
    Failure,
    FailureKind,
    FetchResult,
    build_document,
    fetch_page,
)
from tui.emulator.sites.site import SiteSource, split_url

# The error code (and 404 status) the service gives a cache-only scrape that found nothing.
CACHE_MISS_CODES: dict[FailureKind, str] = {
    FailureKind.NO_CACHED_DATA: "SCRAPE_NO_CACHED_DATA",
    FailureKind.LOCKDOWN_MISS: "SCRAPE_LOCKDOWN_CACHE_MISS",
}
CACHE_MISS_STATUS = 404


def is_cache_miss(failure: Failure | None) -> bool:
    """Whether `failure` is a cache-only scrape that found nothing cached."""
    return failure is not None and failure.kind in CACHE_MISS_CODES


class Served(enum.IntEnum):
    """How one scrape was served, in a byte: with the credits and a hit's entry, enough to `replay` it."""

    FETCHED = 0  # scraped from the site: a document
    FETCHED_FAILED = 1  # scraped: a document that tells of a failure (404, 500, anti-bot, not rendered)
    FETCHED_NOTHING = 2  # scraped: no document (a timeout)
    CACHE_HIT = 3
    LOCKDOWN_MISS = 4
    NO_CACHED_DATA = 5


@dataclass(frozen=True)
class CachedScrape:
    """What one scrape through the cache gave: the fetch (no document on a cache-only miss) and hit/miss."""

    result: FetchResult
    cache_state: str  # "hit" or "miss", as `metadata.cacheState` says
    entry: CacheEntry | None = None  # the entry a hit was served from

    @property
    def served(self) -> Served:
        """How this scrape was served (see `Served`)."""
        if self.entry is not None:
            return Served.CACHE_HIT
        failure = self.result.failure
        if failure is not None and failure.kind == FailureKind.LOCKDOWN_MISS:
            return Served.LOCKDOWN_MISS
        if failure is not None and failure.kind == FailureKind.NO_CACHED_DATA:
            return Served.NO_CACHED_DATA
        if not self.result.has_document:
            return Served.FETCHED_NOTHING
        return Served.FETCHED if failure is None else Served.FETCHED_FAILED

    def job_result(self) -> FetchResult:
        """The page as a batch or crawl reports it: its document stamped with cache state and credits.

        A cache-only miss gets a document too, the 404 a single scrape answers.
        """
        result, state = self.result, self.cache_state

        def write_document() -> dict[str, Any]:
            if result.has_document:
                assert result.document is not None
                document = copy.deepcopy(result.document)
            else:
                document = {"metadata": miss_metadata(result)}
            document["metadata"].update({"cacheState": state, "creditsUsed": result.credits})
            return document

        if not result.has_document and not is_cache_miss(result.failure):
            return result  # a timeout: no document, listed among the job's errors
        return FetchResult(result.url, result.failure, result.credits, result.elapsed_ms, write_document)


def miss_metadata(result: FetchResult) -> dict[str, Any]:
    """The metadata of a cache-only miss: the 404 status, the message and the code of a single scrape's error."""
    assert result.failure is not None
    return {
        "sourceURL": result.url,
        "url": result.url,
        "statusCode": CACHE_MISS_STATUS,
        "error": result.failure.message,
        "code": CACHE_MISS_CODES[result.failure.kind],
    }


class TeamCacheScraper:
    """Scrapes URLs for a team through the shared `ScrapeCache`."""

    def __init__(self, sites: SiteSource, cache: ScrapeCache) -> None:
        self.sites = sites
        self.cache = cache

    def scrape(
        self,
        team_id: str,
        url: str,
        options: ScrapeOptions | None,
        now: datetime,
        *,
        fetched: FetchResult | None = None,
    ) -> CachedScrape:
        """Scrape `url` for `team_id` with `options` at `now`.

        `fetched` is the page already fetched off the event loop (a batch's URLs):
        used instead of fetching again when the cache does not answer.
        """
        opts = EffectiveOptions.of(options)
        if opts.lockdown or opts.min_age_ms is not None:
            return self._cache_only(team_id, url, opts, now)
        entry = self.cache.fresh(team_id, url, now, opts.max_age_ms)
        if entry is not None:
            return self._hit(url, opts, entry, BASE_CREDITS)
        result = fetched if fetched is not None else fetch_page(self.sites, url, options)
        if result.write_document is not None and result.failure is None and opts.store_in_cache:
            # A batch or crawl stores lazily: its documents are written when first read.
            self.cache.put(team_id, url, result.write_document, now)
        return CachedScrape(result, "miss")

    def replay(
        self, url: str, options: ScrapeOptions | None, served: Served, credits: int, entry: CacheEntry | None = None
    ) -> CachedScrape:
        """The scrape of `url` that was served as `served` (from `entry` for a hit), written again.

        Nothing is looked up or stored: the cache may have changed since, the scrape has not.
        """
        opts = EffectiveOptions.of(options)
        if served == Served.CACHE_HIT:
            assert entry is not None
            return self._hit(url, opts, entry, credits)
        if served == Served.LOCKDOWN_MISS:
            return CachedScrape(_lockdown_miss(url), "miss")
        if served == Served.NO_CACHED_DATA:
            return CachedScrape(_no_cached_data(url, opts.min_age_ms or 1), "miss")
        return CachedScrape(fetch_page(self.sites, url, options), "miss")

    def _cache_only(self, team_id: str, url: str, opts: EffectiveOptions, now: datetime) -> CachedScrape:
        """`lockdown` or `minAge`: serve from the cache or fail; never contact the target."""
        if opts.lockdown:
            entry = self.cache.fresh(team_id, url, now, opts.max_age_ms)
            if entry is not None:
                return self._hit(url, opts, entry, LOCKDOWN_HIT_CREDITS)
            return CachedScrape(_lockdown_miss(url), "miss")
        min_age = opts.min_age_ms or 1
        entry = self.cache.aged(team_id, url, now, min_age)
        if entry is not None:
            return self._hit(url, opts, entry, BASE_CREDITS)
        return CachedScrape(_no_cached_data(url, min_age), "miss")

    def _hit(self, url: str, opts: EffectiveOptions, entry: CacheEntry, credits: int) -> CachedScrape:
        def write_document() -> dict[str, Any]:
            # The site never changes, so the cached page is re-rendered in the formats asked for now.
            stored = entry.document["metadata"]
            page = self.sites.site(split_url(stored["url"])[0]).fetch(stored["url"])
            document = build_document(
                self.sites,
                page,
                url,
                opts,
                status=stored["statusCode"],
                rendered=True,
                proxy_used=stored.get("proxyUsed", "basic"),
            )
            document["metadata"]["cachedAt"] = isoformat_z(entry.stored_at)
            return document

        return CachedScrape(FetchResult(url, None, credits, 0, write_document), "hit", entry)


def _lockdown_miss(url: str) -> FetchResult:
    failure = Failure(
        FailureKind.LOCKDOWN_MISS,
        "Lockdown mode found no cached copy of this URL, and lockdown never contacts the target.",
        url,
    )
    return FetchResult(url, failure, LOCKDOWN_MISS_CREDITS, 0)


def _no_cached_data(url: str, min_age_ms: int) -> FetchResult:
    failure = Failure(
        FailureKind.NO_CACHED_DATA,
        f"No cached data at least {min_age_ms} ms old is available for "
        "this URL, and minAge never triggers a fresh scrape.",
        url,
        {"min_age_ms": min_age_ms},
    )
    return FetchResult(url, failure, 0, 0)
