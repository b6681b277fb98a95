"""The links a map found: filter as you type, sort, select, and take the selection elsewhere.

`MapResults` holds a filter box, a count line ("1,234 of 150,000 links · 20
selected") and a `LinksTable`. The filter is a substring of the url or title,
or a glob when it has * ? [ ] (matched against the whole url or the whole
title, ignoring case). Each keystroke filters at once: typing on narrows the
last result and deleting returns to a kept one (`LinkList`), so a burst of
keys costs little more than its last.

Keys (when the table or the filter has focus): / filter, space select,
shift+up/down select a range (from where the shift began), a select all
shown, n select none, u/t sort by url/title (again: reverse), r the
service's order, c copy the URLs (OSC 52), s save them to a file, b send them
to the batch scrape form, enter the link in full. Copy and save take the
selected links, or every shown one when none is selected; batch needs a
selection.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from tui.dashboard.features.map.links import LinkList, SortKey
from tui.dashboard.features.map.links_table import LinksTable
from tui.dashboard.features.map.save import SaveUrlsScreen
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.shell.intents import OpenBatchForm

_SORT_NAMES = {"none": "the service's order", "url": "url", "title": "title"}


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


class MapResults(Vertical):
    """The links of one map, filtered, sorted and selected."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", id="map_results.focus_filter"),
        Binding("a", "select_all", "All", id="map_results.select_all"),
        Binding("n", "select_none", "Select none", show=False, id="map_results.select_none"),
        Binding("c", "copy", "Copy", id="map_results.copy"),
        Binding("s", "save", "Save", id="map_results.save"),
        Binding("b", "batch", "Batch", id="map_results.batch"),
        Binding("u", "sort('url')", "Sort url", id="map_results.sort.url"),
        Binding("t", "sort('title')", "Sort title", id="map_results.sort.title"),
        Binding("r", "sort('none')", "Service order", show=False, id="map_results.sort.none"),
        # From the filter, down goes to the links (as Enter does); in the table its own down moves the cursor.
        Binding("down", "to_links", "To the links", show=False, id="map_results.to_links"),
    ]

    DEFAULT_CSS = """
    MapResults { height: 1fr; }
    MapResults #links-filter { margin: 0 1; }
    MapResults #links-count { height: 1; padding: 0 1; color: $text-muted; }
    MapResults LinksTable { height: 1fr; }
    MapResults #link-detail { height: auto; max-height: 8; padding: 0 1; background: $panel; }
    """

    def __init__(self, links: LinkList, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.links = links

    def compose(self) -> ComposeResult:
        yield Input(
            placeholder="filter: part of a url or title, or a glob with * ? [ ] (e.g. *.pdf)",
            id="links-filter",
            compact=True,
            select_on_focus=False,
        )
        yield Static(self._count_text(), id="links-count", markup=False)
        # Fitted to the terminal's width as the links arrive: url, title and description side by side.
        yield LinksTable(self.links, width=self.app.size.width, id="links-table")
        yield Static("", id="link-detail", markup=False)

    def on_mount(self) -> None:
        self.query_one("#link-detail").display = False
        # Filtered as the box's text changes, in the same turn: the box's new text and the rows it
        # shows reach the screen in one frame. (After its Changed message, a frame of the box
        # alone came first: two relayouts of the whole screen a keystroke.)
        self.watch(self.query_one("#links-filter", Input), "value", self._filter_typed, init=False)

    @property
    def table(self) -> LinksTable:
        """The table of the links."""
        return self.query_one(LinksTable)

    def _count_text(self) -> str:
        links = self.links
        parts = [links.count_text()]
        if links.filter.needle:
            parts.append("glob" if links.filter.glob else "substring")
        if links.sort_key != "none":
            parts.append(f"sorted by {links.sort_key} {'↓' if links.descending else '↑'}")
        return " · ".join(parts)

    def _show_count(self) -> None:
        # One line of fixed height and full width: no layout pass (a whole-screen redraw) for a new count.
        self.query_one("#links-count", Static).update(self._count_text(), layout=False)

    # --- filter -------------------------------------------------------------------

    def _filter_typed(self, text: str) -> None:
        self.links.set_filter(text)
        self.table.view_changed()
        self._show_count()

    @on(Input.Submitted, "#links-filter")
    def _filter_done(self) -> None:
        self.table.focus()

    def action_to_links(self) -> None:
        self.table.focus()

    def action_focus_filter(self) -> None:
        self.query_one("#links-filter", Input).focus()

    def action_sort(self, key: SortKey) -> None:
        """Sort by url or title (again: the other way round), or back to the service's order."""
        self.links.sort_by(key)
        self.table.view_changed()
        self._show_count()
        self.notify(f"Sorted by {_SORT_NAMES[key]}" + (" (reversed)" if self.links.descending else ""), timeout=2)

    # --- selection ------------------------------------------------------------------

    @on(LinksTable.SelectionChanged)
    def _selection_changed(self) -> None:
        self._show_count()

    def action_select_all(self) -> None:
        added = self.links.select_all_shown()
        self.table.selection_changed()
        self.notify(f"Selected every shown link ({_plural(added, 'more link')}).", timeout=2)

    def action_select_none(self) -> None:
        self.links.clear_selection()
        self.table.selection_changed()

    def _export(self) -> tuple[list[str], str]:
        """The URLs copy and save act on, and how to call them ("20 selected URLs")."""
        urls = self.links.urls_to_export()
        what = "selected URL" if self.links.selected else "shown URL"
        return urls, _plural(len(urls), what)

    def action_copy(self) -> None:
        """Copy the URLs (selected, or every shown one) through OSC 52, one per line."""
        urls, what = self._export()
        if not urls:
            self.notify("No links shown: clear the filter first.", title="Nothing copied", severity="warning")
            return
        self.app.copy_to_clipboard("\n".join(urls))
        self.notify(f"Copied {what} to the clipboard (OSC 52).", title="Copied")

    def action_save(self) -> None:
        """Ask for a file and save the URLs there (selected, or every shown one)."""
        urls, what = self._export()
        if not urls:
            self.notify("No links shown: clear the filter first.", title="Nothing saved", severity="warning")
            return

        def saved(path: Path | None) -> None:
            if path is not None:
                self.notify(f"Saved {what} to {path}.", title="Saved")

        self.app.push_screen(SaveUrlsScreen(urls, what), saved)

    @mutates("starting a batch scrape")
    def action_batch(self) -> None:
        """Open the batch scrape form with the selected URLs."""
        if not self.links.selected:
            self.notify(
                "Select links first: space, shift+arrows for a range, a for every shown link.",
                title="Nothing selected",
                severity="warning",
            )
            return
        urls = self.links.selected_urls()
        self.post_message(OpenBatchForm(urls=tuple(urls)))
        self.notify(f"Sent {_plural(len(urls), 'URL')} to the batch scrape form.", timeout=3)

    # --- one link in full ---------------------------------------------------------------

    @on(LinksTable.RowSelected)
    def _toggle_detail(self, event: LinksTable.RowSelected) -> None:
        detail = self.query_one("#link-detail", Static)
        detail.display = not detail.display
        self._show_detail(event.cursor_row)

    @on(LinksTable.RowHighlighted)
    def _follow_detail(self, event: LinksTable.RowHighlighted) -> None:
        if self.query_one("#link-detail").display:
            self._show_detail(event.cursor_row)

    def _show_detail(self, row: int) -> None:
        if not 0 <= row < len(self.links.view):
            return
        index = self.links.link_at(row)
        links = self.links
        lines = (
            links.urls[index],
            links.titles[index] or "(no title)",
            links.descriptions[index] or "(no description)",
        )
        text = "\n".join(visible(line) for line in lines)  # the map's words: one line each, as text
        self.query_one("#link-detail", Static).update(shown(text, lines=True))
