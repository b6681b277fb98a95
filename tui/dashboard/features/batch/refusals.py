"""Why a batch scrape did not start: the words of `tui.dashboard.kit.error_words`, with what only a batch can add.

Unlike a single scrape, a batch that timed out or lost its connection may
have started anyway: the words say where to look before sending it again.
"""

from __future__ import annotations

from tui.api.errors import (
    APIConnectionError,
    APITimeoutError,
    InternalServerError,
    InvalidResponseError,
    WdsError,
)
from tui.dashboard.kit.error_words import Say, Words, request_id_text, sentence, status_code
from tui.dashboard.kit.form_issues import refusal

_MAYBE_STARTED = ("The batch may have started anyway: look at the activity pane (batch_scrape) before "
                  "sending again with ctrl+s.")

BATCH_WORDS: dict[type[WdsError], Say] = {
    APITimeoutError: lambda e: Words(
        "No answer in time", f"The service sent no answer in time: {sentence(e.message)} {_MAYBE_STARTED}"),
    APIConnectionError: lambda e: Words(
        "Connection lost", f"The service could not be reached: {sentence(e.message)} Check the network or the "
        f"service; nothing typed is lost. {_MAYBE_STARTED}"),
    InternalServerError: lambda e: Words(
        "The service failed", f"The service failed on its side ({status_code(e)}: {e.message}){request_id_text(e)}. "
        f"Nothing in the form is wrong. {_MAYBE_STARTED}"),
    InvalidResponseError: lambda e: Words(
        "Unreadable answer", f"The service answered HTTP {e.status} with something that is not a batch id: "
        f"{sentence(e.message)} {_MAYBE_STARTED}"),
}


def explain_batch(error: WdsError) -> Words:
    """The words for `error`, raised by starting a batch scrape."""
    return refusal(error, BATCH_WORDS)
