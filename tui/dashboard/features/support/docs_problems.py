"""What the docs search screen says when a search cannot be made or fails.

One sentence per thing that can go wrong with `POST /v2/support/docs-search`
(the contract's 400 and 401, and what the service is seen to answer: 429,
502 and 503 from the AI service behind it, 504, other 5xx, a lost
connection), each saying what to do next: the words of `tui.dashboard.kit.error_words`,
with the ones docs search can say better. Plain text: shown in a Static.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadGatewayError,
    BadRequestError,
    GatewayTimeoutError,
    InternalServerError,
    InvalidResponseError,
    NotFoundError,
    RateLimitError,
    RequestValidationError,
    ServiceUnavailableError,
    WdsError,
)
from tui.contract.limits import SUPPORT_QUESTION_MAX
from tui.dashboard.kit.error_words import WORDS, Say, Words, words_for

RETRY = "Enter tries again."


def question_problem(question: str) -> str | None:
    """Why `question` cannot be sent (the contract's 1 to 8000 characters), or None when it can.

    Blank questions are not a problem to report: there is just nothing to search yet.
    """
    if len(question) > SUPPORT_QUESTION_MAX:
        return (
            f"The question is {len(question):,} characters long; the service takes at most "
            f"{SUPPORT_QUESTION_MAX:,}. Shorten it to search."
        )
    return None


def _seconds(value: float) -> str:
    whole = max(1, round(value))
    return f"{whole} second" if whole == 1 else f"{whole:,} seconds"


def _rate_limited(error: RateLimitError) -> str:
    wait = f"wait {_seconds(error.retry_after)}" if error.retry_after is not None else "wait a little"
    return f"Too many requests (429): the service asks to {wait} before the next search. {RETRY}"


def _refused(error: APIStatusError) -> str:
    return f"The service refused the search ({error.status} {error.title}): {error.message}."


def _said(text: Callable[[Any], str]) -> Say:
    return lambda error: Words("Docs search", text(error))


DOCS_WORDS: dict[type[WdsError], Say] = {
    RequestValidationError: _said(lambda e: f"The question cannot be sent: {e.message}"),
    BadRequestError: _said(
        lambda e: f"The service refused the question (400): {e.message}. Change it and press Enter."
    ),
    RateLimitError: _said(_rate_limited),
    ServiceUnavailableError: _said(
        lambda e: (
            "Docs search is not available on this service (503): it has no AI "
            f"backend configured ({e.message}). {RETRY}"
        )
    ),
    BadGatewayError: _said(
        lambda e: f"The AI service behind docs search could not be reached (502): {e.message}. {RETRY}"
    ),
    GatewayTimeoutError: _said(lambda e: f"The docs search ran out of time on the service (504). {RETRY}"),
    NotFoundError: _said(lambda e: f"This service has no docs search endpoint (404): {e.message}."),
    InternalServerError: _said(lambda e: f"The service failed ({e.status}): {e.message}. {RETRY}"),
    AuthenticationError: WORDS[AuthenticationError],  # a refused key reads as on every screen
    APIStatusError: _said(_refused),
    APITimeoutError: _said(lambda e: f"The service did not answer in time. {RETRY}"),
    APIConnectionError: _said(lambda e: f"Connection lost: the service cannot be reached ({e.message}). {RETRY}"),
    InvalidResponseError: _said(lambda e: f"The service answered something unreadable ({e.message}). {RETRY}"),
    WdsError: _said(lambda e: f"{e.title}: {e.message}. {RETRY}"),
}
"""Docs search's own words, read before the common ones of `tui.dashboard.kit.error_words`."""


def search_problem(error: WdsError) -> str:
    """What to tell the user about a failed search (the question itself is always kept)."""
    return words_for(error, DOCS_WORDS).text
