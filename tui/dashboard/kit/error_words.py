"""What an error of the client means for a person, in one table: a heading and a sentence on what to do.

Every screen that sends something (the launch forms, docs search, support
ask, the connection screen and `wds-tui check`) turns the client's typed
errors (`tui.api.errors`) into words here, so one failure reads the same
everywhere: a refused key gets the same advice on every screen. A screen that
knows more (a scrape that timed out knows its timeout; docs search knows
which AI service is behind a 503) overrides the entries it can say better:
`words_for(error, overrides)` reads the screen's table first (the entry of the
error's most specific class there), then this one. A screen whose table has a
catch-all (`APIStatusError`) files the entries it shares under their own class
(`AuthenticationError: WORDS[AuthenticationError]`), so that they stay shared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    InsufficientCreditsError,
    InternalServerError,
    InvalidResponseError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestValidationError,
    WdsError,
)

KEY_ADVICE = (
    "Check WDS_API_KEY (or api_key in the config file, or --api-key); wds-tui config shows which key is in use, masked."
)
"""What to do about a refused key, wherever it is refused."""


@dataclass(frozen=True)
class Words:
    """A failure in words: a heading, the explanation, and the issues of single fields (forms put them there)."""

    title: str
    text: str
    issues: list[dict[str, Any]] = field(default_factory=list)  # `{"path": wire path, "message"}`


Say = Callable[[Any], Words]
"""An entry of the table: the error (of the class it is filed under) -> its words."""


def sentence(text: str) -> str:
    """`text` ending as a sentence, so that the advice after it reads as the next one."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def status_code(error: APIStatusError) -> str:
    """`429 RATE_LIMITED`, or the status alone when the body named no code."""
    return f"{error.status} {error.code}" if error.code else str(error.status)


def request_id_text(error: APIStatusError) -> str:
    """` (request id …)` when the service gave one, for a support ticket; else nothing."""
    return f" (request id {error.request_id})" if error.request_id else ""


def wait_text(error: RateLimitError) -> str:
    """`Wait 3 s`: the wait a 429 asked for."""
    return f"Wait {error.retry_after:g} s" if error.retry_after else "Wait a moment"


WORDS: dict[type[WdsError], Say] = {
    RequestValidationError: lambda e: Words("Not sent", e.message),
    BadRequestError: lambda e: Words("Bad request", f"The service refused the request ({status_code(e)}): {e.message}"),
    AuthenticationError: lambda e: Words(
        "The API key was refused", f"The service refused the API key ({e.status}). {KEY_ADVICE}"
    ),
    InsufficientCreditsError: lambda e: Words(
        "No credits left", f"The team has no credits left for this ({status_code(e)}: {e.message})."
    ),
    PermissionDeniedError: lambda e: Words("Not allowed", f"The service refused this ({status_code(e)}): {e.message}"),
    NotFoundError: lambda e: Words("Not found", f"The service answered {status_code(e)}: {e.message}"),
    RateLimitError: lambda e: Words(
        "Rate limited", f"Too many requests ({e.status}): {sentence(e.message)} {wait_text(e)}, then send again."
    ),
    InternalServerError: lambda e: Words(
        "The service failed",
        f"The service failed ({status_code(e)}: {e.message}){request_id_text(e)}. "
        "Nothing you typed is wrong; send again later.",
    ),
    APIStatusError: lambda e: Words(e.title, f"The service answered {status_code(e)}: {e.message}{request_id_text(e)}"),
    APITimeoutError: lambda e: Words(
        "No answer in time", f"The service sent no answer in time: {sentence(e.message)} Send again."
    ),
    APIConnectionError: lambda e: Words(
        "Connection lost",
        f"The service could not be reached: {sentence(e.message)} Check the network or the service, then send again.",
    ),
    InvalidResponseError: lambda e: Words(
        "Unreadable answer", f"The service answered HTTP {e.status} with something unreadable: {e.message}"
    ),
    WdsError: lambda e: Words(e.title, e.message),
}
"""The words every screen uses unless it overrides them."""


def words_for(error: WdsError, overrides: Mapping[type[WdsError], Say] | None = None) -> Words:
    """The words for `error`: the entry for its most specific class in a screen's `overrides`, else in `WORDS`."""
    for table in (overrides or {}, WORDS):
        say = next((table[kind] for kind in type(error).__mro__ if kind in table), None)
        if say is not None:
            return say(error)
    return Words(error.title, str(error))  # not a WdsError after all: its own words
