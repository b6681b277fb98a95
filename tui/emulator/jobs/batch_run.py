"""A batch's URLs scraped as its timeline reaches them, kept in a few bytes each.

Issue 18: a batch of 200,000 URLs made 200,000 fetch results (with their
documents' closures and ids) the moment it was accepted: ~450 MB, never
released, and 2-3 s of the event loop. A batch is now its URL list and this
record. URL `i` is scraped through the team's cache at the moment its
timeline says page `i` is done (`page_done_at(i)`), the first time anyone
looks past that moment: a status page, the errors, a webhook, or the served
emulator's catch-up loop. Its credits are billed then, dated that moment.

Of each scrape only how it was served (`Served`, one byte), its credits (one
byte) and, for a cache hit, the entry are kept; the document is written again
whenever it is read (`TeamCacheScraper.replay`): a fetch depends only on the
site and the URL, so it says the same every time.
"""

from __future__ import annotations

import array
import itertools
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from tui.contract.requests import BatchScrapeRequest
from tui.emulator.jobs.crawl_progress import Timeline
from tui.emulator.jobs.rendered_pages import RenderedPages
from tui.emulator.jobs.scrape_cache import CacheEntry
from tui.emulator.jobs.scrape_engine import Failure, FetchResult, fetch_page
from tui.emulator.jobs.team_cache import CachedScrape, Served, TeamCacheScraper

Charge = Callable[[int, datetime], None]
"""Bills `credits` for a page scraped at `at`."""

# What each kind of outcome means for the job's lists.
_NO_DOCUMENT = bytes([Served.FETCHED_NOTHING])
_FAILED = (Served.FETCHED_FAILED, Served.FETCHED_NOTHING, Served.LOCKDOWN_MISS, Served.NO_CACHED_DATA)
_ERRORS = (Served.FETCHED_NOTHING, Served.LOCKDOWN_MISS, Served.NO_CACHED_DATA)
_serials = itertools.count()


class PackedUrls(Sequence[str]):
    """URLs kept end to end in one string, with where each ends: ~60 bytes a URL instead of ~115.

    The 100,000 strings a request's JSON made all go, with the memory they held,
    once the request is over.
    """

    __slots__ = ("_text", "_ends")

    def __init__(self, urls: Iterable[str]) -> None:
        kept = list(urls)
        self._text = "".join(kept)
        self._ends = array.array("Q", itertools.accumulate(map(len, kept)))

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, index: int) -> str:  # type: ignore[override]  # no slices: one URL at a time
        if index < 0:
            index += len(self._ends)
        start = self._ends[index - 1] if index > 0 else 0
        return self._text[start : self._ends[index]]


class BatchRun:
    """The scraped part of one batch: URL by URL, in timeline order, each at its own moment.

    `through_cache=False` (the seeded past) fetches each URL afresh, stores
    nothing, and reports the fetch as it is (no cache state in its metadata).
    """

    def __init__(
        self,
        *,
        urls: Sequence[str],
        options: BatchScrapeRequest,
        timeline: Timeline,
        scraper: TeamCacheScraper,
        team_id: str,
        charge: Charge | None = None,
        through_cache: bool = True,
        rendered: RenderedPages | None = None,
    ) -> None:
        self.urls = urls
        self.options = options
        self.timeline = timeline
        self._scraper = scraper
        self._team_id = team_id
        self._charge = charge
        self._through_cache = through_cache
        self._served = bytearray()
        self._credits = bytearray()
        self._hits: dict[int, CacheEntry] = {}
        # Documents read lately, shared by every batch of the store (or this run's own).
        self._rendered = rendered if rendered is not None else RenderedPages()
        self._serial = next(_serials)

    @property
    def scraped(self) -> int:
        """How many URLs have been scraped so far (always the first ones)."""
        return len(self._served)

    def scrape_until(self, count: int, most: int | None = None) -> int:
        """Scrape the URLs before index `count` not scraped yet, at most `most` of them now; how many remain."""
        end = min(count, len(self.urls))
        if most is not None:
            end = min(end, self.scraped + most)
        for index in range(self.scraped, end):
            at = self.timeline.page_done_at(index)
            cached = self._scrape(self.urls[index], at)
            credits = cached.result.credits
            self._served.append(cached.served)
            self._credits.append(credits)
            if cached.entry is not None:
                self._hits[index] = cached.entry
            if self._charge is not None and credits:
                self._charge(credits, at)
        return max(0, min(count, len(self.urls)) - self.scraped)

    def _scrape(self, url: str, at: datetime) -> CachedScrape:
        if self._through_cache:
            return self._scraper.scrape(self._team_id, url, self.options, at)
        return self._scraper.replay(url, self.options, Served.FETCHED, 0)

    # -- reading what was scraped (indices below `scraped` only) -----------------------

    def result(self, index: int) -> FetchResult:
        """URL `index`'s outcome as the job reports it, written again from what was kept."""
        served = Served(self._served[index])
        if not self._through_cache:
            return fetch_page(self._scraper.sites, self.urls[index], self.options)
        cached = self._scraper.replay(
            self.urls[index], self.options, served, self._credits[index], self._hits.get(index)
        )
        return cached.job_result()

    def document(self, index: int) -> dict[str, Any] | None:
        """URL `index`'s document (None when its scrape produced none); the same object to every reader."""
        return self._rendered.get((self._serial, index), lambda: self.result(index).document)

    def has_document(self, index: int) -> bool:
        return self._served[index] != Served.FETCHED_NOTHING

    def is_error(self, index: int) -> bool:
        """Whether URL `index` is listed among the job's errors (nothing came back, or a cache-only miss)."""
        return self._served[index] in _ERRORS

    def credits(self, done: int) -> int:
        """Credits of the first `done` URLs."""
        # A copy, not a memoryview: an export would stop the loop appending while a status page sums.
        return sum(self._credits[:done])

    def first_failure(self) -> Failure | None:
        """The first scraped URL that failed, as the batch's most telling problem."""
        found = [i for i in (self._served.find(bytes([code])) for code in _FAILED) if i >= 0]
        return self.result(min(found)).failure if found else None

    def document_window(self, done: int, skip: int, limit: int) -> tuple[list[int], bool]:
        """Indices of the documents `skip` to `skip + limit` among the first `done` URLs, and whether more follow."""
        if self._served.find(_NO_DOCUMENT, 0, done) < 0:  # the usual case: every URL has a document
            return list(range(min(skip, done), min(skip + limit, done))), skip + limit < done
        return document_window(self.has_document, done, skip, limit)


def document_window(has_document: Callable[[int], bool], done: int, skip: int, limit: int) -> tuple[list[int], bool]:
    """Of the first `done` pages, those holding the documents `skip` to `skip + limit`
    (pages without one are passed over), and whether more documents follow."""
    indices: list[int] = []
    seen = 0
    for index in range(done):
        if not has_document(index):
            continue
        if seen >= skip + limit:
            return indices, True
        if seen >= skip:
            indices.append(index)
        seen += 1
    return indices, False
