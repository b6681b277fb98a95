"""Why a map did not come back, in words a person can act on.

The map explorer shows every failure of `POST /v2/map` above the form it
keeps: a validation refusal (ours before sending, or the service's 400) goes
under the fields it names; everything else gets one sentence saying what
happened and one saying what to do.
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
    RateLimitError,
    RequestTimeoutError,
    RequestValidationError,
    ResponseTooLargeError,
    WdsError,
)
from tui.contract.requests import MapRequest
from tui.dashboard.kit.refusal_parts import (
    Refusal,
    field_issues,
    rate_limited,
    request_id_text,
    status_code,
)


def explain(error: WdsError, request: MapRequest) -> Refusal:
    """The words for `error`, raised by mapping `request`."""
    issues = field_issues(error)
    if isinstance(error, RequestValidationError | BadRequestError) and issues:
        return Refusal("Check the fields", "Some values are outside the contract's limits: see under each field.",
                       issues)
    if isinstance(error, RequestTimeoutError):
        budget = f"its timeout of {request.timeout:,} ms" if request.timeout else "its time"
        return Refusal(
            "The map took too long",
            f"The service gave up mapping {request.url} within {budget} ({status_code(error)}: {error.message}). "
            "Raise timeout, clear it (no timeout by default), or lower limit.",
        )
    if isinstance(error, APITimeoutError):
        return Refusal(
            "No answer in time",
            f"The service sent no answer in time: {error.message} A big site takes a while; "
            "set a timeout in the form to bound it, or send again with ctrl+s.",
        )
    if isinstance(error, APIConnectionError):
        return Refusal(
            "Connection lost",
            f"The service could not be reached: {error.message} Check the network or the service, "
            "then send again with ctrl+s.",
        )
    if isinstance(error, AuthenticationError):
        return Refusal("The API key was refused",
                       f"The service does not know this API key ({status_code(error)}: {error.message}). "
                       "Check the key in WDS_API_KEY or the config file.")
    if isinstance(error, InsufficientCreditsError):
        return Refusal("No credits left", f"The team has no credits left for a map ({status_code(error)}: {error.message}).")
    if isinstance(error, RateLimitError):
        return rate_limited(error)
    if isinstance(error, InternalServerError):
        return Refusal("The service failed",
                       f"The service failed on its side ({status_code(error)}: {error.message}){request_id_text(error)}. "
                       "Nothing in the form is wrong; send again later.")
    if isinstance(error, ResponseTooLargeError):
        return Refusal("Answer too large",
                       f"The answer was larger than any map of {request.limit or 'the default number of'} "
                       f"links can be: {error.message}")
    if isinstance(error, InvalidResponseError):
        return Refusal("Unreadable answer",
                       f"The service answered HTTP {error.status} with something that is not a map: {error.message}")
    if isinstance(error, APIStatusError):
        return Refusal(error.title, f"The service answered {status_code(error)}: {error.message}")
    return Refusal(error.title, error.message)
