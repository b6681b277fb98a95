"""Scrape one URL now (`POST /v2/scrape`): a form checked against the contract, then the page it got.

The values are validated with `ScrapeRequest`, the model the client sends and
the emulator checks, so a limit quoted under a field is the contract's. Nothing
typed is ever cleared: a value out of its limits (ours or the service's 400)
is said under its field; any other refusal is explained above the form
(`tui.screens.scrape_refusals`). A scrape can take as long as its timeout: the
line under the title counts the seconds, and Esc abandons the request and
gives the form back. The page opens in place (`tui.screens.scrape_result`);
Esc returns to the form to change an option and send again, `i` goes on to
interact with the scrape's browser, and ctrl+y copies the request as curl
(key masked) and shows it, for terminals without OSC 52.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Checkbox, Collapsible, ContentSwitcher, Input, Label, Select, Static
from textual.worker import Worker

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.api.limits import (
    BATCH_TIMEOUT_DEFAULT,
    BATCH_TIMEOUT_MAX,
    BATCH_TIMEOUT_MIN,
    LOCATION_COUNTRY_DEFAULT,
    MAX_AGE_DEFAULT,
    MAX_AGE_MIN,
    MIN_AGE_MIN,
    WAIT_FOR_MIN,
)
from tui.api.models.scrape import ScrapeResult
from tui.api.requests import ScrapeRequest
from tui.api.validation import validation_details
from tui.curl import curl_command
from tui.failures import ForwardsWorkerFailures
from tui.intents import OpenInteract
from tui.screens.scrape_refusals import explain
from tui.screens.scrape_result import ScrapeResultView
from tui.widgets.footer import Footer

FORMATS = ("markdown", "html", "rawHtml", "links", "images", "screenshot", "summary", "branding",
           "changeTracking", "audio", "highlights")
"""The formats offered as a tick each: every kind the contract lists that needs no options (json needs a schema)."""
PROXIES = ("auto", "basic", "enhanced")

# Fields whose values are typed, in the order of the form: (id, wire name, label, placeholder).
_NUMBERS = (
    ("max-age", "maxAge", "maxAge (ms)", f"≥ {MAX_AGE_MIN}; serve a cached copy younger; default {MAX_AGE_DEFAULT}"),
    ("min-age", "minAge", "minAge (ms)", f"≥ {MIN_AGE_MIN}; cache only, never a fresh scrape; 1: any copy"),
    ("wait-for", "waitFor", "waitFor (ms)", f"≥ {WAIT_FOR_MIN}; extra delay before fetching; default 0"),
    ("timeout", "timeout", "timeout (ms)", f"{BATCH_TIMEOUT_MIN} to {BATCH_TIMEOUT_MAX}; default {BATCH_TIMEOUT_DEFAULT}"),
)
# The field (by id) whose error line shows an issue of a wire path (its first segment, or all of it).
_FIELD_OF_PATH = {
    "url": "url",
    "formats": "formats",
    "maxAge": "max-age",
    "minAge": "min-age",
    "waitFor": "wait-for",
    "timeout": "timeout",
    "proxy": "proxy",
    "location.country": "country",
    "location.languages": "languages",
    "location": "country",
    "onlyMainContent": "switches",
    "lockdown": "switches",
    "mobile": "switches",
}
_FIELDS = ("url", "formats", "switches", "max-age", "min-age", "wait-for", "timeout", "proxy", "country", "languages")


def field_of(path: str) -> str | None:
    """The form field showing an issue at wire `path` (`formats[1]` -> formats), None for none."""
    base = path.split("[", 1)[0]
    return _FIELD_OF_PATH.get(base) or _FIELD_OF_PATH.get(base.split(".", 1)[0])


class ScrapeFormScreen(ForwardsWorkerFailures, Screen[None]):
    """The scrape form and, once a page came back, its result; Esc steps back one level."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Scrape", priority=True),
        Binding("ctrl+y", "copy_curl", "Copy as curl", priority=True),
        # One key, three meanings: check_action enables the one that fits what is shown.
        Binding("escape", "cancel_scrape", "Cancel the scrape"),
        Binding("escape", "back_to_form", "Back to the form"),
        Binding("escape", "close", "Close"),
        Binding("i", "interact", "Interact"),
        Binding("d", "show_tab('document')", "Document"),
        Binding("j", "show_tab('json')", "JSON"),
    ]

    DEFAULT_CSS = """
    ScrapeFormScreen { layout: vertical; }
    ScrapeFormScreen #scrape-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    ScrapeFormScreen #scrape-progress { height: auto; padding: 0 1; color: $text-muted; }
    ScrapeFormScreen #scrape-progress.-running { color: $warning; text-style: bold; }
    ScrapeFormScreen ContentSwitcher { height: 1fr; }
    ScrapeFormScreen #scrape-form { padding: 0 1; }
    ScrapeFormScreen #form-problem { color: $error; margin-bottom: 1; height: auto; }
    ScrapeFormScreen .field-row { height: auto; }
    ScrapeFormScreen .field-row > Label { width: 20; }
    ScrapeFormScreen .field-row > Input, ScrapeFormScreen .field-row > Select { width: 1fr; }
    ScrapeFormScreen .field-error { color: $error; height: auto; padding-left: 20; }
    ScrapeFormScreen .group { margin-top: 1; }
    ScrapeFormScreen #formats { grid-size: 3; grid-gutter: 0 1; height: auto; width: 1fr; }
    ScrapeFormScreen Checkbox { border: none; padding: 0; width: auto; background: transparent; }
    ScrapeFormScreen #switches Checkbox { margin-right: 3; }
    ScrapeFormScreen .field-hint { color: $text-muted; margin-top: 1; }
    ScrapeFormScreen #curl-panel { height: auto; max-height: 12; }
    ScrapeFormScreen #curl-text { color: $text-muted; }
    """

    def __init__(self, client: WdsClient) -> None:
        super().__init__()
        self.client = client
        self.result: ScrapeResult | None = None
        self.sent: ScrapeRequest | None = None  # the request whose answer is shown
        self._scrape: Worker[None] | None = None
        self._pending: ScrapeRequest | None = None  # the request on its way, None when none is
        self._started = 0.0
        self._ticker: Timer | None = None

    # --- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label("Scrape a URL · POST /v2/scrape", id="scrape-title")
        yield Static("", id="scrape-progress", markup=False)
        with ContentSwitcher(initial="scrape-form"):
            with VerticalScroll(id="scrape-form"):
                yield Static("", id="form-problem", markup=False)
                yield from self._input("url", "URL", "https://example.com/page")
                with Horizontal(classes="field-row group"):
                    yield Label("formats")
                    with Grid(id="formats"):
                        for kind in FORMATS:
                            yield Checkbox(kind, kind == "markdown", id=f"format-{kind}", compact=True)
                yield Static("", id="formats-error", classes="field-error", markup=False)
                with Horizontal(classes="field-row group", id="switches"):
                    yield Label("options")
                    yield Checkbox("onlyMainContent", True, id="only-main-content", compact=True)
                    yield Checkbox("lockdown", False, id="lockdown", compact=True)
                    yield Checkbox("mobile", False, id="mobile", compact=True)
                yield Static("", id="switches-error", classes="field-error", markup=False)
                for index, (field_id, _, label, hint) in enumerate(_NUMBERS):
                    yield from self._input(field_id, label, hint, numeric=True, group=index == 0)
                with Horizontal(classes="field-row group"):
                    yield Label("proxy")
                    yield Select([(mode, mode) for mode in PROXIES], value="auto", allow_blank=False,
                                 id="proxy", compact=True)
                yield Static("", id="proxy-error", classes="field-error", markup=False)
                yield from self._input("country", "location country", f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}",
                                       group=True)
                yield from self._input("languages", "location languages", "comma-separated, e.g. en, fr")
                yield Static("ctrl+s: scrape · ctrl+y: copy as curl · Esc: close", classes="field-hint")
            yield VerticalScroll(id="scrape-result")
        with Collapsible(title="The request as curl (key masked)", collapsed=False, id="curl-panel"):
            yield Static("", id="curl-text", markup=False)
        yield Footer()

    def _input(self, field_id: str, label: str, hint: str, *, numeric: bool = False,
               group: bool = False) -> ComposeResult:
        with Horizontal(classes="field-row group" if group else "field-row"):
            yield Label(label, id=f"{field_id}-label")
            yield Input(placeholder=hint, type="integer" if numeric else "text", id=field_id, compact=True)
        yield Static("", id=f"{field_id}-error", classes="field-error", markup=False)

    def on_mount(self) -> None:
        for widget_id in (*(f"{field_id}-error" for field_id in _FIELDS), "form-problem", "scrape-progress",
                          "curl-panel"):
            self.query_one(f"#{widget_id}").display = False
        self.query_one("#url", Input).focus()

    # --- reading and checking -------------------------------------------------

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name, as the request model reads it.

        Numbers stay strings so that pydantic parses them and names the field
        when they do not parse; an empty field means "not given" (the service's
        default applies); a switch or proxy left at its default is not sent.
        """
        values: dict[str, Any] = {"url": self._text("url")}
        formats = [kind for kind in FORMATS if self.query_one(f"#format-{kind}", Checkbox).value]
        if formats:
            values["formats"] = formats
        if not self.query_one("#only-main-content", Checkbox).value:
            values["onlyMainContent"] = False
        for switch in ("lockdown", "mobile"):
            if self.query_one(f"#{switch}", Checkbox).value:
                values[switch] = True
        for field_id, wire, _, _ in _NUMBERS:
            if self._text(field_id):
                values[wire] = self._text(field_id)
        proxy = self.query_one("#proxy", Select).value
        if proxy != "auto":
            values["proxy"] = proxy
        country = self._text("country")
        languages = [part.strip() for part in self._text("languages").split(",") if part.strip()]
        if country or languages:
            values["location"] = {"country": country or LOCATION_COUNTRY_DEFAULT, "languages": languages or None}
        return values

    def _text(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value.strip()

    def build_request(self) -> ScrapeRequest | None:
        """The request, or None after putting each problem under its field."""
        values = self.wire_values()
        issues: list[dict[str, Any]] = []
        if not values["url"]:
            issues.append({"path": "url", "message": "url: required, an absolute http:// or https:// URL"})
        try:
            request = ScrapeRequest.model_validate(values)
        except ValidationError as exc:
            issues.extend(issue for issue in validation_details(exc) if values["url"] or issue["path"] != "url")
            request = None
        self.show_issues(issues)
        return None if issues else request

    def show_issues(self, issues: list[dict[str, Any]], problem: str = "") -> None:
        """Put each issue under its field (one of no field on top, after `problem`), clearing the others."""
        problems: dict[str, list[str]] = {}
        for issue in issues:
            field_id = field_of(str(issue.get("path", ""))) or "form-problem"
            problems.setdefault(field_id, []).append(str(issue.get("message", "")))
        for field_id in _FIELDS:
            messages = problems.get(field_id, [])
            line = self.query_one(f"#{field_id}-error", Static)
            line.update("\n".join(messages))
            line.display = bool(messages)
            self.query_one(f"#{field_id}").set_class(bool(messages), "-invalid")
        self._show_problem("\n".join(filter(None, [problem, *problems.get("form-problem", [])])))
        first = next((field_id for field_id in _FIELDS if field_id in problems), None)
        if first == "formats":
            self.query_one("#format-markdown").focus()
        elif first == "switches":
            self.query_one("#only-main-content").focus()
        elif first is not None:
            self.query_one(f"#{first}").focus()

    def _show_problem(self, text: str) -> None:
        problem = self.query_one("#form-problem", Static)
        problem.update(text)
        problem.display = bool(text)
        if text:
            self.query_one("#scrape-form", VerticalScroll).scroll_home(animate=False)

    # --- state ------------------------------------------------------------------

    @property
    def sending(self) -> bool:
        """Whether a scrape is on its way."""
        return self._pending is not None

    @property
    def showing_result(self) -> bool:
        """Whether the page that came back is on screen (rather than the form)."""
        return self.query_one(ContentSwitcher).current == "scrape-result"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "submit":
            return not self.sending and not self.showing_result
        if action == "cancel_scrape":
            return self.sending
        if action == "back_to_form":
            return not self.sending and self.showing_result
        if action == "close":
            return not self.sending and not self.showing_result
        if action in ("interact", "show_tab"):
            return self.showing_result and (action == "show_tab" or bool(self.result and self.result.job_id))
        return True

    # --- sending ------------------------------------------------------------------

    @on(Input.Submitted)
    def _enter_in_a_field(self) -> None:
        self.action_submit()

    def action_submit(self) -> None:
        """Scrape if every value is within its limits."""
        if self.sending or self.showing_result:
            return  # one scrape at a time
        request = self.build_request()
        if request is None:
            return
        self._started = time.monotonic()
        self._pending = request
        self._scrape = self.send(request)
        self._ticker = self.set_interval(1.0, self._tick)
        self._tick()
        self.refresh_bindings()

    def _budget_text(self, request: ScrapeRequest) -> str:
        timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
        wait = f" + waitFor {request.wait_for / 1000:g} s" if request.wait_for else ""
        return f"its timeout is {timeout / 1000:g} s{wait}"

    def _tick(self) -> None:
        request = self._pending
        if request is None:
            return
        progress = self.query_one("#scrape-progress", Static)
        elapsed = int(time.monotonic() - self._started)
        progress.update(f"Scraping {request.url} … {elapsed} s ({self._budget_text(request)}) · Esc cancels")
        progress.set_class(True, "-running")
        progress.display = True

    @work(exclusive=True, exit_on_error=False, group="scrape")
    async def send(self, request: ScrapeRequest) -> None:
        """Scrape; on a refusal keep the form as typed and say why; on an answer show the page."""
        try:
            result = await self.client.scrape.create(request=request)
        except asyncio.CancelledError:
            raise  # Esc: action_cancel_scrape has said so already
        except WdsError as exc:
            self._stopped("")
            refusal = explain(exc, request)
            self.notify(refusal.text, title=refusal.title, severity="error", timeout=10)
            self.show_issues(refusal.issues, "" if refusal.issues else f"{refusal.title}: {refusal.text}")
            return
        except BaseException:
            self._stopped("")
            raise
        self._stopped("")
        self.show_issues([])
        await self._show_result(result, request)

    def _stopped(self, note: str) -> None:
        self._pending = None
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        progress = self.query_one("#scrape-progress", Static)
        progress.set_class(False, "-running")
        progress.update(note)
        progress.display = bool(note)
        self.refresh_bindings()

    async def _show_result(self, result: ScrapeResult, request: ScrapeRequest) -> None:
        self.result = result
        self.sent = request
        holder = self.query_one("#scrape-result", VerticalScroll)
        await holder.remove_children()
        await holder.mount(ScrapeResultView(result, id="scrape-result-view"))
        self.query_one(ContentSwitcher).current = "scrape-result"
        self.query_one("#scrape-title", Label).update(f"Scrape a URL · {request.url}")
        self.query_one("#scrape-document-scroll").focus()
        self.refresh_bindings()

    def action_cancel_scrape(self) -> None:
        """Abandon the scrape on its way; the form stays as typed."""
        if self._scrape is not None:
            self._scrape.cancel()
        self._stopped("Cancelled: the answer will not be shown (the service may still finish the scrape "
                      "and bill it). The form is as you left it; ctrl+s sends again.")
        self.query_one("#url", Input).focus()

    # --- after the answer ---------------------------------------------------------

    def action_back_to_form(self) -> None:
        """Back to the form as it was sent, to change an option and scrape again."""
        self.query_one(ContentSwitcher).current = "scrape-form"
        self.query_one("#scrape-title", Label).update("Scrape a URL · POST /v2/scrape")
        self.query_one("#url", Input).focus()
        self.refresh_bindings()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_show_tab(self, tab: str) -> None:
        self.query_one(ScrapeResultView).show_tab(tab)

    def action_interact(self) -> None:
        """Go on to the scrape's browser, from the page state it left (the app opens the console)."""
        if self.result is not None and self.result.job_id:
            self.post_message(OpenInteract(self.result.job_id))

    # --- curl ---------------------------------------------------------------------

    def action_copy_curl(self) -> None:
        """Copy the request as curl (key masked) through OSC 52, and show it for terminals without OSC 52."""
        request = self.sent if self.showing_result else self.build_request()
        if request is None:
            self.notify("Fix the fields marked first: curl would send what the service refuses.",
                        title="Nothing copied", severity="warning")
            return
        command = curl_command("POST", self.client.base_url, "/v2/scrape", key_hint=self.client.api_key_hint,
                               body=request.to_wire())
        self.app.copy_to_clipboard(command)
        self.query_one("#curl-text", Static).update(command)
        panel = self.query_one("#curl-panel", Collapsible)
        panel.display = True
        panel.collapsed = False
        self.notify("Copied as curl, key masked (shown below too, where the terminal has no clipboard).",
                    title="Copy as curl")
