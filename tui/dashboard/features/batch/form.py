"""Start a batch scrape (`POST /v2/batch/scrape`): URLs and options checked against the contract, then followed.

The URLs come pasted, or from the map explorer's selection (`urls`); the
fields are `tui.dashboard.features.batch.fields`, and the launch form
(`tui.dashboard.kit.launch_form`) does the rest. A refusal is worded by
`tui.dashboard.kit.error_words` with what only a batch can add (`BATCH_WORDS`):
unlike a single scrape, a batch that timed out or lost its connection may
have started anyway, so the words say where to look before sending it again.
A started batch closes the form, tells the app (`JobsSeen`: the crawls pane
lists it, and keeps it among the recent ones once it ends) and opens its
status screen (`OpenBatch`), which lists the URLs the service refused as invalid beside the accepted ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.binding import BindingType
from textual.widgets import TextArea

from tui.api.client import WdsClient
from tui.api.errors import APIConnectionError, APITimeoutError, InternalServerError, InvalidResponseError, WdsError
from tui.contract.models.batch import BatchScrapeStarted
from tui.contract.requests import BatchScrapeRequest
from tui.dashboard.features.batch.fields import BatchFields
from tui.dashboard.kit.error_words import Say, Words, request_id_text, sentence, status_code
from tui.dashboard.kit.launch_form import LaunchFormScreen, launch_bindings
from tui.dashboard.shell.intents import OpenBatch
from tui.dashboard.shell.sightings import BATCH, STARTED_HERE, JobSighting, JobsSeen

if TYPE_CHECKING:
    from tui.dashboard.kit.webhook_address import WebhookAddress

TITLE = "Batch scrape · POST /v2/batch/scrape"
_MAYBE_STARTED = (
    "The batch may have started anyway: look at the activity pane (batch_scrape) before sending again with ctrl+s."
)

BATCH_WORDS: dict[type[WdsError], Say] = {
    APITimeoutError: lambda e: Words(
        "No answer in time", f"The service sent no answer in time: {sentence(e.message)} {_MAYBE_STARTED}"
    ),
    APIConnectionError: lambda e: Words(
        "Connection lost",
        f"The service could not be reached: {sentence(e.message)} Check the network or the "
        f"service; nothing typed is lost. {_MAYBE_STARTED}",
    ),
    InternalServerError: lambda e: Words(
        "The service failed",
        f"The service failed on its side ({status_code(e)}: {e.message}){request_id_text(e)}. "
        f"Nothing in the form is wrong. {_MAYBE_STARTED}",
    ),
    InvalidResponseError: lambda e: Words(
        "Unreadable answer",
        f"The service answered HTTP {e.status} with something that is not a batch id: "
        f"{sentence(e.message)} {_MAYBE_STARTED}",
    ),
}


class BatchFormScreen(LaunchFormScreen):
    """The batch scrape form; a started batch opens in its status screen.

    `webhooks` is the dashboard's webhook inbox: its address, when it listens, is offered as the webhook.
    """

    NAME = "batch"
    GROUP = "batch-start"
    HEADING = TITLE
    PATH = "/v2/batch/scrape"
    NOTHING_DONE = "No batch was started; the form says why and keeps what you typed."
    CANCELLED = (
        "Cancelled: no answer will be shown, but the service may have started the batch "
        "(look at the activity pane). The form is as you left it; ctrl+s sends again."
    )
    FIRST = "#urls"
    ENTER_SENDS = False
    READABLE_CURL = True  # every URL in the body

    BINDINGS: ClassVar[list[BindingType]] = launch_bindings("batch_form", "Start batch", "Cancel")

    def __init__(self, client: WdsClient, *, webhooks: WebhookAddress | None = None, urls: Sequence[str] = ()) -> None:
        super().__init__(client, webhooks)
        self.urls = tuple(urls)

    def make_fields(self) -> BatchFields:
        return BatchFields(self.urls, id="batch-form")  # prefilled

    def on_mount(self) -> None:
        super().on_mount()
        urls = self.query_one("#urls", TextArea)
        urls.move_cursor(urls.document.end)  # prefilled: go on typing after the last URL

    async def call(self, request: BatchScrapeRequest) -> BatchScrapeStarted:
        return await self.client.batch.create(request=request)

    def words(self, request: BatchScrapeRequest) -> dict[type[WdsError], Say]:
        return BATCH_WORDS

    def progress(self, request: BatchScrapeRequest, elapsed: int) -> str:
        count = len(request.urls)
        return f"Starting a batch of {count:,} URL{'' if count == 1 else 's'} … {elapsed} s · Esc cancels"

    async def answered(self, answer: BatchScrapeStarted, request: BatchScrapeRequest) -> None:
        invalid = tuple(answer.invalid_urls or ())
        accepted = len(request.urls) - len(invalid)
        note = f"{accepted:,} URL{'' if accepted == 1 else 's'} accepted"
        if invalid:
            note += f", {len(invalid):,} refused as invalid (listed on the status screen)"
        app = self.app
        self.dismiss(None)
        app.notify(note, title=f"Batch {answer.id[:8]} started")
        first = next((url for url in request.urls if url not in invalid), None)
        app.post_message(JobsSeen((JobSighting(BATCH, answer.id, STARTED_HERE, url=first, started=True),)))
        app.post_message(OpenBatch(answer.id, invalid))
