"""A virtualised table of a map's links: `textual-fastdatatable` reading a `LinkList`'s view in place.

Textual's own `DataTable` copies every row into its own structures (19 s and
149 MB for 100,000 rows); `textual-fastdatatable` asks a backend for the rows
it draws. Its Arrow backend would mean building a pyarrow table per filter;
`LinksBackend` instead answers from the `LinkList` the explorer filters, so a
new filter costs the table nothing but a redraw of the rows on screen.

Keys, besides the table's own (arrows, page keys, home/end): space selects
the row under the cursor, shift+up / shift+down select from where the shift
began to the cursor (a range), enter posts `RowSelected` (the explorer shows
the link in full).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, NoReturn

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.message import Message
from textual_fastdatatable import DataTable
from textual_fastdatatable.backend import DataTableBackend

from tui.dashboard.features.map.links import LinkList
from tui.dashboard.kit.formatting import bare_url, middle_clip
from tui.dashboard.kit.outside_text import visible

COLUMNS = ("✓", "url", "title", "description")
# Widest each column is drawn (longer values are cut with …): the url matters most.
WIDTH_CAPS = (1, 72, 48, 60)
# The share of the table's width each text column gets when it fits the screen (url, title, description).
SHARES = (0.5, 0.27, 0.23)
MARK = "✓"


def fitted_caps(width: int | None) -> tuple[int, ...]:
    """Column caps that fit `width` cells (each column has a space of padding each side), or the widest ones.

    So that url, title and description all show at once instead of scrolling sideways:
    at 120 columns url 56, title 30, description 25; at 80, 36, 19 and 16.
    """
    if width is None:
        return WIDTH_CAPS
    room = max(width - 2 - 2 * len(COLUMNS) - WIDTH_CAPS[0], 30)  # a scrollbar, paddings, the mark
    return (WIDTH_CAPS[0], *(max(8, min(cap, int(room * share))) for cap, share in zip(WIDTH_CAPS[1:], SHARES, strict=True)))


class LinksBackend(DataTableBackend[LinkList]):
    """Rows of a `LinkList` as it is filtered and sorted now: a read-only backend, nothing copied."""

    def __init__(self, data: LinkList, max_rows: int | None = None, column_names: Sequence[str] | None = None,
                 *, width: int | None = None) -> None:
        super().__init__(data, max_rows, column_names)
        self.data = data
        # Measured once: the widest value of each column (capped to fit `width`), over every link, so
        # widths do not jump as the filter changes.
        caps = fitted_caps(width)
        self._widths = [
            1,
            *(min(cap, max(map(len, column), default=0)) for cap, column in zip(
                caps[1:], (data.urls, data.titles, data.descriptions), strict=True))
        ]

    @classmethod
    def from_pydict(cls, data: Mapping[str, Sequence[Any]], max_rows: int | None = None,
                    column_names: Sequence[str] | None = None) -> NoReturn:
        raise NotImplementedError("LinksBackend reads a LinkList")

    @property
    def source_data(self) -> LinkList:
        return self.data

    @property
    def source_row_count(self) -> int:
        return len(self.data)

    @property
    def row_count(self) -> int:
        return len(self.data.view)

    @property
    def columns(self) -> Sequence[str]:
        return COLUMNS

    @property
    def column_content_widths(self) -> Sequence[int]:
        return self._widths

    def get_row_at(self, index: int) -> Sequence[Any]:
        data = self.data
        link = data.view[index]
        return (MARK if link in data.selected else "", data.urls[link], data.titles[link], data.descriptions[link])

    def get_column_at(self, index: int) -> Sequence[Any]:
        return [self.get_cell_at(row, index) for row in range(self.row_count)]

    def get_cell_at(self, row_index: int, column_index: int) -> Any:
        return self.get_row_at(row_index)[column_index]

    # The links come from the map; the table never edits them.
    def append_column(self, label: str, default: Any | None = None) -> NoReturn:
        raise NotImplementedError("the links table is read-only")

    def append_rows(self, records: Iterable[Iterable[Any]]) -> NoReturn:
        raise NotImplementedError("the links table is read-only")

    def drop_row(self, row_index: int) -> NoReturn:
        raise NotImplementedError("the links table is read-only")

    def update_cell(self, row_index: int, column_index: int, value: Any) -> NoReturn:
        raise NotImplementedError("the links table is read-only")

    def sort(self, by: list[tuple[str, Literal["ascending", "descending"]]] | str) -> NoReturn:
        raise NotImplementedError("sort the LinkList (LinkList.sort_by), then call view_changed")


class LinksTable(DataTable):
    """The links of a `LinkList`, a row each, with a ✓ on the selected ones."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle", "Select", show=False, id="links_table.toggle"),
        Binding("shift+down", "extend(1)", "Select down", show=False, id="links_table.extend.1"),
        Binding("shift+up", "extend(-1)", "Select up", show=False, id="links_table.extend.-1"),
        Binding("shift+pagedown", "extend_page(1)", "Select a page down", show=False, id="links_table.extend_page.1"),
        Binding("shift+pageup", "extend_page(-1)", "Select a page up", show=False, id="links_table.extend_page.-1"),
    ]

    # Textual's DataTable stylesheet, focused: loaded while LiveTable was a Textual DataTable, it
    # styled this table too (selectors match by class name). Kept here so the map looks the same.
    DEFAULT_CSS = """
    LinksTable:focus {
        background-tint: $foreground 5%;
        & > .datatable--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .datatable--header {
            background-tint: $foreground 5%;
        }
        & > .datatable--fixed-cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
        }
    }
    """

    class SelectionChanged(Message):
        """The selection changed (the explorer redraws its count)."""

    def __init__(self, links: LinkList, *, width: int | None = None, id: str | None = None) -> None:
        super().__init__(backend=LinksBackend(links, width=width), cursor_type="row", render_markup=False, id=id,
                         show_row_labels=False, max_column_content_width=max(WIDTH_CAPS))
        self.links = links
        self._anchor: int | None = None  # the row where a shift-selection began

    def view_changed(self) -> None:
        """Redraw after the `LinkList` was filtered or sorted: the rows on screen only."""
        self._anchor = None
        self._clear_caches()
        self._update_count += 1
        self._update_dimensions([])  # the scrollable height follows the number of rows
        self.cursor_coordinate = self._clamp_cursor_coordinate(self.cursor_coordinate)
        self.refresh()

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int, cursor: bool = False,
                     hover: bool = False, in_range: bool = False) -> list[list[Segment]]:
        """A body cell painted straight into one segment: its value is always one line of plain text.

        The table's own path renders each cell through Rich (padding, styles,
        wrapping): ~0.2 ms a cell, 30 ms a frame of 40 rows, most of a
        keystroke's 50 ms. Headers and anything else still take that path.
        """
        if row_index < 0 or column_index < 0:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover, in_range)
        key = (row_index, column_index, base_style, cursor, hover, in_range, self._show_hover_cursor,
               self._update_count, self._pseudo_class_state)
        lines = self._cell_render_cache.get(key)
        if lines is None:
            component_style, post_style = self._get_styles_to_render_cell(
                False, False, row_index < self.fixed_rows or column_index < self.fixed_columns, hover, cursor,
                in_range, self.show_cursor, self._show_hover_cursor, self.cursor_type == "range",
                self.cursor_foreground_priority == "css", self.cursor_background_priority == "css")
            style = base_style + component_style + post_style + Style.from_meta({"row": row_index,
                                                                                 "column": column_index})
            room = max(width - 2, 0)  # a space of padding each side, as the table's own cells
            # The map's words, one line of text each (`Segment` goes to the terminal as it is).
            text = visible(self.get_cell_at(self.cursor_coordinate.__class__(row_index, column_index)))
            if column_index == 1:
                text = bare_url(text)  # as the activity pane: the scheme says little and costs eight columns
            if cell_len(text) > room:
                # A URL differs at its end (the path), so it is cut in the middle; titles read from the start.
                text = middle_clip(text, room) if column_index == 1 else set_cell_size(text, max(room - 1, 0)) + "…"
            lines = [[Segment(f" {set_cell_size(text, room)} ", style)]]
            self._cell_render_cache[key] = lines
        return lines

    def selection_changed(self) -> None:
        """Redraw the ✓ marks after the selection changed outside the table."""
        self._clear_caches()
        self._update_count += 1
        self.refresh()
        self.post_message(self.SelectionChanged())

    # --- keys --------------------------------------------------------------------

    def action_toggle(self) -> None:  # type: ignore[override]  # replaces DOMNode's attribute toggle, never bound here: the key's user-facing name, links_table.toggle, follows this action's
        """Select or unselect the row under the cursor."""
        if self.row_count:
            self._anchor = None
            self.links.toggle(self.cursor_row)
            self.selection_changed()

    def action_extend(self, step: int) -> None:
        """Move the cursor by `step` rows, selecting every row from where the shift began."""
        self._extend_to(self.cursor_row + step)

    def action_extend_page(self, direction: int) -> None:
        """As `action_extend`, a screenful of rows at a time."""
        self._extend_to(self.cursor_row + direction * max(1, self.scrollable_content_region.height - 1))

    def _extend_to(self, row: int) -> None:
        if not self.row_count:
            return
        anchor = self.cursor_row if self._anchor is None else self._anchor
        target = max(0, min(row, self.row_count - 1))
        self.move_cursor(row=target)
        self.links.select_rows(anchor, target)
        self._anchor = anchor
        self.selection_changed()

    def action_cursor_up(self, select: bool = False) -> None:
        self._anchor = None
        super().action_cursor_up(select)

    def action_cursor_down(self, select: bool = False) -> None:
        self._anchor = None
        super().action_cursor_down(select)
