"""The header's "updated": never later than the oldest data among the panes in view.

Taken again when a pane's data changes, when a pane comes back into view
(marked "refreshing" while its old data is fetched again) and when that
refresh ends, and when a zoom ends. A pane that never had data claims nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import App, ReturnType

from tui.dashboard.kit.pane import Pane

if TYPE_CHECKING:
    from tui.dashboard.kit.widgets.status_header import StatusHeader


class SaysHowOldTheDataIs(App[ReturnType]):
    """An app whose header says how old its panes' data is (mix in before `App`); the app sets `header`."""

    header: StatusHeader

    # Textual calls this besides WatchesTheConnection's own handler of the same message.
    @on(Pane.Refreshed)
    @on(Pane.AgeChanged)
    def _data_age_changed(self) -> None:
        self.show_data_age()

    def show_data_age(self) -> None:
        """Put the oldest last answer among the panes in view in the header, and whether one refreshes."""
        if not self.screen_stack:  # a late answer while the app shuts down
            return
        in_view = [pane for pane in self.screen_stack[0].query(Pane) if pane.display and pane.last_success is not None]
        if not in_view:
            return
        self.header.last_refresh = min(pane.last_success for pane in in_view if pane.last_success is not None)
        self.header.refreshing = any(pane.refreshing_since is not None for pane in in_view)
