"""The behaviour every dashboard pane shares: polling, staleness, pause, maximise.

A pane polls in one long-lived exclusive async worker: fetch, show, sleep
the interval, again. The next fetch starts only after the previous one has
finished (dolphie's habit: no pile-up when the service is slow), and only
while a person can see the pane and it is not paused. Anything that must
fetch at once (r, unpause, another page or filter) restarts the worker: the
exclusive worker cancels a fetch in flight, so an answer to an older question
can never overwrite a newer one. One worker per pane rather than one per fetch:
an idle dashboard then costs a request and a sleep per poll, not a new worker,
task, timer and state-change messages each time. When a fetch fails, the last
good data stays on screen with a "stale since" mark and the reason.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.clock import Clock, system_clock
from tui.widgets.live_table import LiveTable

T = TypeVar("T")
POLL_GROUP = "pane-poll"
"""The worker group of the panes' polling loops (they run for as long as the pane)."""
log = logging.getLogger(__name__)


class PaneStatus(Static):
    """The one-line status under a pane: paused, stale (and why), or nothing."""

    DEFAULT_CSS = """
    PaneStatus { height: auto; max-height: 3; color: $text-muted; }
    PaneStatus.-stale { color: $error; }
    PaneStatus.-paused { color: $warning; }
    """


