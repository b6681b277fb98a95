"""Live status of a browser session's DevTools websocket, beside the execute console.

The panel opens the session's `cdpUrl` with `tui.api.cdp.CdpClient` in an
async worker and shows what comes back: the connection state, the browser's
product and version, the round-trip latency, the open pages (url, title,
loading) as executed code navigates, and the latest protocol events. Pages
and events wrap (a long URL is folded, never cut), so they read in a narrow
panel. The socket is closed when the panel goes away.

Idle writes nothing: every line is updated only when its text changes (the
pages too, as one block), and latency is
sampled every `LATENCY_SAMPLE_SECONDS` (the one poll loop, `PollLoop`, on
the figure the client measures) and redrawn only when it moved by a visible amount (`latency_moved`), in a fixed-width cell so that redrawing it
never triggers a layout of the whole screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, RichLog, Static

from tui.api.cdp import CdpClient
from tui.api.cdp_types import CdpEvent, ClientUpdate, ConnectionState, PagesChanged, PageTarget, StateChanged
from tui.api.polling import PollLoop
from tui.dashboard.kit.formatting import clip
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.widgets.live import POLL_GROUP
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

EVENTS_KEPT = 50
"""Events kept to draw again when the log's width changes."""
EVENT_LOG_LINES = 250
"""Wrapped lines the event log keeps (the latest events, however many lines each takes)."""
LATENCY_SAMPLE_SECONDS = 5.0
CLOSE_TIMEOUT_SECONDS = 2.0
PARAMS_WIDTH = 90
"""Characters kept of an event's params as JSON (a gist, not the data)."""
TARGET_GIST_WIDTH = 400
"""Characters kept of a target's type, url and title: the URL whole, as it is what the reader looks for."""

STATE_LABELS: dict[ConnectionState, tuple[str, str]] = {
    ConnectionState.CONNECTING: ("◌ connecting…", "-pending"),
    ConnectionState.CONNECTED: ("● connected", "-ok"),
    ConnectionState.RECONNECTING: ("◌ reconnecting…", "-pending"),
    ConnectionState.CLOSED: ("○ closed", "-off"),
    ConnectionState.DESTROYED: ("✕ session destroyed", "-bad"),
}

ClientFactory = Callable[[str], CdpClient]


def latency_text(ms: float | None) -> str:
    """Latency in steps: 1 ms below 10, 5 ms below 100, 10 ms above."""
    if ms is None:
        return "latency —"
    if ms < 1:
        return "latency <1 ms"
    step = 1 if ms < 10 else 5 if ms < 100 else 10
    return f"latency {max(step, round(ms / step) * step)} ms"


def latency_moved(shown: float | None, sample: float | None) -> bool:
    """Worth redrawing: the first sample, or a change of more than 2 ms and a quarter of the shown value."""
    if shown is None or sample is None:
        return shown is not sample
    return abs(sample - shown) > max(2.0, shown / 4)


def about_browser_ui(params: dict[str, Any]) -> bool:
    """An event about Chrome's own interface (its chrome:// targets), not a page the session opened.

    Chrome reports changes to those many times a second; in the log they would
    push out every event about the session's own pages.
    """
    info = params.get("targetInfo")
    return isinstance(info, dict) and info.get("type") == "browser_ui"


def summarize_params(method: str, params: dict[str, Any]) -> str:
    """A one-line gist of an event's params (target infos by type, url and title)."""
    info = params.get("targetInfo")
    if isinstance(info, dict):
        gist = f"{info.get('type', '?')} {info.get('url', '')}"
        if info.get("title") and info.get("title") != info.get("url"):
            gist += f" “{info['title']}”"
        return clip(gist, TARGET_GIST_WIDTH)
    if "targetId" in params and len(params) <= 2:
        gist = f"target {str(params['targetId'])[:8]}"
    else:
        gist = json.dumps(params, separators=(",", ":"), default=str)
    return clip(gist, PARAMS_WIDTH)


def page_row(page: PageTarget) -> tuple[str, str, str]:
    """A page as the panel shows it: title, url, state (the page's own words, one line each)."""
    return visible(page.title or "(untitled)"), visible(page.url), "loading…" if page.loading else "ready"


def pages_text(rows: list[tuple[str, str, str]]) -> Text:
    """The pages, two lines each: the title and its state, then the whole URL (folded when long)."""
    text = Text()
    for number, (title, url, state) in enumerate(rows):
        if number:
            text.append("\n")
        text.append(title, style="bold")
        text.append(f" · {state}\n", style="dim")
        text.append(url)
    return text or Text("no page open", style="dim")


