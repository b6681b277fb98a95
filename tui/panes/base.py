"""The behaviour every dashboard pane shares: polling, staleness, pause, maximise.

A pane fetches in its own exclusive async worker (a slow answer can never
overwrite a newer one), re-arms its timer only after a fetch has finished
(dolphie's habit: no pile-up when the service is slow), and fetches only
while a person can see it. When a fetch fails, the last good data stays on
screen with a "stale since" mark and the reason.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import DataTable, Static

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.clock import Clock, system_clock
from tui.widgets.live_table import LiveTable

T = TypeVar("T")
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
    # A pane is a container and cannot take focus itself, so Textual would refuse to zoom it.
    ALLOW_MAXIMIZE = True

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
        self._timer: Timer | None = None
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

    # --- timing -------------------------------------------------------------

    def on_mount(self) -> None:
        self.refresh_data()

    @property
    def can_be_seen(self) -> bool:
        """Fetch only while the pane is on the active screen and displayed."""
        return self.screen.is_active and self.display and self.region.area > 0

    def _rearm(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.interval, self._on_tick)

    def _on_tick(self) -> None:
        self._timer = None
        if self.paused or not self.can_be_seen:
            self._rearm()  # look again later; no request while nobody watches
            return
        self.refresh_data()

    @work(exclusive=True, exit_on_error=False, group="pane-fetch")
    async def refresh_data(self) -> None:
        """Fetch now, show the result or keep the old data marked stale."""
        try:
            data = await self.fetch()
            self.data = data  # before show(): panes read it while drawing
            changed = self.show(data)
        except WdsError as exc:
            self._mark_stale(exc)
        except Exception as exc:  # a bug of ours: say so in the pane rather than fail silently
            log.exception("pane %s failed to refresh", self.TITLE)
            self._mark_stale(WdsError(f"{type(exc).__name__}: {exc} (a bug in wds-tui; please report it)"))
        else:
            self.last_success = self.clock()
            self.stale_since = None
            self.failure = None
            self.post_message(self.Refreshed(self, changed))
        finally:
            self._rearm()

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
        """Focus the pane's table, or else its first focusable widget."""
        tables = [w for w in self.query(DataTable) if w.focusable]
        for widget in tables or self.query("*"):
            if widget.focusable:
                widget.focus()
                return

    def action_refresh_now(self) -> None:
        self.refresh_data()

    def action_toggle_pause(self) -> None:
        self.paused = not self.paused
        if not self.paused:
            self.refresh_data()

    def action_toggle_maximize(self) -> None:
        if self.screen.maximized is self:
            self.screen.minimize()
        else:
            self.screen.maximize(self, container=False)

    # --- messages -----------------------------------------------------------

    class Refreshed(Message):
        """A fetch succeeded; `changed` says whether the pane redrew anything."""

        def __init__(self, pane: Pane[Any], changed: bool) -> None:
            super().__init__()
            self.pane = pane
            self.changed = changed

    class FetchFailed(Message):
        """A fetch failed; the pane kept its last data."""

        def __init__(self, pane: Pane[Any], error: WdsError) -> None:
            super().__init__()
            self.pane = pane
            self.error = error
