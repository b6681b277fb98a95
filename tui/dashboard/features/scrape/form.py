"""Scrape one URL now (`POST /v2/scrape`): a form checked against the contract, then the page it got.

The values are validated with `ScrapeRequest`, the model the client sends and
the emulator checks, so a limit quoted under a field is the contract's. Nothing
typed is ever cleared: a value out of its limits (ours or the service's 400)
is said under its field; any other refusal is explained above the form
(`tui.dashboard.features.scrape.refusals`). A scrape can take as long as its timeout: the
line under the title counts the seconds, and Esc abandons the request and
gives the form back. The page opens in place (`tui.dashboard.features.scrape.result`);
Esc returns to the form to change an option and send again, `i` goes on to
interact with the scrape's browser, and ctrl+y copies the request as curl
(key masked) and shows it, for terminals without OSC 52.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Collapsible, ContentSwitcher, Input, Label, Static
from textual.worker import Worker

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.limits import BATCH_TIMEOUT_DEFAULT
from tui.contract.models.scrape import ScrapeResult
from tui.contract.requests import ScrapeRequest
from tui.dashboard.features.scrape.fields import ScrapeFields
from tui.dashboard.features.scrape.refusals import explain
from tui.dashboard.features.scrape.result import ScrapeResultView
from tui.dashboard.kit.curl import curl_command
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.request_progress import RequestProgress
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import OpenInteract


class ScrapeFormScreen(ForwardsWorkerFailures, Screen[None]):
    """The scrape form and, once a page came back, its result; Esc steps back one level."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Scrape", priority=True, id="scrape_form.submit"),
        Binding("ctrl+y", "copy_curl", "Copy as curl", priority=True, id="scrape_form.copy_curl"),
        # One key, three meanings: check_action enables the one that fits what is shown.
        Binding("escape", "cancel_scrape", "Cancel the scrape", id="scrape_form.cancel_scrape"),
        Binding("escape", "back_to_form", "Back to the form", id="scrape_form.back_to_form"),
        Binding("escape", "close", "Close", id="scrape_form.close"),
        Binding("i", "interact", "Interact", id="scrape_form.interact"),
        Binding("d", "show_tab('document')", "Document", id="scrape_form.show_tab.document"),
        Binding("j", "show_tab('json')", "JSON", id="scrape_form.show_tab.json"),
    ]

    DEFAULT_CSS = """
    ScrapeFormScreen { layout: vertical; }
    ScrapeFormScreen #scrape-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    ScrapeFormScreen ContentSwitcher { height: 1fr; }
    ScrapeFormScreen #curl-panel { height: auto; max-height: 12; }
    ScrapeFormScreen #curl-text { color: $text-muted; }
    """

    pending: reactive[ScrapeRequest | None] = reactive(None, bindings=True, init=False)
    """The request on its way, None when none is (ctrl+s, Esc and the rest depend on it)."""
    view: reactive[str] = reactive("scrape-form", bindings=True, init=False)
    """Which of the form and the answer is on screen (the ContentSwitcher shows it)."""

    def __init__(self, client: WdsClient) -> None:
        super().__init__()
        self.client = client
        self.result: ScrapeResult | None = None
        self.sent: ScrapeRequest | None = None  # the request whose answer is shown
        self._scrape: Worker[None] | None = None

    # --- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label("Scrape a URL · POST /v2/scrape", id="scrape-title")
        yield RequestProgress(id="scrape-progress")
        with ContentSwitcher(initial="scrape-form"):
            yield ScrapeFields(id="scrape-form")
            yield Vertical(id="scrape-result")  # the result view scrolls its own document
        with Collapsible(title="The request as curl (key masked)", collapsed=False, id="curl-panel"):
            yield Static("", id="curl-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#curl-panel").display = False
        self.query_one("#url", Input).focus()

    @property
    def fields(self) -> ScrapeFields:
        """The form's fields."""
        return self.query_one(ScrapeFields)

    # --- state ------------------------------------------------------------------

    @property
    def sending(self) -> bool:
        """Whether a scrape is on its way."""
        return self.pending is not None

    @property
    def showing_result(self) -> bool:
        """Whether the page that came back is on screen (rather than the form)."""
        return self.view == "scrape-result"

    def watch_view(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view

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

    @mutates("sending this form")
    def action_submit(self) -> None:
        """Scrape if every value is within its limits."""
        if self.sending or self.showing_result:
            return  # one scrape at a time
        request = self.fields.build_request()
        if request is None:
            return
        self.query_one("#curl-panel").display = False  # it showed an earlier request; ctrl+y shows this one
        self.pending = request
        self._scrape = self.send(request)
        self.query_one("#scrape-progress", RequestProgress).start(self._describe_progress)

    def _budget_text(self, request: ScrapeRequest) -> str:
        timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
        wait = f" + waitFor {request.wait_for / 1000:g} s" if request.wait_for else ""
        return f"its timeout is {timeout / 1000:g} s{wait}"

    def _describe_progress(self, elapsed: int) -> str:
        request = self.pending
        if request is None:
            return ""
        return f"Scraping {request.url} … {elapsed} s ({self._budget_text(request)}) · Esc cancels"

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
            # Short: the whole explanation is above the form, where it stays.
            self.notify("Nothing was scraped; the form says why and keeps what you typed.", title=refusal.title,
                        severity="error", timeout=6)
            self.fields.show_issues(refusal.issues, "" if refusal.issues else f"{refusal.title}: {refusal.text}")
            return
        except Exception:  # a bug of ours: the app's sink says so; the form must not stay "scraping"
            self._stopped("")
            raise
        self._stopped("")
        self.fields.show_issues([])
        await self._show_result(result, request)

    def _stopped(self, note: str) -> None:
        self.pending = None
        self.query_one("#scrape-progress", RequestProgress).stop(note)

    async def _show_result(self, result: ScrapeResult, request: ScrapeRequest) -> None:
        self.result = result
        self.sent = request
        holder = self.query_one("#scrape-result", Vertical)
        await holder.remove_children()
        await holder.mount(ScrapeResultView(result, id="scrape-result-view"))
        self.view = "scrape-result"
        self.query_one("#scrape-title", Label).update(shown(f"Scrape a URL · {request.url}"))  # a URL may hold [ ]
        self.query_one("#scrape-document-scroll").focus()

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
        self.view = "scrape-form"
        self.query_one("#scrape-title", Label).update("Scrape a URL · POST /v2/scrape")
        self.query_one("#url", Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_show_tab(self, tab: str) -> None:
        self.query_one(ScrapeResultView).show_tab(tab)

    @mutates("interacting with a scrape's browser")
    def action_interact(self) -> None:
        """Go on to the scrape's browser, from the page state it left (the app opens the console)."""
        if self.result is not None and self.result.job_id:
            self.post_message(OpenInteract(self.result.job_id))

    # --- curl ---------------------------------------------------------------------

    def action_copy_curl(self) -> None:
        """Copy the request as curl (key masked) through OSC 52, and show it for terminals without OSC 52."""
        request = self.sent if self.showing_result else self.fields.build_request()
        if request is None:
            self.notify("Fix the fields marked first: curl would send what the service refuses.",
                        title="Nothing copied", severity="warning")
            return
        command = curl_command("POST", self.client.base_url, "/v2/scrape", key_hint=self.client.api_key_hint,
                               body=request.to_wire())
        self.app.copy_to_clipboard(command)
        self.query_one("#curl-text", Static).update(shown(command, lines=True))
        panel = self.query_one("#curl-panel", Collapsible)
        panel.display = True
        panel.collapsed = False
        self.notify("Key masked; also shown below, for terminals without OSC 52.", title="Copied as curl")
