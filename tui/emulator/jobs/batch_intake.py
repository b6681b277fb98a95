"""Taking a batch in: its URLs sorted out, and the team's queue cap.

Queue cap: a team may have at most `QUEUED_URLS_MAX` pages waiting to be
scraped (its running crawls' and batches' pages not done yet, what
`GET /v2/team/queue-status` calls `jobsInQueue`). A batch that would pass it is
refused with 429 and a `Retry-After` of when enough will have been scraped; a
batch larger than the cap on its own could never fit, and is refused with 400.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tui.contract.requests import BatchScrapeRequest, is_http_url
from tui.emulator.core.errors import InvalidRequest, LimitReached
from tui.emulator.jobs.batch_run import PackedUrls
from tui.emulator.jobs.model import Job
from tui.emulator.jobs.queue import pages_waiting, seconds_until_done, spoken_duration

# Pages a team may have waiting to be scraped at once (crawls' and batches'). Not stated by the
# contract: two batches of 100,000 URLs, or one of 200,000, each ~10 MB here.
QUEUED_URLS_MAX = 200_000


@dataclass(frozen=True)
class SortedUrls:
    """A batch's URLs sorted into those it scrapes and those it drops (see `sort_batch_urls`)."""

    valid: Sequence[str]
    invalid: list[str]


def sort_batch_urls(request: BatchScrapeRequest) -> SortedUrls:
    """The URLs a batch scrapes (packed: `PackedUrls`) and those it drops: pure, and for
    100,000 URLs a few hundred milliseconds of CPU, so routes run it off the event loop.

    Invalid URLs are dropped or refused (`InvalidRequest`) per `ignoreInvalidURLs`.
    """
    flags = [is_http_url(url) for url in request.urls]
    invalid = [url for url, good in zip(request.urls, flags, strict=True) if not good]
    if invalid and request.ignore_invalid_urls is False:
        details = [
            {"path": ["urls", i], "message": f"Invalid URL: {url!r}"}
            for i, (url, good) in enumerate(zip(request.urls, flags, strict=True))
            if not good
        ]
        raise InvalidRequest(
            f"Invalid request body: {len(invalid)} invalid URL(s): " + ", ".join(repr(url) for url in invalid[:5]),
            details,
        )
    valid = PackedUrls(url for url, good in zip(request.urls, flags, strict=True) if good)
    if not valid:
        raise InvalidRequest(
            "Invalid request body: none of the given URLs is a valid http(s) URL.",
            [{"path": ["urls"], "message": "no valid URL to scrape"}],
        )
    return SortedUrls(valid, invalid)


def check_queue(team_jobs: list[Job], now: datetime, adding: int | None) -> None:
    """Refuse `adding` more pages for the team of `team_jobs` when they would pass `QUEUED_URLS_MAX`.

    A batch larger than the cap could never be accepted: `InvalidRequest` (400). One that
    fits an empty queue but not this one: `LimitReached` (429), with when to retry.
    `adding=None` (not counted yet) refuses only a queue that is full already.
    """
    if adding is not None and adding > QUEUED_URLS_MAX:
        message = (
            f"A batch may have at most {QUEUED_URLS_MAX:,} URLs waiting to be scraped; this one has "
            f"{adding:,} valid URLs. Split it into batches of at most {QUEUED_URLS_MAX:,}."
        )
        raise InvalidRequest(message, [{"path": ["urls"], "message": message}])
    waiting = pages_waiting(team_jobs, now)
    if waiting + (adding or 1) <= QUEUED_URLS_MAX:
        return
    seconds = seconds_until_done(team_jobs, now, waiting + (adding or 1) - QUEUED_URLS_MAX)
    added = f" and this batch would add {adding:,}" if adding is not None else ""
    raise LimitReached(
        f"Too many URLs queued for your team: {waiting:,} are waiting to be scraped{added}, but at most "
        f"{QUEUED_URLS_MAX:,} may wait at once. Enough will have been scraped in about "
        f"{spoken_duration(seconds)}: retry then, or send fewer URLs.",
        retry_after=max(1, seconds),
    )
