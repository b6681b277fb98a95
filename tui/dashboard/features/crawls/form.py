"""Start a crawl: a prompt the service turns into parameters, the 15 parameters to edit, then `POST /v2/crawl`.

ctrl+r sends the URL and prompt to `POST /v2/crawl/params-preview` (an LLM on
the real service: it can take a while; the screen says so and esc cancels)
and fills the form with the answer. The form works without a preview too.
ctrl+s checks every value with `CrawlRequest`, the model the client sends
with, and starts the crawl; on any refusal, ours or the service's, the form
stays as typed with each problem at its field or at the top. A started crawl
closes the form, tells the app (`CrawlStarted`: the crawls pane looks again)
and opens the crawl's status screen. ctrl+y copies the request as a curl command (key masked) and
shows it, for a terminal over SSH whose clipboard does not follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static, TextArea

from tui.api.client import WdsClient
from tui.api.errors import (
    APIConnectionError,
    APITimeoutError,
    InternalServerError,
    RequestValidationError,
    WdsError,
)
from tui.contract.limits import CRAWL_PREVIEW_PROMPT_MAX
from tui.contract.requests import CrawlParamsPreviewRequest, CrawlRequest
from tui.contract.validation import validation_details
from tui.dashboard.features.crawls import params_fields as params
from tui.dashboard.kit.curl import curl_command, readable_curl
from tui.dashboard.kit.error_words import Say, Words, words_for
from tui.dashboard.kit.form_body import NO_INBOX_HINT, offer_webhook
from tui.dashboard.kit.form_issues import field_issues, issues_by_field, mark_fields, problem_text
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import CrawlStarted, OpenCrawl

if TYPE_CHECKING:
    from tui.dashboard.kit.webhook_address import WebhookAddress

_OFFERED = "offered-webhook"  # the draft's note of the inbox address last offered
# Fields outside the 15 parameters, by wire name -> widget id.
_OWN_FIELDS = {"prompt": "prompt", "webhook": "webhook"}


class CrawlFormScreen(ForwardsWorkerFailures, Screen[None]):
    """The crawl's parameters from a prompt or by hand, checked against the contract, then started.

    `webhooks` is the dashboard's webhook inbox: its address, when it listens, is offered as the webhook.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: they work from inside the prompt and the path lists (text areas) too.
        Binding("ctrl+r", "preview", "Preview parameters", priority=True, id="crawl_form.preview"),
        Binding("ctrl+s", "start", "Start crawl", priority=True, id="crawl_form.start"),
        Binding("ctrl+y", "copy_curl", "Copy as curl", priority=True, id="crawl_form.copy_curl"),
        Binding("escape", "back", "Back", id="crawl_form.back"),  # or stops a preview under way (the form says so then)
    ]

    DEFAULT_CSS = """
    CrawlFormScreen { layout: vertical; }
    CrawlFormScreen #crawl-form-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    CrawlFormScreen #form-problem { color: $error; padding: 0 1; height: auto; }
    CrawlFormScreen #crawl-form { height: 1fr; padding: 0 1; }
    CrawlFormScreen .form-section { text-style: bold; color: $text-muted; margin-top: 1; }
    CrawlFormScreen .field-row { height: auto; }
    CrawlFormScreen .field-label { width: 35; padding-right: 1; color: $text-muted; }
    CrawlFormScreen .field-row > Input, CrawlFormScreen .field-row > Select,
    CrawlFormScreen .field-row > Checkbox { width: 1fr; }
    CrawlFormScreen .field-row > TextArea { width: 1fr; height: 3; padding: 0; }
    CrawlFormScreen .field-row > #prompt { height: 4; }
    CrawlFormScreen .field-error { color: $error; height: auto; padding-left: 35; }
    CrawlFormScreen .field-hint { color: $text-muted; height: auto; padding-left: 35; }
    CrawlFormScreen #preview-row { height: auto; margin-top: 1; }
    CrawlFormScreen #preview-state { width: 1fr; padding-left: 2; color: $text-muted; }
    CrawlFormScreen #curl-view { margin-top: 1; padding: 0 1; background: $panel; height: auto; }
    """

    def __init__(
        self, client: WdsClient, *, webhooks: WebhookAddress | None = None, draft: dict[str, Any] | None = None
    ) -> None:
        super().__init__()
        self.client = client
        self.webhooks = webhooks
        # What was typed, by widget id: kept when the form closes unsent, restored when it opens again.
        self.draft = draft if draft is not None else {}
        self.sending = False
        self.previewing = False

    # --- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label("Start a crawl", id="crawl-form-title")
        problem = Static("", id="form-problem", markup=False)
        problem.display = False
        yield problem
        with VerticalScroll(id="crawl-form"):
            yield Static("Describe the crawl, and ctrl+r fills the parameters (or fill them by hand)",
                         classes="form-section")
            yield from params.compose_field(params.FIELD_BY_WIRE["url"])
            with Horizontal(classes="field-row"):
                label = f"prompt · text, up to {CRAWL_PREVIEW_PROMPT_MAX}"
                yield Label(label, id="prompt-label", classes="field-label", markup=False)
                yield TextArea(id="prompt", compact=True, placeholder="e.g. only the blog, up to 50 pages, depth 2")
            yield from _error_line("prompt")
            with Horizontal(id="preview-row"):
                yield Button("Preview parameters", id="preview", compact=True)
                yield Static("ctrl+r: ask the service for the parameters", id="preview-state", markup=False)
            yield Static("Parameters: sent as shown", classes="form-section")
            for field in params.PARAM_FIELDS[1:]:
                yield from params.compose_field(field)
            yield Static("Webhook", classes="form-section")
            with Horizontal(classes="field-row"):
                yield Label("webhook · URL, optional", id="webhook-label", classes="field-label", markup=False)
                yield Input(placeholder="https://… receives the crawl's events", id="webhook", compact=True)
            yield from _error_line("webhook")
            yield Static(NO_INBOX_HINT, id="webhook-hint", classes="field-hint", markup=False)
            with Horizontal(id="start-row"):
                yield Button("Start crawl", id="start", variant="primary", compact=True)
            curl = Static("", id="curl-view", markup=False)
            curl.display = False
            yield curl
        yield Footer()

    def on_mount(self) -> None:
        self._restore_draft()
        self.query_one("#param-url", Input).focus()

    def _draft_widgets(self) -> list[Any]:
        return [self.query_one(f"#{dom_id}") for dom_id in self._all_dom_ids()]

    def _save_draft(self) -> None:
        for widget in self._draft_widgets():
            self.draft[widget.id] = widget.text if isinstance(widget, TextArea) else widget.value

    def _restore_draft(self) -> None:
        for widget in self._draft_widgets():
            if widget.id is None or widget.id not in self.draft:
                continue
            if isinstance(widget, TextArea):
                widget.text = self.draft[widget.id]
            else:
                widget.value = self.draft[widget.id]

    def on_screen_resume(self) -> None:
        # On opening, and back from the inbox (w started it): offer its address if the field is empty.
        # Once per address: a field emptied on purpose stays empty after the help or a reopening.
        address = self.webhooks.address if self.webhooks is not None else None
        if offer_webhook(self, address, self.draft.get(_OFFERED)):
            self.draft[_OFFERED] = address

    # --- reading and checking -----------------------------------------------------

    def wire_values(self) -> dict[str, Any]:
        """Everything the form holds for `POST /v2/crawl`, by wire name (the prompt is not sent: the form is)."""
        values = params.read(self)
        webhook = self.query_one("#webhook", Input).value.strip()
        if webhook:
            values["webhook"] = webhook
        return values

    def build_request(self) -> CrawlRequest | None:
        """The crawl request, or None after putting each problem at its field."""
        try:
            request = CrawlRequest.model_validate(self.wire_values())
        except ValidationError as exc:
            self.show_issues(validation_details(exc))
            return None
        self.show_issues([])
        return request

    def show_issues(self, issues: list[dict[str, Any]], *, problem: str = "") -> None:
        """Each issue under its field, one of no known field at the top; the rest cleared."""
        # Under its field the name is already in the label: "must be ≥ 1", not "limit: must be ≥ 1".
        issues = [{**issue, "message": str(issue["message"]).removeprefix(f"{_top(issue['path'])}: ")}
                  for issue in issues]
        problems = issues_by_field(issues, lambda path: self._dom_id(_top(path)))
        mark_fields(self, problems, self._all_dom_ids())
        self._show_problem(problem_text(problem, problems))
        first = next((dom_id for dom_id in self._all_dom_ids() if dom_id in problems), None)
        if first is not None:
            self.query_one(f"#{first}").focus()

    @staticmethod
    def _dom_id(wire: str) -> str | None:
        field = params.FIELD_BY_WIRE.get(wire)
        return field.dom_id if field is not None else _OWN_FIELDS.get(wire)

    @staticmethod
    def _all_dom_ids() -> list[str]:
        ids = [field.dom_id for field in params.PARAM_FIELDS]
        return ids[:1] + ["prompt"] + ids[1:] + ["webhook"]

    def _show_problem(self, text: str) -> None:
        problem = self.query_one("#form-problem", Static)
        problem.update(shown(text, lines=True))
        problem.display = bool(text)

    def _refused(self, error: WdsError, doing: str) -> None:
        issues = field_issues(error)
        if not issues:
            words = words_for(error, _crawl_words(doing, self.client.base_url))
            problem = f"{doing}: {words.text[:1].lower()}{words.text[1:]}"
        elif isinstance(error, RequestValidationError):
            problem = ""
        else:
            problem = f"{doing}: the service refused some values (400); see the marked fields."
        self.show_issues(issues, problem=problem)

    # --- preview --------------------------------------------------------------------

    @on(Button.Pressed, "#preview")
    def action_preview(self) -> None:
        """Ask the service for parameters from the URL and the prompt (the form is filled with its answer)."""
        if self.previewing:
            return
        values = {
            "url": self.query_one("#param-url", Input).value.strip(),
            "prompt": self.query_one("#prompt", TextArea).text,
        }
        try:
            request = CrawlParamsPreviewRequest.model_validate(values)
        except ValidationError as exc:
            self.show_issues(validation_details(exc))
            return
        self.show_issues([])
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
            self._refused(exc, "Preview")
            return
        params.fill(self, answer.data)
        self._preview_state("Filled from the preview: check and edit, then ctrl+s starts the crawl.", busy=False)

    def action_back(self) -> None:
        """Esc: cancel a preview under way, else close the form."""
        if self.previewing:
            self.workers.cancel_group(self, "crawl-preview")
            self._preview_state("Preview cancelled; the form is as it was.", busy=False)
            return
        self._save_draft()  # closed unsent: C brings it back as it was
        self.dismiss(None)

    # --- curl -------------------------------------------------------------------------

    def action_copy_curl(self) -> None:
        """Copy the request as a curl command (key masked) and show it under the form."""
        request = self.build_request()
        if request is None:
            self.notify("Fix the marked fields first: the command would be refused.", severity="warning")
            return
        command = curl_command(
            "POST", self.client.base_url, "/v2/crawl", key_hint=self.client.api_key_hint, body=request.to_wire()
        )
        self.app.copy_to_clipboard(command)
        view = self.query_one("#curl-view", Static)
        view.update(shown(readable_curl(command, request.to_wire()), lines=True))  # values the preview filled in
        view.display = True
        self.call_after_refresh(view.scroll_visible)
        self.notify("Copied as curl (key masked); also shown under the form.", title="Copy as curl")

    # --- start --------------------------------------------------------------------------

    @mutates("starting a crawl")
    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """Start the crawl if every value is within its limits."""
        if self.sending:
            return  # one crawl per press: a second ctrl+s must not start a second crawl
        request = self.build_request()
        if request is not None:
            self.sending = True
            self.start(request)

    @work(exclusive=True, exit_on_error=False, group="crawl-start")
    async def start(self, request: CrawlRequest) -> None:
        """`POST /v2/crawl`; on success close, refresh the crawls pane and open the crawl's status."""
        try:
            started = await self.client.crawl.start(request=request)
        except WdsError as exc:
            self._refused(exc, "Start")
            return
        finally:
            self.sending = False
        app = self.app
        self.draft.clear()  # started: the next form starts afresh
        self.dismiss(None)
        self.notify(f"Crawl {started.id} started", title="Start a crawl")
        app.post_message(CrawlStarted(started.id))
        app.post_message(OpenCrawl(started.id, request.url))


def _top(path: Any) -> str:
    """The wire name a path starts with: `includePaths` of `["includePaths", 0]` or `includePaths[0]`."""
    if isinstance(path, list | tuple):
        return str(path[0]) if path else ""
    return str(path).split(".")[0].split("[")[0]


def _crawl_words(doing: str, base_url: str) -> dict[type[WdsError], Say]:
    """The crawl form's own words: a start that failed on the way may have started anyway."""
    after = " The crawl may not have started: look at the crawls pane before sending again." if doing == "Start" else ""
    maybe = " It may have started anyway: look at the crawls pane before sending again." if doing == "Start" else ""
    return {
        InternalServerError: lambda e: Words("The service failed", f"The service failed ({e}).{after} "
                                             "Try again in a moment."),
        APITimeoutError: lambda e: Words("No answer in time", f"No answer from {base_url} in time.{maybe}"),
        APIConnectionError: lambda e: Words("Connection lost", f"Connection lost, {base_url} cannot be reached "
                                            f"({e.message}). Nothing typed is lost."),
    }


def _error_line(dom_id: str) -> ComposeResult:
    line = Static("", id=f"{dom_id}-error", classes="field-error", markup=False)
    line.display = False
    yield line