class EventLog(RichLog):
    """The event log, wrapped to its width; drawn again at a new width (the panel shown full screen)."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id, max_lines=EVENT_LOG_LINES, min_width=1, markup=False, wrap=True, auto_scroll=True)
        self.events: deque[Text] = deque(maxlen=EVENTS_KEPT)
        self._drawn_width = 0

    def add(self, line: Text) -> None:
        """Show one more event (the oldest go first)."""
        self.events.append(line)
        self.write(line)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self._drawn_width and width != self._drawn_width and self.events:
            self.clear()
            for line in self.events:
                self.write(line)
        self._drawn_width = width


class CdpStatusPanel(ForwardsWorkerFailures, Vertical):
    """The live CDP status of one session; `connect(url)` when the URL comes later (interact).

    Enter in its pages or events shows the panel over the whole screen (Escape brings it back):
    the narrow column beside the editor is enough to watch, not always to read.
    """

    ALLOW_MAXIMIZE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "full_screen", "Full screen", id="cdp_status_panel.full_screen")
    ]

    DEFAULT_CSS = """
    CdpStatusPanel { height: 1fr; border: round $primary 40%; padding: 0 1; }
    CdpStatusPanel:focus-within { border: round $primary; }
    CdpStatusPanel.-maximized { width: 1fr; height: 1fr; }
    CdpStatusPanel #cdp-state { height: auto; text-style: bold; }
    CdpStatusPanel #cdp-state.-ok { color: $success; }
    CdpStatusPanel #cdp-state.-pending { color: $warning; }
    CdpStatusPanel #cdp-state.-bad { color: $error; }
    CdpStatusPanel #cdp-state.-off { color: $text-muted; }
    CdpStatusPanel #cdp-reason { height: auto; color: $text-muted; }
    CdpStatusPanel #cdp-facts { height: 1; }
    CdpStatusPanel #cdp-browser { width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    CdpStatusPanel #cdp-latency { width: 16; color: $text-muted; text-align: right; }
    CdpStatusPanel .cdp-heading { color: $text-muted; text-style: bold; margin-top: 1; }
    CdpStatusPanel #cdp-pages-box { height: auto; max-height: 40%; scrollbar-size-vertical: 1; }
    CdpStatusPanel #cdp-pages { height: auto; }
    CdpStatusPanel #cdp-events { height: 1fr; min-height: 3; scrollbar-size-vertical: 1; }
    """

    def __init__(
        self,
        cdp_url: str | None = None,
        *,
        waiting_note: str = "no CDP URL for this session",
        client_factory: ClientFactory = CdpClient,
        id: str | None = None,  # noqa: A002 - Textual's name
    ) -> None:
        super().__init__(id=id)
        self.border_title = "Browser (CDP)"
        self.cdp_url = cdp_url
        self.waiting_note = waiting_note
        self.client_factory = client_factory
        self.client: CdpClient | None = None
        self._texts: dict[str, str] = {}
        self._shown_latency: float | None = None
        self.page_rows: list[tuple[str, str, str]] = []  # as shown: title, url, state

    def compose(self) -> ComposeResult:
        yield Static("", id="cdp-state", markup=False)
        yield Static("", id="cdp-reason", markup=False)
        with Horizontal(id="cdp-facts"):
            yield Static("", id="cdp-browser", markup=False)
            yield Static("", id="cdp-latency", markup=False)
        yield Label("Pages", classes="cdp-heading")
        with VerticalScroll(id="cdp-pages-box"):
            yield Static(pages_text([]), id="cdp-pages", markup=False)
        yield Label("Events", classes="cdp-heading")
        yield EventLog(id="cdp-events")

    def on_mount(self) -> None:
        self._set_text("cdp-latency", latency_text(None), layout=False)
        self._set_text("cdp-browser", "browser —", layout=False)
        if self.cdp_url:
            self.connect(self.cdp_url)
        else:
            self._show_state("○ not connected", "-off", self.waiting_note)
        sampler = PollLoop(
            self._read_latency,
            deliver=self._show_latency,
            fail=_raise,  # reading a number cannot fail but by a bug: let the app's failure sink say so
            interval=LATENCY_SAMPLE_SECONDS,
            due=lambda: self.state is ConnectionState.CONNECTED,
        )
        self.run_worker(sampler.run(at_once=False), name="CDP latency", group=POLL_GROUP, exit_on_error=False)

    async def on_unmount(self) -> None:
        # The worker is cancelled with the widget; close here too so the socket is
        # gone by the time the screen has closed, not whenever the task unwinds.
        await self._close_client()

    # --- public -------------------------------------------------------------------

    def action_full_screen(self) -> None:
        """Show the panel over the whole screen, or back in its column."""
        if self.screen.maximized is self:
            self.screen.minimize()
        else:
            self.screen.maximize(self, container=False)

    @property
    def state(self) -> ConnectionState | None:
        """The client's connection state, or None before any URL was given."""
        return self.client.state if self.client is not None else None

    @property
    def pages(self) -> tuple[PageTarget, ...]:
        return self.client.pages if self.client is not None else ()

    def connect(self, cdp_url: str) -> None:
        """Watch `cdp_url` (a no-op when already watching it and not finished)."""
        if self.client is not None and self.client.cdp_url == cdp_url and not self.client.state.final:
            return
        self.cdp_url = cdp_url
        self._shown_latency = None  # a new session: its first figure is shown at once
        self._show_state(*STATE_LABELS[ConnectionState.CONNECTING], "")
        self._watch(cdp_url)

    # --- the connection worker ---------------------------------------------------------

    @work(exclusive=True, exit_on_error=False, group="cdp-status")
    async def _watch(self, cdp_url: str) -> None:
        try:
            await self._follow(cdp_url)
        except Exception as error:
            # A bug of ours: say so here rather than "connecting…" for ever; the app's failure sink
            # (the worker ends in error) notifies and logs it.
            self._show_state("✕ stopped by an error", "-bad", f"{type(error).__name__}: {error}")
            raise

    async def _follow(self, cdp_url: str) -> None:
        await self._close_client()  # a new URL (a new interact session) replaces the old one
        client = self.client = self.client_factory(cdp_url)
        updates = client.updates()  # subscribed before starting, so no early update is missed
        client.start()
        try:
            async for update in updates:
                self._apply(update)
        finally:
            updates.close()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(client.close(), CLOSE_TIMEOUT_SECONDS)

    async def _close_client(self) -> None:
        if self.client is not None and not self.client.state.final:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.client.close(), CLOSE_TIMEOUT_SECONDS)

    def _apply(self, update: ClientUpdate) -> None:
        if isinstance(update, StateChanged):
            label, style = STATE_LABELS[update.state]
            reason = update.reason or ""
            if update.state is ConnectionState.CONNECTED:
                reason = ""
            self._show_state(label, style, reason)
        elif isinstance(update, PagesChanged):
            self._show_pages([page_row(page) for page in update.pages])
        elif isinstance(update, CdpEvent) and not about_browser_ui(update.params):
            # A page's title and URL come with the event: what the page says is shown as text.
            line = Text(visible(update.method), style="bold")
            line.append("  " + visible(summarize_params(update.method, update.params)))
            self.query_one("#cdp-events", EventLog).add(line)
        self._show_browser()
        if self._shown_latency is None and self.state is ConnectionState.CONNECTED:
            # The first figure as soon as there is one, not a sample period later.
            self._show_latency(self.client.latency_ms if self.client is not None else None, False)

    # --- drawing, only when something changed --------------------------------------------

    def _set_text(self, widget_id: str, text: str, *, layout: bool = True) -> None:
        if self._texts.get(widget_id) != text:
            self._texts[widget_id] = text
            self.query_one(f"#{widget_id}", Static).update(shown(text), layout=layout)  # the browser's words

    def _show_state(self, label: str, style: str, reason: str) -> None:
        state = self.query_one("#cdp-state", Static)
        for name in ("-ok", "-pending", "-bad", "-off"):
            state.set_class(name == style, name)
        self._set_text("cdp-state", label)
        self._set_text("cdp-reason", reason)
        self.query_one("#cdp-reason").display = bool(reason)

    def _show_pages(self, rows: list[tuple[str, str, str]]) -> None:
        if rows != self.page_rows:
            self.page_rows = rows
            self.query_one("#cdp-pages", Static).update(pages_text(rows))

    def _show_browser(self) -> None:
        version = self.client.browser_version if self.client is not None else None
        if version is not None:
            protocol = f" · protocol {version.protocol_version}" if version.protocol_version else ""
            self._set_text("cdp-browser", f"{version.product}{protocol}", layout=False)

    async def _read_latency(self) -> float | None:
        return self.client.latency_ms if self.client is not None else None

    def _show_latency(self, sample: float | None, _same: bool) -> None:
        if latency_moved(self._shown_latency, sample):
            self._shown_latency = sample
            self._set_text("cdp-latency", latency_text(sample), layout=False)  # fixed width: no layout


def _raise(error: Exception) -> None:
    raise error
