"""The behaviour every dashboard pane shares: a border and a status line on live data, pause, zoom.

The polling itself (one long-lived worker per pane, fetching only while the
pane can be seen and is not paused, the last good data kept and marked stale
on failure) is `tui.dashboard.kit.widgets.live.LiveData`'s, shared with the screens that
follow a job. Here: what a pane adds to it, and the messages the app reads
(news, failures, zoom).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.line_table import LineTable
from tui.dashboard.kit.widgets.live import LiveData
from tui.dashboard.kit.widgets.live_table import LiveTable

T = TypeVar("T")


class PaneStatus(Static):
    """The one-line status under a pane: paused, stale (and why), how old while refreshing, or nothing."""

    DEFAULT_CSS = """
    PaneStatus { height: auto; max-height: 3; color: $text-muted; }
    PaneStatus.-stale { color: $text-error; }
    PaneStatus.-paused { color: $text-warning; }
    """


class Pane(Vertical, LiveData[T], Generic[T], can_focus=False):
    """A bordered, self-refreshing view of one endpoint.

    Subclasses implement `fetch` (call the API, return models) and `show`
    (put them on screen); timing and failure are `LiveData`'s.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh_now", "Refresh", id="pane.refresh_now"),
        Binding("p", "toggle_pause", "Pause", id="pane.toggle_pause"),
        Binding("z", "toggle_maximize", "Zoom", id="pane.toggle_maximize"),
    ]

    TITLE: ClassVar[str] = "Pane"

    paused: reactive[bool] = reactive(False)
    held = False
    """Set by the app while the service cannot be reached: its banner alone tries again (`r` still fetches)."""

    def __init__(
        self, client: WdsClient, *, interval: float = 5.0, clock: Clock = system_clock, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.client = client
        self.interval = interval
        self.clock = clock
        self.border_title = self.TITLE

    def compose_status(self) -> ComposeResult:
        yield PaneStatus(id=f"{self.id or 'pane'}-status", classes="pane-status")

    # --- live data ------------------------------------------------------------

    def on_mount(self) -> None:
        self.refresh_data()

    @property
    def can_be_seen(self) -> bool:
        return not self.held and super().can_be_seen

    @property
    def holds_still(self) -> bool:
        return self.held or super().holds_still

    def fetched(self, changed: bool, recovering: bool) -> None:
        self.post_message(self.Refreshed(self, changed))

    def fetch_failed(self, error: WdsError) -> None:
        self.mark_stale(error)
        self.post_message(self.FetchFailed(self, error))

    def age_changed(self) -> None:
        self.post_message(self.AgeChanged(self))

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

    def show_status(self) -> None:
        self._update_status()

    def _update_status(self) -> None:
        try:
            status = self.query_one(PaneStatus)
        except NoMatches:  # not composed yet
            return
        status.set_class(self.paused, "-paused")
        status.set_class(self.stale_since is not None, "-stale")
        parts = []
        if self.paused:
            parts.append("⏸ paused (p to resume)")
        stale = self.stale_text()
        if stale is not None:
            parts.append(stale)
        age = self.age_text()
        if age is not None and stale is None:  # stale already says since when
            parts.append(age)
        status.update(shown(" · ".join(parts)))  # the reason is the service's words
        status.display = bool(parts)

    # --- actions ------------------------------------------------------------

    def focus_first(self) -> None:
        """Focus the pane's table, or else its first focusable widget.

        At once, not on the next turn of the loop as `Widget.focus` does: keys
        typed together ("2z") arrive together, and the second must reach the
        pane the first one chose.
        """
        tables = [w for w in self.query(LineTable) if w.focusable]
        for widget in tables or self.query("*"):
            if widget.focusable:
                self.screen.set_focus(widget)
                return

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.keep_toasts_aside()

    def keep_toasts_aside(self) -> None:
        """Show notifications on the half of the screen this pane is not in (the stylesheet's ToastRack.-left).

        A toast is at most half the screen wide and stacks up from the bottom:
        on the other half it never covers the pane a person is working in.
        """
        screen_width = self.screen.size.width
        on_the_right = self.region.width < screen_width and self.region.x * 2 + self.region.width > screen_width
        for rack in self.screen.query("ToastRack"):  # Textual's, by its style name: it does not export the class
            # Only the rack and its toasts are restyled (a class on the screen would restyle every pane).
            rack.set_class(on_the_right, "-left")

    def action_refresh_now(self) -> None:
        self.refresh_data()

    def action_toggle_pause(self) -> None:
        self.toggle_pause()

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

    @dataclass(eq=False)
    class Refreshed(Message):
        """A fetch brought news: a change on screen, or the first good answer (ever, or since a failure).

        `changed` says whether the pane redrew anything. A poll that finds the
        same data as before sends nothing.
        """

        pane: Pane[Any]
        changed: bool

    @dataclass(eq=False)
    class ZoomToggled(Message):
        """The user asked for `pane` to fill the screen, or to stop filling it."""

        pane: Pane[Any]

    @dataclass(eq=False)
    class AgeChanged(Message):
        """The pane came back into sight with old data and refreshes ("as of ... · refreshing"), or that refresh ended."""

        pane: Pane[Any]

    @dataclass(eq=False)
    class FetchFailed(Message):
        """A fetch failed; the pane kept its last data."""

        pane: Pane[Any]
        error: WdsError
