"""A table of keyed rows drawn one line at a time: Textual's line API, nothing private.

The model is toolong's `LogLines` (src/toolong/log_lines.py): a `ScrollView`
("a base class for Line API widgets", textual.textualize.io/api/scroll_view)
whose `virtual_size` says how many lines there are, a `render_line(y)` that
draws only the line asked for, and an LRU cache of the lines drawn.

Here a line is a row. What is drawn of a row is cached under its key, the
version of its cells (`RowStore`) and how it is drawn (cursor, hover, width,
style), never under its place: a row added on top costs that row's drawing,
and every row below it is drawn from the cache at its new place. The rows
come from a `RowStore` (given, changed and taken out by key) or any other
`RowSource` (the map's table reads its `LinkList`'s view in place).

The looks are `DataTable`'s (`tui.dashboard.kit.widgets.row_paint`), and so
is the stylesheet, its component classes renamed (`linetable--header`,
`--cursor`, `--hover`). `DataTable` also shows a hover on the header; here the
header is not a row and shows none.

Cells are given as `rich.text.Text`, shown as they are, or `str`, shown as plain
text (never markup), made a `Text` only when drawn (`hyperlink.linked`: a link). Making outside text safe
is the caller's (`LiveTable` does it for every cell).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.dashboard.kit.widgets.hyperlink import links_on
from tui.dashboard.kit.widgets.row_paint import TABLE_CSS, Column, column_at, paint_row, state_style
from tui.dashboard.kit.widgets.row_store import Cell, RowSource, RowStore

__all__ = ["Column", "LineTable"]

LINE_CACHE = 300
"""Lines kept drawn: a few screens' worth (a zoomed pane's 40 rows, their cursor and hover forms)."""


class LineTable(ScrollView, can_focus=True):
    """Keyed rows under a header, a row cursor, mouse and keys; rows change one at a time."""

    # DataTable's keys, so a table answers as before. Undescribed, as DataTable's were to the
    # help and the palette (they list the keys a pane or screen adds, not moving about).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", show=False, id="line_table.select_cursor"),
        Binding("up", "move(-1)", show=False, id="line_table.move.-1"),
        Binding("down", "move(1)", show=False, id="line_table.move.1"),
        Binding("right", "scroll_right", show=False, id="line_table.scroll_right"),
        Binding("left", "scroll_left", show=False, id="line_table.scroll_left"),
        Binding("pageup", "page(-1)", show=False, id="line_table.page.-1"),
        Binding("pagedown", "page(1)", show=False, id="line_table.page.1"),
        Binding("ctrl+home", "end(-1)", show=False, id="line_table.end.-1"),
        Binding("ctrl+end", "end(1)", show=False, id="line_table.end.1"),
        Binding("home", "scroll_home", show=False, id="line_table.scroll_home"),
        Binding("end", "scroll_end", show=False, id="line_table.scroll_end"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"linetable--header", "linetable--cursor", "linetable--hover"}

    DEFAULT_CSS = TABLE_CSS

    cell_padding: ClassVar[int] = 1
    """Blank cells either side of each cell."""
    header_height: ClassVar[int] = 1
    show_header: ClassVar[bool] = True

    @dataclass
    class RowMessage(Message):
        """About the row `row_key`, at `cursor_row`."""

        table: LineTable
        cursor_row: int
        row_key: str

        @property
        def control(self) -> LineTable:
            return self.table

    class RowHighlighted(RowMessage):
        """The cursor is on another row (or on a row again, after the rows were given anew)."""

    class RowSelected(RowMessage):
        """Enter, or a click on the cursor's row: the row is chosen."""

    def __init__(
        self,
        *,
        rows: RowSource | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._store = RowStore()  # the rows given to replace_rows, add_rows, ...
        self._rows: RowSource = self._store if rows is None else rows
        self._columns: list[Column] = []
        self._labels: list[int] = []  # each column's header width: where a width starts again
        self._cursor = 0
        self._cursor_column = 0  # the column last clicked: a click there again chooses the row
        self._hover_row: int | None = None  # under the mouse; shown until a key moves the cursor
        self._layout = 0  # counts changes of the columns: a part of each line's cache key
        self._styles_seen = 0  # counts restylings (focus, theme): another part
        self._laying_out = False  # rows came or went since the last refresh
        self._base = Style()  # the widget's style, for the lines of one frame
        self._lines: LRUCache[tuple[object, ...], Strip] = LRUCache(LINE_CACHE)

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def row_keys(self) -> list[str]:
        """The rows' keys, top to bottom."""
        return self._rows.keys

    @property
    def cursor_row(self) -> int:
        return self._cursor

    @property
    def columns(self) -> dict[str, Column]:
        return {column.key: column for column in self._columns}

    @property
    def ordered_columns(self) -> list[Column]:
        return list(self._columns)

    def get_row(self, key: str) -> list[Cell]:
        """The cells of the row `key`, as shown."""
        return list(self._rows.cells(key))

    def get_row_at(self, index: int) -> list[Cell]:
        """The cells of the row at `index`, as shown."""
        return list(self._rows.cells(self._rows.key_at(index)))

    def get_row_index(self, key: str) -> int:
        """Where the row `key` is shown (KeyError if it is not)."""
        index = self._rows.index_of(key)
        if index is None:
            raise KeyError(key)
        return index

    def find_row(self, key: str | None) -> int | None:
        """Where the row `key` is shown, or None."""
        return self._rows.index_of(key) if key is not None else None

    def selected_key(self) -> str | None:
        """The key of the row under the cursor, or None in an empty table."""
        return self._rows.key_at(self._cursor) if self._rows else None

    # --- changing the rows -----------------------------------------------------------------

    def set_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        """(key, header) of each column; the widths start again from the headers."""
        self._columns = [Column(key, Text(label), Text(label).cell_len) for key, label in columns]
        self._labels = [column.content_width for column in self._columns]
        self._new_layout()

    def replace_rows(self, rows: Sequence[tuple[str, Sequence[Cell]]]) -> None:
        """Show exactly `rows`; the columns as wide as these rows need (narrower, if rows went)."""
        for column, width in zip(self._columns, self._labels, strict=True):
            column.content_width = width
        self._store.replace(rows)
        self._grow_columns(cells for _, cells in rows)
        self._new_layout()
        self._rows_changed()

    def update_rows(self, rows: Sequence[tuple[str, Sequence[Cell]]]) -> bool:
        """New cells for rows already shown; only the rows that changed are drawn again. Whether any did."""
        changed = [(key, cells) for key, cells in rows if self._store.set(key, cells)]
        if self._grow_columns(cells for _, cells in changed):
            self._new_layout()
        else:
            for key, _ in changed:
                index = self._rows.index_of(key)
                if index is not None:
                    self.refresh_row(index)
        return bool(changed)

    def add_rows(self, rows: Sequence[tuple[str, Sequence[Cell]]], *, on_top: bool = False) -> None:
        """Rows not shown yet, on top or at the bottom, in the order given."""
        self._store.add(rows, on_top=on_top)
        if self._grow_columns(cells for _, cells in rows):
            self._new_layout()
        self._rows_changed()

    def remove_rows(self, keys: Sequence[str] | set[str]) -> None:
        self._store.remove(keys)
        self._rows_changed()

    def _grow_columns(self, rows: Iterable[Sequence[Cell]]) -> bool:
        """Widen the columns to the cells of `rows`; whether any column grew."""
        grew = False
        for cells in rows:
            for column, cell in zip(self._columns, cells, strict=False):
                width = cell.cell_len if isinstance(cell, Text) else cell_len(cell)
                if width > column.content_width:
                    column.content_width = width
                    grew = True
        return grew

    def _new_layout(self) -> None:
        self._layout += 1
        self._update_virtual_size()
        self.refresh()

    def source_changed(self) -> None:
        """The rows of the source given to the constructor changed (filtered, sorted): draw them."""
        self._rows_changed()

    def _rows_changed(self) -> None:
        self._cursor = max(0, min(self._cursor, len(self._rows) - 1))
        self._update_virtual_size()
        self.refresh()

    def _update_virtual_size(self) -> None:
        size = Size(self._table_width(), self.header_height + len(self._rows))
        if size != self.virtual_size:
            self.virtual_size = size
            if not self._laying_out:  # until the layout has caught up, the view's height is the old one
                self._laying_out = True
                self.call_after_refresh(self._laid_out)

    def _laid_out(self) -> None:
        self._laying_out = False

    def _table_width(self) -> int:
        return sum(column.content_width + 2 * self.cell_padding for column in self._columns)

    def refresh_row(self, index: int) -> None:
        """Draw the row at `index` again (if it is in view)."""
        y = index + self.header_height - round(self.scroll_y)
        if self.header_height <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    # --- the cursor ------------------------------------------------------------------------

    def move_cursor(self, *, row: int, animate: bool = False, scroll: bool = True, announce: bool = True) -> None:
        """Put the cursor on the row at `row` (kept within the rows); says so when it is another row (and `announce`)."""
        row = max(0, min(row, len(self._rows) - 1))
        old, self._cursor = self._cursor, row
        if scroll and self._laying_out:  # as DataTable does: scrolled once the new size is known
            self.call_after_refresh(self.scroll_to_cursor, animate=animate)
        elif scroll:
            self.scroll_to_cursor(animate=animate)
        if row != old:
            self.refresh_row(old)
            self.refresh_row(row)
            if announce:
                self.highlighted()

    def highlighted(self) -> None:
        """Tell the parent which row the cursor is on (none in an empty table)."""
        if self._rows:
            self.post_message(self.RowHighlighted(self, self._cursor, self._rows.key_at(self._cursor)))

    def scroll_to_cursor(self, *, animate: bool = False) -> None:
        region = Region(
            round(self.scroll_x), self._cursor + self.header_height, self.scrollable_content_region.width, 1
        )
        self.scroll_to_region(region, animate=animate, spacing=Spacing(self.header_height, 0, 0, 0), force=True)

    def _keyboard(self) -> None:
        """A key moves the cursor: the hover goes (as DataTable's does)."""
        if self._hover_row is not None:
            self.refresh_row(self._hover_row)
            self._hover_row = None

    def action_move(self, rows: int) -> None:
        """Move the cursor by `rows` (up when negative)."""
        self._keyboard()
        self.move_cursor(row=self._cursor + rows)

    def action_page(self, direction: int) -> None:
        """A page down (1) or up (-1): the view and the cursor by the rows in view."""
        self._keyboard()
        page = direction * (self.scrollable_content_region.height - self.header_height)
        self.scroll_relative(y=page, animate=False, force=True)
        self.move_cursor(row=self._cursor + page, scroll=False)

    def action_end(self, direction: int) -> None:
        """To the first row (-1) or the last (1)."""
        self._keyboard()
        self.move_cursor(row=0 if direction < 0 else len(self._rows) - 1)

    def action_select_cursor(self) -> None:
        self._keyboard()
        if self._rows:
            self.post_message(self.RowSelected(self, self._cursor, self._rows.key_at(self._cursor)))

    # --- the mouse -------------------------------------------------------------------------

    def _row_at(self, event: events.MouseEvent) -> int | None:
        """The index of the row under the mouse, or None (the header, below the rows)."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y < self.header_height:
            return None
        index = offset.y - self.header_height + round(self.scroll_y)
        return index if index < len(self._rows) else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._row_at(event)
        if row != self._hover_row:
            for old_or_new in (self._hover_row, row):
                if old_or_new is not None:
                    self.refresh_row(old_or_new)
            self._hover_row = row

    def on_leave(self, _: events.Leave) -> None:
        self._keyboard()

    def on_click(self, event: events.Click) -> None:
        row = self._row_at(event)
        if row is None:
            return
        event.stop()
        # As DataTable: a click on the cell the cursor is on chooses the row; anywhere else it
        # moves the cursor there. So a row is opened by a second click, never by the first.
        column = self._column_at(event)
        if (row, column) == (self._cursor, self._cursor_column):
            self.action_select_cursor()
            self._hover_row = row
        else:
            self._cursor_column = column
            self.move_cursor(row=row, animate=True)

    def _column_at(self, event: events.MouseEvent) -> int:
        offset = event.get_content_offset(self)
        x = (offset.x if offset is not None else 0) + round(self.scroll_x)
        return column_at([column.content_width for column in self._columns], self.cell_padding, x)

    # --- drawing ---------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles_seen += 1  # new colours (focus, theme): every line is drawn again
        self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base = self.rich_style  # once a frame, not once a line: it walks up the ancestors' styles
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self._base
        scroll_x, scroll_y = self.scroll_offset
        if y < self.header_height:
            key: str | None = None
            index = -1
        else:
            index = y - self.header_height + scroll_y
            if index >= len(self._rows):
                return Strip.blank(width, base)
            key = self._rows.key_at(index)
        cursor = index == self._cursor and index >= 0
        hover = index == self._hover_row
        version = self._rows.version(key) if key is not None else -1
        cache_key = (key, version, cursor, hover, scroll_x, width, base, self._layout, self._styles_seen)
        strip = self._lines.get(cache_key)
        if strip is None:
            cells = self._rows.cells(key) if key is not None else [column.label for column in self._columns]
            segments = self._row_segments(cells, key is None, cursor, hover, base, width)
            strip = Strip(segments).crop(scroll_x, scroll_x + width).adjust_cell_length(width, base).simplify()
            self._lines[cache_key] = strip
        return strip

    def _row_segments(
        self, cells: Sequence[Cell], header: bool, cursor: bool, hover: bool, base: Style, width: int
    ) -> list[Segment]:
        """One row drawn across the whole table, and on to the widget's right edge (`row_paint`)."""
        style = self.get_component_rich_style
        state = state_style(
            style("linetable--cursor") if cursor else None, style("linetable--hover") if hover and not header else None
        )
        return paint_row(
            self.app.console,
            self.app.console_options,
            cells,
            [column.content_width for column in self._columns],
            padding=self.cell_padding,
            row_style=style("linetable--header") if header else base,
            state=state,
            width=width,
            links=links_on(self.app),
        )
