"""Why a scrape did not come back: the words of `tui.dashboard.kit.error_words`, with what only a scrape can add.

A validation refusal (ours before sending, or the service's 400) names
fields and goes under them; everything else is said above the form. The
cache-only misses are explained at length: a 404 on a page that exists reads
like a bug until one knows that `lockdown` and `minAge` never contact the site.
"""

from __future__ import annotations

from tui.api.errors import (
    APITimeoutError,
    InsufficientCreditsError,
    InternalServerError,
    InvalidResponseError,
    LockdownCacheMissError,
    NoCachedDataError,
    RequestTimeoutError,
    WdsError,
)
from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, BATCH_TIMEOUT_MAX
from tui.contract.requests import ScrapeRequest
from tui.dashboard.kit.error_words import Say, Words, request_id_text, sentence, status_code
from tui.dashboard.kit.form_issues import refusal


def scrape_words(request: ScrapeRequest) -> dict[type[WdsError], Say]:
    """The scrape form's own words, for a refusal of `request`."""
    timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
    wait = f" plus waitFor {request.wait_for:,} ms" if request.wait_for else ""
    return {
        LockdownCacheMissError: lambda e: Words(
            "Lockdown: not in the cache",
            f"No cached copy of {request.url} exists for your team (404 SCRAPE_LOCKDOWN_CACHE_MISS). "
            "Lockdown only serves pages from the cache and never contacts the site, so a page that "
            "was never scraped (or whose copy is older than maxAge) cannot be served. Scrape it once "
            "with lockdown off to cache it, then lockdown finds it. A miss is billed 1 credit."),
        NoCachedDataError: lambda e: Words(
            "No cached data",
            f"No cached copy of {request.url} at least {request.min_age or 1:,} ms old exists for your team "
            "(404 SCRAPE_NO_CACHED_DATA). minAge asks for the cache only and never triggers a fresh "
            "scrape. Lower minAge (1 accepts any cached copy), or clear it to let the service fetch the page."),
        RequestTimeoutError: lambda e: Words(
            "The page took too long",
            f"The service gave up after the scrape's timeout of {timeout:,} ms{wait} ({status_code(e)}): "
            f"{sentence(e.message)} Raise timeout (at most {BATCH_TIMEOUT_MAX:,} ms) or lower waitFor."),
        APITimeoutError: lambda e: Words(
            "No answer in time",
            f"The service sent no answer within the scrape's timeout and a margin: {sentence(e.message)} "
            "The scrape may still have run on the service. Send again with ctrl+s."),
        InsufficientCreditsError: lambda e: Words(
            "No credits left",
            f"The team has no credits left for this scrape ({status_code(e)}: {e.message}). Options "
            "such as proxy enhanced (up to 5 credits) or lockdown (5 on a hit) cost more than a basic scrape."),
        InternalServerError: lambda e: Words(
            "The service failed",
            f"The service failed on its side ({status_code(e)}: {e.message}){request_id_text(e)}. "
            "Nothing in the form is wrong; send again later, or ask support quoting the request id."),
        InvalidResponseError: lambda e: Words(
            "Unreadable answer",
            f"The service answered HTTP {e.status} with something that is not a scrape result: {e.message}"),
    }


def explain(error: WdsError, request: ScrapeRequest) -> Words:
    """The words for `error`, raised by scraping `request`."""
    return refusal(error, scrape_words(request))
