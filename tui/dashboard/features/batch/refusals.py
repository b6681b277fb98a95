"""Why a batch scrape did not start, in words a person can act on.

The batch form shows every failure of `POST /v2/batch/scrape` above the form
it keeps. A validation refusal (ours before sending, or the service's 400
naming fields) goes under the fields instead. Unlike a single scrape, a batch
that timed out or lost its connection may have started anyway: the text says
where to look before sending it a second time.
"""

from __future__ import annotations

from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    InsufficientCreditsError,
    InternalServerError,
    InvalidResponseError,
    RateLimitError,
    WdsError,
)
from tui.dashboard.kit.refusal_parts import (
    Refusal,
    field_issues,
    rate_limited,
    request_id_text,
    status_code,
)

_MAYBE_STARTED = ("The batch may have started anyway: look at the activity pane (batch_scrape) before "
                  "sending again with ctrl+s.")


def explain_batch(error: WdsError) -> Refusal:
    """The words for `error`, raised by starting a batch scrape."""
    issues = field_issues(error)
    if issues:
        return Refusal("Check the fields", "The service refused some values: see under each field.", issues)
    if isinstance(error, APITimeoutError):
        return Refusal("No answer in time", f"The service sent no answer in time: {error.message} {_MAYBE_STARTED}")
    if isinstance(error, APIConnectionError):
        return Refusal(
            "Connection lost",
            f"The service could not be reached: {error.message} Check the network or the service; "
            f"nothing typed is lost. {_MAYBE_STARTED}",
        )
    if isinstance(error, AuthenticationError):
        return Refusal("The API key was refused",
                       f"The service does not know this API key ({status_code(error)}: {error.message}). Check the key "
                       "in WDS_API_KEY or the config file; nothing was started.")
    if isinstance(error, InsufficientCreditsError):
        return Refusal("No credits left",
                       f"The team has no credits left for this batch ({status_code(error)}: {error.message}).")
    if isinstance(error, RateLimitError):
        return rate_limited(error)
    if isinstance(error, InternalServerError):
        return Refusal("The service failed",
                       f"The service failed on its side ({status_code(error)}: {error.message}){request_id_text(error)}. "
                       f"Nothing in the form is wrong. {_MAYBE_STARTED}")
    if isinstance(error, InvalidResponseError):
        return Refusal("Unreadable answer",
                       f"The service answered HTTP {error.status} with something that is not a batch id: "
                       f"{error.message} {_MAYBE_STARTED}")
    if isinstance(error, APIStatusError):
        return Refusal(error.title, f"The service refused the batch ({status_code(error)}): {error.message}")
    return Refusal(error.title, error.message)
