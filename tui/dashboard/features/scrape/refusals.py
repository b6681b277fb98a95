"""Why a scrape did not come back, in words a person can act on.

The scrape form shows every failure of `POST /v2/scrape` in place, above the
form it keeps: this module turns each error of the client into that text.
A validation refusal (ours before sending, or the service's 400) names fields
and goes under them instead; everything else gets one sentence saying what
happened and one saying what to do. The cache-only misses are explained at
length: a 404 on a page that exists reads like a bug until one knows that
`lockdown` and `minAge` never contact the site.
"""

from __future__ import annotations

from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    InsufficientCreditsError,
    InternalServerError,
    InvalidResponseError,
    LockdownCacheMissError,
    NoCachedDataError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestTimeoutError,
    RequestValidationError,
    WdsError,
)
from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, BATCH_TIMEOUT_MAX
from tui.contract.requests import ScrapeRequest
from tui.dashboard.kit.refusal_parts import (
    Refusal,
    field_issues,
    request_id_text,
    status_code,
)


def _sentence(text: str) -> str:
    """`text` ending as a sentence, so that the advice after it reads as the next one."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def explain(error: WdsError, request: ScrapeRequest) -> Refusal:
    """The words for `error`, raised by scraping `request`."""
    issues = field_issues(error)
    if isinstance(error, RequestValidationError | BadRequestError) and issues:
        return Refusal("Check the fields", "Some values are outside the contract's limits: see under each field.",
                       issues)
    if isinstance(error, LockdownCacheMissError):
        return Refusal(
            "Lockdown: not in the cache",
            f"No cached copy of {request.url} exists for your team (404 SCRAPE_LOCKDOWN_CACHE_MISS). "
            "Lockdown only serves pages from the cache and never contacts the site, so a page that "
            "was never scraped (or whose copy is older than maxAge) cannot be served. Scrape it once "
            "with lockdown off to cache it, then lockdown finds it. A miss is billed 1 credit.",
        )
    if isinstance(error, NoCachedDataError):
        age = request.min_age or 1
        return Refusal(
            "No cached data",
            f"No cached copy of {request.url} at least {age:,} ms old exists for your team "
            "(404 SCRAPE_NO_CACHED_DATA). minAge asks for the cache only and never triggers a fresh "
            "scrape. Lower minAge (1 accepts any cached copy), or clear it to let the service fetch the page.",
        )
    if isinstance(error, RequestTimeoutError):
        timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
        wait = f" plus waitFor {request.wait_for:,} ms" if request.wait_for else ""
        return Refusal(
            "The page took too long",
            f"The service gave up after the scrape's timeout of {timeout:,} ms{wait} ({status_code(error)}): "
            f"{_sentence(error.message)} Raise timeout (at most {BATCH_TIMEOUT_MAX:,} ms) or lower waitFor.",
        )
    if isinstance(error, APITimeoutError):
        return Refusal(
            "No answer in time",
            f"The service sent no answer within the scrape's timeout and a margin: {_sentence(error.message)} "
            "The scrape may still have run on the service. Send again with ctrl+s.",
        )
    if isinstance(error, APIConnectionError):
        return Refusal(
            "Connection lost",
            f"The service could not be reached: {_sentence(error.message)} Check the network or the service, "
            "then send again with ctrl+s.",
        )
    if isinstance(error, AuthenticationError):
        return Refusal(
            "The API key was refused",
            f"The service does not know this API key ({status_code(error)}: {error.message}). Check the key "
            "in WDS_API_KEY or the config file; nothing was scraped.",
        )
    if isinstance(error, InsufficientCreditsError):
        return Refusal(
            "No credits left",
            f"The team has no credits left for this scrape ({status_code(error)}: {error.message}). Options "
            "such as proxy enhanced (up to 5 credits) or lockdown (5 on a hit) cost more than a basic scrape.",
        )
    if isinstance(error, PermissionDeniedError):
        return Refusal("Not allowed", f"The service refused this scrape ({status_code(error)}): {error.message}")
    if isinstance(error, NotFoundError):
        return Refusal("Not found", f"The service answered {status_code(error)}: {error.message}")
    if isinstance(error, RateLimitError):
        wait = f"wait {error.retry_after:g} s" if error.retry_after else "wait a moment"
        return Refusal(
            "Rate limited",
            f"Too many requests for the team ({status_code(error)}: {error.message}). {wait.capitalize()}, "
            "then send again with ctrl+s.",
        )
    if isinstance(error, InternalServerError):
        return Refusal(
            "The service failed",
            f"The service failed on its side ({status_code(error)}: {error.message}){request_id_text(error)}. "
            "Nothing in the form is wrong; send again later, or ask support quoting the request id.",
        )
    if isinstance(error, BadRequestError):
        return Refusal("Bad request", f"The service refused the request ({status_code(error)}): {error.message}")
    if isinstance(error, InvalidResponseError):
        return Refusal(
            "Unreadable answer",
            f"The service answered HTTP {error.status} with something that is not a scrape result: "
            f"{error.message}",
        )
    if isinstance(error, APIStatusError):
        said = f"{status_code(error)}: {error.message}{request_id_text(error)}"
        return Refusal(error.title, f"The service answered {said}")
    return Refusal(error.title, error.message)
