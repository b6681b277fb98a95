"""Start a batch scrape (`POST /v2/batch/scrape`): URLs and options checked against the contract, then followed.

The URLs come pasted, or from the map explorer's selection (`urls`); the
options are the scrape form's (`tui.dashboard.kit.scrape_options`) plus the batch's
own (`tui.dashboard.features.batch.fields`). Every value is checked with
`BatchScrapeRequest`, the model the client sends, before anything leaves;
any refusal, ours or the service's, keeps the form as typed and says why
(`tui.dashboard.features.batch.refusals`). While the answer is awaited a line counts the
seconds and Esc abandons it. A started batch closes the form and opens its
status screen (`OpenBatch`), which lists the URLs the service refused as
invalid beside the accepted ones. ctrl+y copies the request as curl (key
masked) and shows it, for terminals without OSC 52.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Collapsible, Label, Static, TextArea

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.requests import BatchScrapeRequest
from tui.dashboard.features.batch.fields import BatchFields
from tui.dashboard.features.batch.refusals import explain_batch
from tui.dashboard.kit.curl import curl_command, readable_curl
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.request_progress import RequestProgress
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import OpenBatch

if TYPE_CHECKING:
    from textual.worker import Worker

    from tui.dashboard.kit.webhook_address import WebhookAddress

TITLE = "Batch scrape · POST /v2/batch/scrape"


class BatchFormScreen(ForwardsWorkerFailures, Screen[None]):
    """The batch scrape form; a started batch opens in its status screen.

    `webhooks` is the dashboard's webhook inbox: its address, when it listens, is offered as the webhook.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: they work from inside the URL list (a text area) too.
        Binding("ctrl+s", "submit", "Start batch", priority=True, id="batch_form.submit"),
        Binding("ctrl+y", "copy_curl", "Copy as curl", priority=True, id="batch_form.copy_curl"),
        # One key, two meanings: check_action enables the one that fits.
        Binding("escape", "cancel_send", "Cancel", id="batch_form.cancel_send"),
        Binding("escape", "close", "Close", id="batch_form.close"),
    ]

    DEFAULT_CSS = """
    BatchFormScreen { layout: vertical; }
    BatchFormScreen #batch-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    BatchFormScreen BatchFields { height: 1fr; }
    BatchFormScreen #curl-panel { height: auto; max-height: 12; }
    BatchFormScreen #curl-scroll { height: auto; max-height: 9; }
    BatchFormScreen #curl-text { color: $text-muted; }
    """

    pending: reactive[BatchScrapeRequest | None] = reactive(None, bindings=True, init=False)
    """The request on its way, None when none is (ctrl+s, Esc and the rest depend on it)."""

    def __init__(
        self, client: WdsClient, *, webhooks: WebhookAddress | None = None, urls: Sequence[str] = ()
    ) -> None:
        super().__init__()
        self.client = client
        self.webhooks = webhooks
        self.urls = tuple(urls)
        self._offered: str | None = None  # the inbox address last offered as the webhook
        self._send: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield Label(TITLE, id="batch-title")
        yield RequestProgress(id="batch-progress")
        yield BatchFields(self.urls, id="batch-form")
        # Scrolled: a thousand URLs make a long command.
        with (Collapsible(title="The request as curl (key masked)", collapsed=False, id="curl-panel"),
              VerticalScroll(id="curl-scroll")):
            yield Static("", id="curl-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#curl-panel").display = False
        urls = self.query_one("#urls", TextArea)
        urls.focus()
        urls.move_cursor(urls.document.end)  # prefilled: go on typing after the last URL

    def on_screen_resume(self) -> None:
        # On opening, and back from the inbox (w started it): offer its address if the field is empty.
        # Once per address: a field emptied on purpose stays empty after the help screen.
        address = self.webhooks.address if self.webhooks is not None else None
        if self.fields.offer_webhook(address, self._offered):
            self._offered = address

    @property
    def fields(self) -> BatchFields:
        """The form's fields."""
        return self.query_one(BatchFields)

    @property
    def sending(self) -> bool:
        """Whether a start is on its way."""
        return self.pending is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "submit":
            return not self.sending
        if action == "cancel_send":
            return self.sending
        if action == "close":
            return not self.sending
        return True

    # --- sending ---------------------------------------------------------------------

    @mutates("sending this form")
    def action_submit(self) -> None:
        """Start the batch if every value is within its limits."""
        if self.sending:
            return  # one batch per press: a second ctrl+s must not start a second batch
        request = self.fields.build_request()
        if request is None:
            return
        self.pending = request
        self._send = self.send(request)
        self.query_one("#batch-progress", RequestProgress).start(self._describe_progress)

    def _describe_progress(self, elapsed: int) -> str:
        request = self.pending
        if request is None:
            return ""
        count = len(request.urls)
        return f"Starting a batch of {count:,} URL{'' if count == 1 else 's'} … {elapsed} s · Esc cancels"

    @work(exclusive=True, exit_on_error=False, group="batch-start")
    async def send(self, request: BatchScrapeRequest) -> None:
        """`POST /v2/batch/scrape`; on a refusal keep the form and say why; on success open the batch."""
        try:
            started = await self.client.batch.create(request=request)
        except asyncio.CancelledError:
            raise  # Esc: action_cancel_send has said so already
        except WdsError as exc:
            self._stopped("")
            refusal = explain_batch(exc)
            self.notify("No batch was started; the form says why and keeps what you typed.", title=refusal.title,
                        severity="error", timeout=6)
            self.fields.show_issues(refusal.issues, "" if refusal.issues else f"{refusal.title}: {refusal.text}")
            return
        except Exception:  # a bug of ours: the app's sink says so; the form must not stay "sending"
            self._stopped("")
            raise
        self._stopped("")
        invalid = tuple(started.invalid_urls or ())
        accepted = len(request.urls) - len(invalid)
        note = f"{accepted:,} URL{'' if accepted == 1 else 's'} accepted"
        if invalid:
            note += f", {len(invalid):,} refused as invalid (listed on the status screen)"
        app = self.app
        self.dismiss(None)
        app.notify(note, title=f"Batch {started.id[:8]} started")
        app.post_message(OpenBatch(started.id, invalid))

    def _stopped(self, note: str) -> None:
        self.pending = None
        self.query_one("#batch-progress", RequestProgress).stop(note)

    def action_cancel_send(self) -> None:
        """Abandon the start on its way; the form stays as typed."""
        if self._send is not None:
            self._send.cancel()
        self._stopped("Cancelled: no answer will be shown, but the service may have started the batch "
                      "(look at the activity pane). The form is as you left it; ctrl+s sends again.")

    def action_close(self) -> None:
        self.dismiss(None)

    # --- curl ------------------------------------------------------------------------

    def action_copy_curl(self) -> None:
        """Copy the request as curl (key masked, every URL in the body) and show it, for terminals without OSC 52."""
        request = self.fields.build_request()
        if request is None:
            self.notify("Fix the fields marked first: curl would send what the service refuses.",
                        title="Nothing copied", severity="warning")
            return
        command = curl_command("POST", self.client.base_url, "/v2/batch/scrape",
                               key_hint=self.client.api_key_hint, body=request.to_wire())
        self.app.copy_to_clipboard(command)
        # Shown with one URL a line: a wrapped one-line body breaks inside strings when copied from the screen.
        self.query_one("#curl-text", Static).update(shown(readable_curl(command, request.to_wire()), lines=True))
        panel = self.query_one("#curl-panel", Collapsible)
        panel.display = True
        panel.collapsed = False
        self.notify("Key masked; also shown below, for terminals without OSC 52.", title="Copied as curl")
