"""Why a map did not come back: the words of `tui.dashboard.kit.error_words`, with what only a map can add."""

from __future__ import annotations

from tui.api.errors import (
    APITimeoutError,
    InsufficientCreditsError,
    InvalidResponseError,
    RequestTimeoutError,
    ResponseTooLargeError,
    WdsError,
)
from tui.contract.requests import MapRequest
from tui.dashboard.kit.error_words import Say, Words, sentence, status_code
from tui.dashboard.kit.form_issues import refusal


def map_words(request: MapRequest) -> dict[type[WdsError], Say]:
    """The map form's own words, for a refusal of `request`."""
    budget = f"its timeout of {request.timeout:,} ms" if request.timeout else "its time"
    return {
        RequestTimeoutError: lambda e: Words(
            "The map took too long", f"The service gave up mapping {request.url} within {budget} "
            f"({status_code(e)}: {e.message}). Raise timeout, clear it (no timeout by default), or lower limit."),
        APITimeoutError: lambda e: Words(
            "No answer in time", f"The service sent no answer in time: {sentence(e.message)} A big site takes a "
            "while; set a timeout in the form to bound it, or send again with ctrl+s."),
        InsufficientCreditsError: lambda e: Words(
            "No credits left", f"The team has no credits left for a map ({status_code(e)}: {e.message})."),
        ResponseTooLargeError: lambda e: Words(
            "Answer too large", f"The answer was larger than any map of {request.limit or 'the default number of'} "
            f"links can be: {e.message}"),
        InvalidResponseError: lambda e: Words(
            "Unreadable answer", f"The service answered HTTP {e.status} with something that is not a map: {e.message}"),
    }


def explain(error: WdsError, request: MapRequest) -> Words:
    """The words for `error`, raised by mapping `request`."""
    return refusal(error, map_words(request))