class Pane(Vertical, Generic[T], can_focus=False):
    """A bordered, self-refreshing view of one endpoint.

    Subclasses implement `fetch` (call the API, return models) and `show`
    (put them on screen). Everything about timing and failure lives here.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh_now", "Refresh"),
        Binding("p", "toggle_pause", "Pause"),
        Binding("z", "toggle_maximize", "Zoom"),
    ]

    TITLE: ClassVar[str] = "Pane"

    paused: reactive[bool] = reactive(False)
    stale_since: reactive[datetime | None] = reactive(None)
    failure: reactive[str | None] = reactive(None)

    def __init__(
        self,
        client: WdsClient,
        *,
        interval: float = 5.0,
        clock: Clock = system_clock,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.client = client
        self.interval = interval
        self.clock = clock
        self.data: T | None = None
        self.last_success: datetime | None = None
        # Set by refresh_data, cleared when that fetch's answer (or failure) is shown.
        self._fetch_due = False
        self.border_title = self.TITLE

    def compose_status(self) -> ComposeResult:
        yield PaneStatus(id=f"{self.id or 'pane'}-status", classes="pane-status")

    # --- to implement -------------------------------------------------------

    async def fetch(self) -> T:
        """Call the service; raise a WdsError on failure."""
        raise NotImplementedError

    def show(self, data: T) -> bool:
        """Put fresh data on screen; return True if anything visible changed."""
        raise NotImplementedError

    def show_again(self, data: T) -> bool:
        """The same answer as last time (most polls): by default nothing to redraw.

        A pane whose picture also depends on something else (the clock, where
        the reader asked to go) overrides this.
        """
        return False

    # --- timing -------------------------------------------------------------

    def on_mount(self) -> None:
        self.refresh_data()

    @property
    def can_be_seen(self) -> bool:
        """Fetch only while the pane is on the active screen and displayed."""
        return self.screen.is_active and self.display and self.region.area > 0

    @property
    def fetching(self) -> bool:
        """Whether a fetch asked for by `refresh_data` has not been shown yet."""
        return self._fetch_due

    def refresh_data(self) -> None:
        """Fetch now, then go on polling every `interval` seconds."""
        self._fetch_due = True
        self._poll()

    @work(exclusive=True, exit_on_error=False, group=POLL_GROUP)
    async def _poll(self) -> None:
        await self._fetch_once()  # asked for: even when paused or not laid out yet
        while True:
            await asyncio.sleep(self.interval)
            if not self.paused and self.can_be_seen:  # no request while nobody watches
                await self._fetch_once()

    async def _fetch_once(self) -> None:
        """Fetch, and show the result or keep the old data marked stale."""
        recovering = self.last_success is None or self.stale_since is not None
        try:
            data = await self.fetch()
            same = self.data is not None and data == self.data
            self.data = data  # before show(): panes read it while drawing
            changed = self.show_again(data) if same else self.show(data)
        except WdsError as exc:
            self._mark_stale(exc)
        except Exception as exc:  # a bug of ours: say so in the pane rather than fail silently
            log.exception("pane %s failed to refresh", self.TITLE)
            self._mark_stale(WdsError(f"{type(exc).__name__}: {exc} (a bug in wds-tui; please report it)"))
        else:
            self.last_success = self.clock()
            self.stale_since = None
            self.failure = None
            if changed or recovering:  # a poll that brings nothing new has nothing to say
                self.post_message(self.Refreshed(self, changed))
        # Not in a `finally`: a fetch cancelled by a newer refresh_data is still due.
        self._fetch_due = False

    def _mark_stale(self, exc: WdsError) -> None:
        if self.stale_since is None:
            self.stale_since = self.last_success or self.clock()
        self.failure = f"{exc.title}: {exc.message}" if exc.message else exc.title
        self.post_message(self.FetchFailed(self, exc))

    def show_empty(self, table: LiveTable, note: Static, empty: bool) -> bool:
        """Shrink `table` to its headers and show `note` when there are no rows.

        The table stays (its headers, and the focus for the pane's keys).
        Returns True when the empty state changed, i.e. something was redrawn.
        """
        was_empty = bool(note.display)
        table.set_class(empty, "-empty")
        note.display = empty
        return was_empty != empty

    # --- status line --------------------------------------------------------

    def watch_paused(self) -> None:
        self._update_status()

    def watch_stale_since(self) -> None:
        self._update_status()

    def watch_failure(self) -> None:
        self._update_status()

    def _update_status(self) -> None:
        try:
            status = self.query_one(PaneStatus)
        except Exception:  # not composed yet
            return
        status.set_class(self.paused, "-paused")
        status.set_class(self.stale_since is not None, "-stale")
        parts = []
        if self.paused:
            parts.append("⏸ paused (p to resume)")
        if self.stale_since is not None:
            parts.append(f"⚠ stale since {self.stale_since.astimezone():%H:%M:%S}: {self.failure}")
        status.update(" · ".join(parts))
        status.display = bool(parts)

    # --- actions ------------------------------------------------------------

    def all_bindings(self) -> list[Binding]:
        """This pane's key bindings, for the command palette."""
        return [b for group in self._bindings.key_to_bindings.values() for b in group]

    def focus_first(self) -> None:
        """Focus the pane's table, or else its first focusable widget.

        At once, not on the next turn of the loop as `Widget.focus` does: keys
        typed together ("2z") arrive together, and the second must reach the
        pane the first one chose.
        """
        tables = [w for w in self.query(DataTable) if w.focusable]
        for widget in tables or self.query("*"):
            if widget.focusable:
                self.screen.set_focus(widget)
                return

    def action_refresh_now(self) -> None:
        self.refresh_data()

    def action_toggle_pause(self) -> None:
        self.paused = not self.paused
        if not self.paused:
            self.refresh_data()

    def action_toggle_maximize(self) -> None:
        """Ask to fill the screen, or to go back to its place: whoever lays the panes out decides."""
        self.post_message(self.ZoomToggled(self))

    def show_zoomed(self, zoomed: bool) -> None:
        """Mark this pane as the one filling the screen (the stylesheet brightens its border)."""
        self.set_class(zoomed, "-zoomed", update=False)
        # Restyle this node alone: set_class would restyle every widget inside too, and a
        # restyled DataTable throws away every row it has rendered (a whole redraw per zoom).
        self.app.stylesheet.update_nodes([self])

    # --- messages -----------------------------------------------------------

    class Refreshed(Message):
        """A fetch brought news: a change on screen, or the first good answer (ever, or since a failure).

        `changed` says whether the pane redrew anything. A poll that finds the
        same data as before sends nothing.
        """

        def __init__(self, pane: Pane[Any], changed: bool) -> None:
            super().__init__()
            self.pane = pane
            self.changed = changed

    class ZoomToggled(Message):
        """The user asked for `pane` to fill the screen, or to stop filling it."""

        def __init__(self, pane: Pane[Any]) -> None:
            super().__init__()
            self.pane = pane

    class FetchFailed(Message):
        """A fetch failed; the pane kept its last data."""

        def __init__(self, pane: Pane[Any], error: WdsError) -> None:
            super().__init__()
            self.pane = pane
            self.error = error
