"""What the docs search screen says when a search cannot be made or fails.

One sentence per thing that can go wrong with `POST /v2/support/docs-search`
(the contract's 400 and 401, and what the service is seen to answer: 429,
502 and 503 from the AI service behind it, 504, other 5xx, a lost
connection), each saying what to do next. Plain text: shown in a Static.
"""

from __future__ import annotations

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


def search_problem(error: WdsError) -> str:
    """What to tell the user about a failed search (the question itself is always kept)."""
    if isinstance(error, RequestValidationError):
        return f"The question cannot be sent: {error.message}"
    if isinstance(error, BadRequestError):
        return f"The service refused the question (400): {error.message}. Change it and press Enter."
    if isinstance(error, AuthenticationError):
        return (
            "The service refused the API key (401). Check WDS_API_KEY or the api_key of the config file; "
            "wds-tui config shows the key in use, masked."
        )
    if isinstance(error, RateLimitError):
        wait = f"wait {_seconds(error.retry_after)}" if error.retry_after is not None else "wait a little"
        return f"Too many requests (429): the service asks to {wait} before the next search. {RETRY}"
    if isinstance(error, ServiceUnavailableError):
        return (
            "Docs search is not available on this service (503): it has no AI backend "
            f"configured ({error.message}). {RETRY}"
        )
    if isinstance(error, BadGatewayError):
        return f"The AI service behind docs search could not be reached (502): {error.message}. {RETRY}"
    if isinstance(error, GatewayTimeoutError):
        return f"The docs search ran out of time on the service (504). {RETRY}"
    if isinstance(error, NotFoundError):
        return f"This service has no docs search endpoint (404): {error.message}."
    if isinstance(error, InternalServerError):
        return f"The service failed ({error.status}): {error.message}. {RETRY}"
    if isinstance(error, APIStatusError):
        return f"The service refused the search ({error.status} {error.title}): {error.message}."
    if isinstance(error, APITimeoutError):
        return f"The service did not answer in time. {RETRY}"
    if isinstance(error, APIConnectionError):
        return f"Connection lost: the service cannot be reached ({error.message}). {RETRY}"
    if isinstance(error, InvalidResponseError):
        return f"The service answered something unreadable ({error.message}). {RETRY}"
    return f"{error.title}: {error.message}. {RETRY}"
