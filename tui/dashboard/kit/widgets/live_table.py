"""A DataTable that repaints only the rows whose data changed.

`DataTable.update_cell` refreshes the whole widget, so a pane that polls every
few seconds would rewrite every row on every tick. Over SSH that is bytes for
nothing. `LiveTable.sync` diffs the new rows against what is shown, leaves
unchanged rows alone, and refreshes just the region of a changed row.

Rows are fitted to the table's width rather than scrolled sideways: the
steps given in `squeeze` are taken in turn (`tui.dashboard.kit.widgets.table_fit`: cells
cut in the middle with "…", since both ends of a URL or an id say the most;
a shorter form; a column dropped). The table keeps the rows it was given, so
a wider table (a zoomed pane) shows them whole again.

Every cell is shown as text: a `str` cell becomes a plain `Text` (DataTable
would read it as markup, and `[/b]` in a URL ends the app) and no cell keeps a
character a terminal would obey (`tui.dashboard.kit.outside_text`). Panes fill their rows
with what the service says; here no pane can forget it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from textual import events
from textual.cache import LRUCache
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import CellKey, RowKey
from textual.widgets.data_table import Row as DataTableRow

from tui.dashboard.kit.outside_text import safe_cell
from tui.dashboard.kit.widgets.table_fit import (
    NO_FIT,
    Cell,
    Drop,
    Fit,
    Shorten,
    Squeeze,
    Step,
    WidthTally,
    cell_width,
    cut_cell,
    cuts_only,
    plan_fit,
    without_colour,
)

__all__ = ["Cell", "Drop", "LiveTable", "Row", "Shorten", "Squeeze", "Step", "cut_cell"]
# Keys are strings: Textual's RowKey compares equal only to strings.
Row = tuple[str, Sequence[Cell]]
# Render caches: three pages of 100 rows of five cells; lines and rows for a few screens.
CELL_CACHE = 1500
LINE_CACHE = 300


class LiveTable(DataTable):
    """A cursor-row table fed whole snapshots of rows by a polling pane."""

    DEFAULT_CSS = """
    LiveTable { height: 1fr; }
    """

    has_rows: reactive[bool] = reactive(False, bindings=True, init=False)
    """Whether any row is shown: Enter (and what `check_action` answers about rows) depends on it."""

    def __init__(self, *columns: str, squeeze: Sequence[Step] = (), **kwargs) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", False)
        super().__init__(**kwargs)
        self._column_labels = columns
        self._squeeze = tuple(squeeze)
        self._given: list[Row] = []  # the rows as the pane gave them, before any cut
        self._fit: Fit = NO_FIT  # how the rows shown differ from the rows given
        self._widths_at_resize: tuple[int, ...] | None = None
        self._tally: WidthTally | None = None  # of `_tallied`, the rows `put_rows` was given last
        self._tallied: list[Row] | None = None
        self._rows_width = 0
        # DataTable's render caches hold up to 10,000 cells and 1,000 rows and lines. Each
        # poll that changes a row makes new entries (the keys carry an update count), so on
        # a dashboard left open they fill to the brim: megabytes per table, for versions of
        # rows no one will see again. A few screens' worth is all a live table reuses.
        self._cell_render_cache.maxsize = CELL_CACHE
        self._row_render_cache.maxsize = LINE_CACHE
        self._row_renderable_cache.maxsize = LINE_CACHE
        self._line_cache.maxsize = LINE_CACHE

    def on_mount(self) -> None:
        self._add_columns()

    # DataTable forgets every cell it has rendered when its size changes, and
    # rendering cells is most of drawing a table (a zoomed pane's: ~40 ms). A cell
    # depends on its column's width, not on the table's size; only a row, padded
    # out to the right edge, does. So LiveTable keeps the cells and re-renders just
    # the rows when the width changes (private caches, on purpose, as in `sync`).

    def _on_resize(self, event: events.Resize) -> None:
        if self._squeeze and self._fit_for(self._given) != self._fit:
            self._fit = self._fit_for(self._given)
            self._replace_all(self._fitted(self._given))  # cut to the new width, or shown whole again
        # DataTable's handler stays for new column widths: its cell cache is not keyed
        # by width, and a resize is where it catches up with widths grown on idle.
        widths = tuple(column.get_render_width(self) for column in self.ordered_columns)
        if widths != self._widths_at_resize:
            self._widths_at_resize = widths
            return
        event.prevent_default()  # the cells are still good

    def render_lines(self, crop: Region) -> list[Strip]:
        # Before drawing at a new width, which Textual does before the Resize arrives.
        if self.size.width != self._rows_width:
            self._rows_width = self.size.width
            self._row_render_cache.clear()
        return super().render_lines(crop)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor" and self.row_count == 0:
            return False  # no row to open: Enter stays out of the footer
        return True

    @property
    def row_keys(self) -> list[str]:
        return [_text(row.key) for row in self.ordered_rows]

    def selected_key(self) -> str | None:
        """The key of the row under the cursor, or None in an empty table."""
        if self.row_count == 0:
            return None
        return _text(self.ordered_rows[self.cursor_row].key)

    def sync(self, rows: Sequence[Row]) -> bool:
        """Show exactly `rows`, touching as little of the screen as possible.

        Returns True when anything visible changed.
        """
        # Made safe before fitting, so widths are measured on what will be shown.
        rows = [(key, [safe_cell(cell) for cell in cells]) for key, cells in rows]
        self._given = list(rows)
        fit = self._fit_for(rows)
        refit = fit != self._fit
        self._fit = fit
        rows = self._fitted(rows)
        keys = [key for key, _ in rows]
        if keys != self.row_keys or refit:
            self._replace_all(rows)
            self.has_rows = bool(rows)  # Enter comes into the footer, or leaves it
            return True
        changed = False
        for index, (key, cells) in enumerate(rows):
            row_key = RowKey(key)
            old = self._data[row_key]
            columns = list(old.keys())
            new = dict(zip(columns, cells, strict=True))
            if new == old:
                continue
            changed = True
            if any(cell_width(cell) > self.columns[col].content_width for col, cell in new.items()):
                # A wider value needs the column to grow: that is a whole-table layout change.
                for col, cell in new.items():
                    self.update_cell(row_key, col, cell, update_width=True)
                continue
            # Private state, on purpose: update_cell would refresh every row.
            self._data[row_key] = new
            self._update_count += 1  # invalidates DataTable's render caches
            self.refresh_row(index)
        return changed

    def put_rows(self, rows: Sequence[Row], *, removed: Collection[str] = (), new_on_top: bool = False) -> None:
        """Update the rows of `rows` in place, add the new ones, take out `removed`: no rebuild.

        For a table fed by a stream (the webhook inbox) rather than snapshots:
        the cost is that of the rows given, not of the table. New rows go on
        top (newest first) or at the bottom, in the order given. The cursor and
        the viewport stay on the row a person reads, as in `sync`.
        """
        rows = [(key, [safe_cell(cell) for cell in cells]) for key, cells in rows]  # as in `sync`: never markup
        gone = {key for key in removed if key in self._data}
        given = {key: cells for key, cells in rows}
        old_keys = self.row_keys
        fresh = [key for key, _ in rows if key not in self._data or key in gone]  # gone and back: a new row
        kept = [(key, given.get(key, cells)) for key, cells in self._given if key not in gone]
        added = [(key, given[key]) for key in fresh]
        tally = self._tally_of_given()
        for key in gone:
            tally.remove(key)
        for key, cells in rows:
            tally.add(key, cells)
        self._given = self._tallied = added + kept if new_on_top else kept + added
        # Fitted from each column's widest cell: a pass over every row's cells took most of an update.
        fit = self._fit_for(self._given, widest=tally.widest() if cuts_only(self._squeeze) else None)
        if fit != self._fit:  # a new width for the columns cut: a whole-table change, as in `sync`
            self._fit = fit
            self._replace_all(self._fitted(self._given))
            return
        if not gone and not rows:
            return
        keep = self.selected_key()
        old_row, old_top = self.cursor_row, round(self.scroll_y)
        follow_top = old_row == 0 and old_top == 0
        # Private state, on purpose (as in `sync`): DataTable adds rows only at the bottom,
        # and re-indexes every row for each one removed.
        for key in gone:
            row_key = RowKey(key)
            if self._updated_cells:
                for column_key in self._data[row_key]:
                    self._updated_cells.discard(CellKey(row_key, column_key))
            del self._data[row_key]
            del self.rows[row_key]
        columns = self.ordered_columns
        widths = [column.content_width for column in columns]
        redrawn = False  # whether a row already shown has new cells
        for key, cells in self._fitted(rows):
            row_key = RowKey(key)
            new = {column.key: cell for column, cell in zip(columns, cells, strict=True)}
            if key in fresh:
                self.rows[row_key] = DataTableRow(row_key, 1)
            elif new != self._data[row_key]:
                redrawn = True
            self._data[row_key] = new
            # Columns grow to their widest cell here: DataTable would measure each new cell
            # through Rich on idle (~80 us a cell: a second for a burst's 2,000 rows).
            for column, cell in zip(columns, cells, strict=True):
                column.content_width = max(column.content_width, cell_width(cell))
        remaining = [key for key in old_keys if key not in gone]
        order = fresh + remaining if new_on_top else remaining + fresh
        self._row_locations = type(self._row_locations)({RowKey(key): index for index, key in enumerate(order)})
        if redrawn or widths != [column.content_width for column in columns]:
            self._update_count += 1  # a cell's cache key holds neither its data nor its width: all again
        else:
            # Rows only came and went. Rendering cells is most of drawing a table (~50 ms
            # for a screenful), and a cell's cache is keyed by its row's key, not its place:
            # the cells drawn are still good. What is keyed by place is not.
            for cache in (
                self._line_cache,
                self._row_render_cache,
                self._row_renderable_cache,
                self._offset_cache,
                self._ordered_row_cache,
            ):
                _empty(cache)
        self._update_dimensions(())  # the virtual size, for the rows now there
        self.refresh()
        self.has_rows = self.row_count > 0
        if follow_top or keep is None or RowKey(keep) not in self._data:
            self.cursor_coordinate = self.cursor_coordinate  # clamped to the rows left
            return
        new_row = self.get_row_index(RowKey(keep))
        if new_row != old_row:
            top = max(0, min(old_top + new_row - old_row, self.max_scroll_y))
            self.set_scroll(None, top)
            self.scroll_target_y = top
            self.move_cursor(row=new_row, animate=False)

    # --- fitting the rows to the width ---------------------------------------------------

    def _fit_for(self, rows: Sequence[Row], *, widest: Sequence[Cell] | None = None) -> Fit:
        """How the rows must change to fit the table's width (not at all while it has no size).

        `widest`: one row as wide as the widest cells, standing in for `rows` (see `WidthTally`).
        """
        if not self._squeeze or self.size.width == 0:
            return NO_FIT
        # Room for the vertical scrollbar when the rows are more than the height: each
        # sync and resize fits again, so a row that brings the scrollbar narrows the rows.
        height = self.size.height - (self.header_height if self.show_header else 0)
        scrollbar = self.styles.scrollbar_size_vertical if len(rows) > height else 0
        room = self.size.width - scrollbar
        cells = [widest] if widest else [row for _, row in rows]
        return plan_fit(self._column_labels, cells, self._squeeze, room, 2 * self.cell_padding)

    def _tally_of_given(self) -> WidthTally:
        """The widths of the rows given, counted again when `sync` gave others since."""
        if self._tally is None or self._tallied is not self._given:
            self._tally = WidthTally(len(self._column_labels))
            for key, cells in self._given:
                self._tally.add(key, cells)
        return self._tally

    def _fitted(self, rows: Sequence[Row]) -> list[Row]:
        if self.app.no_color:
            rows = [(key, [without_colour(cell) for cell in cells]) for key, cells in rows]
        if self._fit == NO_FIT:
            return list(rows)
        # A shorter form may hand back a str (a time without its seconds): safe again, never markup.
        return [(key, [safe_cell(cell) for cell in self._fit.cells(cells)]) for key, cells in rows]

    def _add_columns(self) -> None:
        for key, label in self._fit.labels(self._column_labels):
            self.add_column(label, key=key)

    def _replace_all(self, rows: Sequence[Row]) -> None:
        """Rebuild the table in one frame, the viewport steady.

        A cursor on the top row of an unscrolled table follows the top, so an
        untouched pane keeps showing the newest rows. A cursor anywhere else
        stays on its row, at the same height on screen, so rows arriving above
        what a person is reading do not move it.
        """
        keep = self.selected_key()
        old_row, old_top = self.cursor_row, round(self.scroll_y)
        follow_top = old_row == 0 and old_top == 0
        # Columns too, so their widths fit the rows now shown: widths grown for rows
        # that have gone would leave a scrollbar on an emptied table.
        self.clear(columns=True)
        self._add_columns()
        for key, cells in rows:
            self.add_row(*cells, key=key)  # type: ignore[arg-type]
        # Settle the new widths now rather than on idle: a busy app may draw a frame
        # before idle comes, with every column shrunk to its header. And so the cursor
        # and the scroll offset land in the same frame as the rows (no jump, no flicker).
        self._settle_dimensions()
        if follow_top or keep is None or keep not in self.rows:
            return
        new_row = self.get_row_index(RowKey(keep))
        top = max(0, min(new_row - (old_row - old_top), self.max_scroll_y))
        self.set_scroll(None, top)
        self.scroll_target_y = top
        self.move_cursor(row=new_row, animate=False)

    def _settle_dimensions(self) -> None:
        # What DataTable does on idle; private on purpose, like `sync` above.
        if self._require_update_dimensions:
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            self._update_dimensions(new_rows)


def _text(key: RowKey) -> str:
    """The string a row was added under: every row here has one (`Row`), never Textual's keyless None."""
    assert key.value is not None
    return key.value


def _empty(cache: LRUCache) -> None:
    """Empty one of DataTable's caches without leaving its entries for the cyclic collector.

    `LRUCache.clear` drops its ring of entries whole: a reference cycle, with
    every strip in it, that waits for a collection (which pauses every thread;
    after a burst's updates, 100 ms of it). Entries taken out one by one are
    unlinked and freed at once (all but the last: see below).
    """
    for key in list(cache.keys()):
        value = cache.get(key)
        cache.discard(key)
        if isinstance(value, list):
            # The last entry discarded stays linked to itself (a cycle after all): leave it
            # holding nothing. The row caches hold the whole table's rows in one list.
            value.clear()
