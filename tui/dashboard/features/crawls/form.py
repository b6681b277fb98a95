"""Start a crawl: a prompt the service turns into parameters, the 15 parameters to edit, then `POST /v2/crawl`.

ctrl+r sends the URL and prompt to `POST /v2/crawl/params-preview` (an LLM on
the real service: it can take a while; the screen says so and esc cancels)
and fills the form with the answer. The form works without a preview too.
The launch form (`tui.dashboard.kit.launch_form`) checks every value with
`CrawlRequest`, starts the crawl, counts the seconds, lets Esc abandon the
request and copies it as curl; on any refusal, ours or the service's, the
form stays as typed with each problem at its field or at the top. A started
crawl closes the form, tells the app (`JobsSeen`: the crawls pane lists it
now, not at its next poll) and opens the crawl's status screen. A form closed unsent keeps what
was typed (`draft`, the app's memory) for the next time it opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.binding import Binding, BindingType
from textual.widgets import Button, Static, TextArea

from tui.api.client import WdsClient
from tui.api.errors import APIConnectionError, APITimeoutError, InternalServerError, RequestValidationError, WdsError
from tui.contract.models.crawl import CrawlStarted as Started
from tui.contract.requests import CrawlParamsPreviewRequest, CrawlRequest
from tui.contract.validation import validation_details
from tui.dashboard.features.crawls.fields import CrawlFields
from tui.dashboard.features.crawls.params_fields import fill
from tui.dashboard.kit.error_words import Say, Words
from tui.dashboard.kit.form_issues import refusal
from tui.dashboard.kit.launch_form import LaunchFormScreen, launch_bindings
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.shell.intents import OpenCrawl
from tui.dashboard.shell.sightings import CRAWL, STARTED_HERE, JobSighting, JobsSeen

if TYPE_CHECKING:
    from tui.dashboard.kit.webhook_address import WebhookAddress

_OFFERED = "offered-webhook"  # the draft's note of the inbox address last offered


class CrawlFormScreen(LaunchFormScreen):
    """The crawl's parameters from a prompt or by hand, checked against the contract, then started.

    `webhooks` is the dashboard's webhook inbox: its address, when it listens, is offered as the webhook.
    """

    NAME = "crawl"
    GROUP = "crawl-start"
    HEADING = "Start a crawl"
    BODY = CrawlFields
    PATH = "/v2/crawl"
    CANCELLED = (
        "Cancelled: no answer will be shown, but the service may have started the crawl "
        "(look at the crawls pane). The form is as you left it; ctrl+s sends again."
    )
    FIRST = "#param-url"
    ENTER_SENDS = False
    READABLE_CURL = True  # the values the preview filled in, one a line
    CANCEL_ACTION = "cancel_start"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "preview", "Preview parameters", priority=True, id="crawl_form.preview"),
        # Esc "back" also stops a preview under way (the form says so then).
        *launch_bindings("crawl_form", "Start crawl", "Cancel", CANCEL_ACTION, "start", ("back", "Back")),
    ]

    def __init__(
        self, client: WdsClient, *, webhooks: WebhookAddress | None = None, draft: dict[str, Any] | None = None
    ) -> None:
        super().__init__(client, webhooks)
        # What was typed, by widget id: kept when the form closes unsent, restored when it opens again.
        self.draft = draft if draft is not None else {}
        self.offered = self.draft.get(_OFFERED)  # once per address, across reopenings too
        self.previewing = False

    def on_mount(self) -> None:
        for field_id, widget in self._draft_widgets().items():
            if field_id in self.draft:
                if isinstance(widget, TextArea):
                    widget.text = self.draft[field_id]
                else:
                    widget.value = self.draft[field_id]

    def _draft_widgets(self) -> dict[str, Any]:
        return {spec.field_id: self.query_one(f"#{spec.field_id}") for spec in CrawlFields.SPECS}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # ctrl+s and Esc keep the names `[keys]` knows them by: start and back.
        return super().check_action({"start": "submit", "back": "close"}.get(action, action), parameters)

    # --- preview --------------------------------------------------------------------

    @on(Button.Pressed, "#preview")
    def action_preview(self) -> None:
        """Ask the service for parameters from the URL and the prompt (the form is filled with its answer)."""
        if self.previewing:
            return
        values = {"url": self.fields.text("param-url"), "prompt": self.query_one("#prompt", TextArea).text}
        try:
            request = CrawlParamsPreviewRequest.model_validate(values)
        except ValidationError as exc:
            self.fields.show_issues(validation_details(exc))
            return
        self.fields.show_issues([])
        self._preview_state("Asking the service for parameters… (it may take a while; esc cancels)", busy=True)
        self.preview(request)

    def _preview_state(self, text: str, *, busy: bool) -> None:
        self.previewing = busy
        self.query_one("#preview-state", Static).update(shown(text, lines=True))
        self.query_one("#preview", Button).disabled = busy

    @work(exclusive=True, exit_on_error=False, group="crawl-preview")
    async def preview(self, request: CrawlParamsPreviewRequest) -> None:
        """`POST /v2/crawl/params-preview`, then the answer into the form."""
        try:
            answer = await self.client.crawl.params_preview(request=request)
        except WdsError as exc:
            self._preview_state("The preview failed: see above. ctrl+r tries again.", busy=False)
            self.say_refusal(exc, "Preview")
            return
        fill(self, answer.data)
        self._preview_state("Filled from the preview: check and edit, then ctrl+s starts the crawl.", busy=False)

    def action_back(self) -> None:
        """Esc: cancel a preview under way, else close the form."""
        if self.previewing:
            self.workers.cancel_group(self, "crawl-preview")
            self._preview_state("Preview cancelled; the form is as it was.", busy=False)
            return
        for field_id, widget in self._draft_widgets().items():  # closed unsent: C brings it back as it was
            self.draft[field_id] = widget.text if isinstance(widget, TextArea) else widget.value
        self.draft[_OFFERED] = self.offered
        self.dismiss(None)

    # --- start --------------------------------------------------------------------------

    @mutates("starting a crawl")
    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """Start the crawl if every value is within its limits."""
        self.action_submit()

    async def call(self, request: CrawlRequest) -> Started:
        return await self.client.crawl.start(request=request)

    def progress(self, request: CrawlRequest, elapsed: int) -> str:
        return f"Starting a crawl of {request.url} … {elapsed} s · Esc cancels"

    def refused(self, error: WdsError, request: CrawlRequest) -> None:
        self.say_refusal(error, "Start")

    def say_refusal(self, error: WdsError, doing: str) -> None:
        """At the fields the refusal names, and above the form what `doing` ("Start", "Preview") met."""
        words = refusal(error, crawl_words(doing, self.client.base_url))
        if isinstance(error, RequestValidationError) and words.issues:
            problem = ""
        elif words.issues:
            problem = f"{doing}: the service refused some values (400); see the marked fields."
        else:
            problem = f"{doing}: {words.text[:1].lower()}{words.text[1:]}"
        self.fields.show_issues(words.issues, problem)

    async def answered(self, answer: Started, request: CrawlRequest) -> None:
        app = self.app
        self.draft.clear()  # started: the next form starts afresh
        self.dismiss(None)
        app.notify(f"Crawl {answer.id} started", title="Start a crawl")
        app.post_message(JobsSeen((JobSighting(CRAWL, answer.id, STARTED_HERE, url=request.url, started=True),)))
        app.post_message(OpenCrawl(answer.id, request.url))


def crawl_words(doing: str, base_url: str) -> dict[type[WdsError], Say]:
    """The crawl form's own words: a start that failed on the way may have started anyway."""
    after = " The crawl may not have started: look at the crawls pane before sending again." if doing == "Start" else ""
    maybe = " It may have started anyway: look at the crawls pane before sending again." if doing == "Start" else ""
    return {
        InternalServerError: lambda e: Words(
            "The service failed", f"The service failed ({e}).{after} Try again in a moment."
        ),
        APITimeoutError: lambda e: Words("No answer in time", f"No answer from {base_url} in time.{maybe}"),
        APIConnectionError: lambda e: Words(
            "Connection lost", f"Connection lost, {base_url} cannot be reached ({e.message}). Nothing typed is lost."
        ),
    }
