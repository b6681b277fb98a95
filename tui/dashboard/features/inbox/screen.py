"""The webhook inbox: the events the service sent to this dashboard, checked and folded.

Opened with `w` (or the palette), which also starts the listener when it is
not running (`tui.dashboard.features.inbox.service`). One row per event: time, type, job id,
`webhookId`, whether its signature verified, how many deliveries (retries
fold into one row), and its metadata; the highlighted row's details below.
An unverified event is shown, marked, never dropped on arrival.

Deliveries can come by the thousand a second, so the screen does not redraw
per delivery: it notes which rows changed and, at most once per
`FLUSH_SECONDS` (`BURST_FLUSH_SECONDS` in a burst, longer while drawing
takes longer), puts just those rows in the table: new ones on top, changed
ones in place, evicted ones out.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.features.inbox.store import Change, InboxRow
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import clip, clock_time, short_id
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.status_look import FAILURE, SUCCESS, UNKNOWN
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.live_table import LiveTable, Row, Squeeze
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

COLUMNS = ("time", "type", "job", "webhookId", "signature", "n", "metadata")
FLUSH_SECONDS = 0.1
"""The longest a delivery waits to be shown; a burst's deliveries are shown together."""
BURST_ROWS = 20
"""Rows in one update that make it a burst's: more than a screenful, so the table is drawn anew each time."""
BURST_FLUSH_SECONDS = 0.25
"""Between the updates of a burst: each draws a whole table (~50 ms), and keys pressed meanwhile wait for it."""
DRAW_SHARE = 0.25
"""At most this part of the time goes to showing deliveries: a slow update spaces out the next one."""


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 event`, `2 events`."""
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


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
    return row.key, (when, event.type, short_id(event.id), event.webhook_id, trust_text(row), f"×{row.count}", metadata)


class WebhookInboxScreen(ForwardsWorkerFailures, Screen[None]):
    """The inbox of this run; Esc goes back, the listener keeps listening."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="webhook_inbox.close"),
        Binding("y", "copy_address", "Copy webhook URL", id="webhook_inbox.copy_address"),
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
        self._unsubscribe: Callable[[], None] | None = None
        self._changed: dict[str, tuple[int, Row]] = {}  # rows to show again: their key, place (seq) and cells
        self._evicted: set[str] = set()
        self._flush_timer: Timer | None = None
        self._flush_delay = FLUSH_SECONDS
        self._flush_started: float | None = None  # while an update is on its way to the screen
        self._in_burst = False
        self._shown_detail: tuple[object, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Static("Webhook inbox", id="inbox-title")
        yield Static("starting the listener…", id="inbox-address", markup=False)
        yield LiveTable(*COLUMNS, id="inbox-table", squeeze=(Squeeze("metadata", 8), Squeeze("webhookId", 12)))
        yield Static("No webhook received yet.", id="inbox-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._unsubscribe = self.service.inbox.subscribe(self._changed_row)
        self._show_rows()
        self.start_listening()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._flush_timer is not None:
            self._flush_timer.stop()

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
        """Every row, as the inbox holds them now (on opening the screen)."""
        self._changed.clear()
        self._evicted.clear()
        table = self.query_one("#inbox-table", LiveTable)
        table.sync([inbox_row(row, self.clock) for row in reversed(self.service.inbox.rows)])  # newest first
        self._show_counts()
        self._show_detail()

    def _changed_row(self, change: Change) -> None:
        """Note what a delivery changed; the table hears of it with the others of its burst.

        The row's cells are made now, a few at a time as deliveries come in, so that
        the update itself is short: a key pressed meanwhile waits for that alone.
        """
        for key in change.evicted:
            self._changed.pop(key, None)
            self._evicted.add(key)
        row = change.row
        self._changed[row.key] = (row.seq, inbox_row(row, self.clock))
        if self._flush_timer is None and self._flush_started is None:
            self._flush_timer = self.set_timer(self._flush_delay, self._flush)

    def _flush(self) -> None:
        """Put the rows changed since the last flush in the table, in one update."""
        self._flush_timer = None
        self._flush_started = time.perf_counter()
        changed = sorted(self._changed.values(), key=lambda change: change[0], reverse=True)  # newest on top
        self._in_burst = len(changed) + len(self._evicted) >= BURST_ROWS
        evicted = self._evicted
        self._changed, self._evicted = {}, set()
        table = self.query_one("#inbox-table", LiveTable)
        table.put_rows([cells for _, cells in changed], removed=evicted, new_on_top=True)
        self._show_counts()
        self._show_detail()
        self.call_after_refresh(self._flushed)

    def _flushed(self) -> None:
        """Once the update is on screen: the next one waits in proportion to what this one took."""
        if self._flush_started is None or not self.is_mounted:
            return  # the screen has closed since
        # Drawing a table of new rows is most of the cost (~50 ms at 120x40 here), and it
        # happens after `_flush`, so it is timed up to the refresh. So a burst never takes
        # more than DRAW_SHARE of the loop from the keys a person presses meanwhile.
        spent = time.perf_counter() - self._flush_started
        self._flush_started = None
        self._flush_delay = max(BURST_FLUSH_SECONDS if self._in_burst else FLUSH_SECONDS, spent / DRAW_SHARE)
        if (self._changed or self._evicted) and self._flush_timer is None:
            self._flush_timer = self.set_timer(self._flush_delay, self._flush)

    def _show_counts(self) -> None:
        inbox = self.service.inbox
        received = inbox.received
        self.query_one("#inbox-title", Static).update(
            f"Webhook inbox · {plural(received, 'delivery', 'deliveries')} in {plural(len(inbox), 'event')}"
            if received
            else "Webhook inbox",
            layout=False,  # one line, always: no need to lay the screen out again for a count
        )

    def _show_detail(self) -> None:
        table = self.query_one("#inbox-table", LiveTable)
        key = table.selected_key()
        row = self.service.inbox.get(key)
        # Drawn again only when the highlighted row changed: a burst updates the table
        # ten times a second, and a row's data is read again from its body (up to 1 MiB).
        state = (key, row.count, row.body_dropped) if row is not None else (None, len(self.service.inbox))
        if state == self._shown_detail:
            return
        self._shown_detail = state
        detail = self.query_one("#inbox-detail", Static)
        if row is None:
            detail.update("No webhook received yet." if not len(self.service.inbox) else "")
            return
        latest = row.latest
        times = (
            "1 delivery"
            if row.count == 1
            else f"{row.count} deliveries, the first at {clock_time(row.first_at, self.clock())}"
        )
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
            if data := row.data_text(400):
                lines.append("data: " + data)
        if latest.cut:
            lines.append(
                f"too long to keep with the row: {', '.join(latest.cut)} (cut, or in the body while it is kept)"
            )
        if note := self.service.inbox.body_note(row):
            lines.append(note)
        detail.update(shown("\n".join(lines), lines=True))  # what arrived is the sender's words

    @on(LiveTable.RowHighlighted, "#inbox-table")
    def _highlighted(self, _: LiveTable.RowHighlighted) -> None:
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
