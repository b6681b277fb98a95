"""The webhook inbox: the events the service sent to this dashboard, checked and folded.

Opened with `w` (or the palette), which also starts the listener when it is
not running (`tui.inbox.service`). One row per event: time, type, job id,
`webhookId`, whether its signature verified, how many deliveries (retries
fold into one row), and its metadata; the highlighted row's details below.
An unverified event is shown, marked, never dropped.
"""

from __future__ import annotations

import json
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tui.clock import Clock, system_clock
from tui.failures import ForwardsWorkerFailures
from tui.formatting import clip, clock_time, short_id
from tui.inbox.service import InboxService
from tui.inbox.store import InboxRow
from tui.outside_text import shown
from tui.status_look import FAILURE, SUCCESS, UNKNOWN
from tui.widgets.footer import Footer
from tui.widgets.live_table import LiveTable, Squeeze

COLUMNS = ("time", "type", "job", "webhookId", "signature", "n", "metadata")


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 event`, `2 events`."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def trust_text(row: InboxRow) -> Text:
    """`✓ verified`, `✗ unverified` (red), or `? unchecked` when no secret is set."""
    if row.verified is True:
        return Text(f"{SUCCESS.symbol} verified", style=SUCCESS.style)
    if row.verified is False:
        return Text(f"{FAILURE.symbol} unverified", style=FAILURE.style)
    return Text(f"{UNKNOWN.symbol} unchecked")


def inbox_row(row: InboxRow, clock: Clock) -> tuple[str, tuple[str | Text, ...]]:
    """The table cells of one row, keyed by the row's key."""
    event = row.event
    when = clock_time(row.latest.received_at, clock())
    if event is None:
        return row.key, (when, "(unreadable)", "—", "—", trust_text(row), f"×{row.count}", row.latest.problem or "")
    metadata = json.dumps(event.metadata, separators=(",", ":")) if event.metadata else ""
    return row.key, (
        when, event.type, short_id(event.id), event.webhook_id, trust_text(row), f"×{row.count}", metadata
    )


class WebhookInboxScreen(ForwardsWorkerFailures, Screen[None]):
    """The inbox of this run; Esc goes back, the listener keeps listening."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("y", "copy_address", "Copy webhook URL"),
    ]

    DEFAULT_CSS = """
    WebhookInboxScreen { layout: vertical; }
    WebhookInboxScreen #inbox-title { height: 1; padding: 0 1; text-style: bold; background: $panel; }
    WebhookInboxScreen #inbox-address { height: auto; padding: 0 1; }
    WebhookInboxScreen #inbox-address.-error { color: $error; }
    WebhookInboxScreen #inbox-table { height: 1fr; }
    WebhookInboxScreen #inbox-detail { height: auto; max-height: 10; padding: 0 1; border-top: solid $panel; }
    """

    def __init__(self, service: InboxService, *, clock: Clock = system_clock) -> None:
        super().__init__()
        self.service = service
        self.clock = clock
        self._unsubscribe = None

    def compose(self) -> ComposeResult:
        yield Static("Webhook inbox", id="inbox-title")
        yield Static("starting the listener…", id="inbox-address", markup=False)
        yield LiveTable(*COLUMNS, id="inbox-table", squeeze=(Squeeze("metadata", 8), Squeeze("webhookId", 12)))
        yield Static("No webhook received yet.", id="inbox-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._unsubscribe = self.service.inbox.subscribe(lambda _row: self.call_later(self._show_rows))
        self._show_rows()
        self.start_listening()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    @work(exclusive=True, exit_on_error=False)
    async def start_listening(self) -> None:
        await self.service.start()
        self._show_address()

    def _show_address(self) -> None:
        label = self.query_one("#inbox-address", Static)
        address = self.service.address
        label.set_class(address is None, "-error")
        if address is None:
            label.update(f"Not listening: {self.service.note}. Pick another with --webhook-listen [HOST:]PORT.")
            return
        secret = "signatures checked" if self.service.inbox.secret else "no secret set: events shown unchecked"
        lines = [f"Listening on {address} (y copies it) · give it as the webhook URL · {secret}"]
        if self.service.exposed:
            lines.append("This address accepts connections from other machines.")
        else:
            port = address.rstrip("/").rsplit(":", 1)[-1]
            lines.append(f"Loopback only: for the service to reach it, forward a port to {port} (e.g. ssh -R).")
        if self.service.note:
            lines.append(self.service.note)
        label.update("\n".join(lines))

    def _show_rows(self) -> None:
        rows = self.service.inbox.rows[::-1]  # newest first
        table = self.query_one("#inbox-table", LiveTable)
        table.sync([inbox_row(row, self.clock) for row in rows])
        received = self.service.inbox.received
        self.query_one("#inbox-title", Static).update(
            f"Webhook inbox · {plural(received, 'delivery', 'deliveries')} in {plural(len(rows), 'event')}"
            if received
            else "Webhook inbox"
        )
        self._show_detail()

    def _show_detail(self) -> None:
        table = self.query_one("#inbox-table", LiveTable)
        key = table.selected_key()
        row = next((row for row in self.service.inbox.rows if row.key == key), None)
        detail = self.query_one("#inbox-detail", Static)
        if row is None:
            detail.update("No webhook received yet." if not self.service.inbox.rows else "")
            return
        latest = row.latest
        times = "1 delivery" if row.count == 1 else f"{row.count} deliveries, the first at {clock_time(row.first.received_at, self.clock())}"
        lines = [f"from {latest.peer} · {latest.size:,} bytes · {times}"]
        if latest.problem:
            lines.append(f"problem: {latest.problem}")
        event = row.event
        if event is not None:
            lines.append(f"job {event.id} · webhookId {event.webhook_id}")
            if event.error:
                lines.append(f"error: {event.error}")
            if event.metadata:
                lines.append("metadata: " + clip(json.dumps(event.metadata), 400))
            if event.data:
                lines.append("data: " + clip(json.dumps(event.data, default=str), 400))
        detail.update(shown("\n".join(lines), lines=True))  # what arrived is the sender's words

    @on(DataTable.RowHighlighted, "#inbox-table")
    def _highlighted(self, _: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_address":
            return self.service.address is not None
        return True

    def action_copy_address(self) -> None:
        address = self.service.address
        if address is not None:
            self.app.copy_to_clipboard(address)
            self.notify(f"Copied {address} (OSC 52)")

    def action_close(self) -> None:
        self.dismiss(None)
