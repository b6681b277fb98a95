"""The dashboard's table: rows fed by a polling pane or a stream, fitted to the width, shown as text.

A `LineTable` (`tui.dashboard.kit.widgets.line_table`) with what every pane
wants on top:

- `sync(rows)` takes a whole snapshot from a poll: rows whose cells are the
  same are left alone, a changed row is drawn again by itself;
- `put_rows(rows, removed=..., new_on_top=...)` takes only the rows that
  changed, for a table fed by a stream (the webhook inbox): a new row on top
  costs that row;
- either way the cursor stays on the row a person reads, at the same height
  on screen, and a cursor on the top row of an unscrolled table follows the
  top (an untouched pane keeps showing the newest rows).

Rows are fitted to the table's width rather than scrolled sideways: the
steps given in `squeeze` are taken in turn (`tui.dashboard.kit.widgets.table_fit`:
cells cut in the middle with "…", since both ends of a URL or an id say the
most; a shorter form; a column dropped). The table keeps the rows it was
given, so a wider table (a zoomed pane) shows them whole again.

Every cell is shown as text: a `str` cell is plain text, never markup
(`[/b]` in a URL would end the app), and no cell keeps a character a terminal
would obey (`tui.dashboard.kit.outside_text`). Panes fill their rows with what
the service says; here no pane can forget it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from textual import events
from textual.reactive import reactive

from tui.dashboard.kit.outside_text import safe_cell, visible
from tui.dashboard.kit.widgets.line_table import LINE_CACHE, LineTable
from tui.dashboard.kit.widgets.table_fit import (
    NO_FIT,
    Cell,
    Drop,
    Fit,
    Shorten,
    Squeeze,
    Step,
    WidthTally,
    cut_cell,
    cuts_only,
    plan_fit,
    without_colour,
)

__all__ = ["LINE_CACHE", "Cell", "Drop", "LiveTable", "Row", "Shorten", "Squeeze", "Step", "cut_cell"]
Row = tuple[str, Sequence[Cell]]
SafeRow = tuple[str, list[Cell]]


@dataclass(frozen=True)
class _Place:
    """Where a person was reading before the rows changed: the cursor's row and its height on screen."""

    key: str | None
    row: int
    top: int

    @property
    def follows_top(self) -> bool:
        return self.row == 0 and self.top == 0


class LiveTable(LineTable):
    """A cursor-row table fed snapshots (`sync`) or changes (`put_rows`) of rows by a pane."""

    DEFAULT_CSS = """
    LiveTable { height: 1fr; }
    """

    has_rows: reactive[bool] = reactive(False, bindings=True, init=False)
    """Whether any row is shown: Enter (and what `check_action` answers about rows) depends on it."""

    def __init__(self, *columns: str, squeeze: Sequence[Step] = (), **kwargs) -> None:
        super().__init__(**kwargs)
        self._column_labels = columns
        self._squeeze = tuple(squeeze)
        self._given: list[SafeRow] = []  # the rows as the pane gave them (made safe), before any cut
        self._fit: Fit = NO_FIT  # how the rows shown differ from the rows given
        self._tally: WidthTally | None = None  # of `_tallied`, the rows `put_rows` was given last
        self._tallied: list[SafeRow] | None = None
        self.set_columns(self._fit.labels(columns))

    def _on_resize(
        self, _: events.Resize
    ) -> None:  # Textual's name for a base class's handler: a subclass's own `on_resize` runs too
        if self._squeeze and self._fit_for(self._given) != self._fit:
            self._fit = self._fit_for(self._given)
            self._replace_all(self._fitted(self._given))  # cut to the new width, or shown whole again

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor" and self.row_count == 0:
            return False  # no row to open: Enter stays out of the footer
        return True

    def sync(self, rows: Sequence[Row]) -> bool:
        """Show exactly `rows`, touching as little of the screen as possible.

        Returns True when anything visible changed.
        """
        # Made safe before fitting, so widths are measured on what will be shown.
        given = [(key, [_safe(cell) for cell in cells]) for key, cells in rows]
        self._given = given
        fit = self._fit_for(given)
        refit = fit != self._fit
        self._fit = fit
        shown = self._fitted(given)
        if refit or [key for key, _ in shown] != self.row_keys:
            self._replace_all(shown)
            return True
        return self.update_rows(shown)

    def put_rows(self, rows: Sequence[Row], *, removed: Collection[str] = (), new_on_top: bool = False) -> None:
        """Update the rows of `rows` in place, add the new ones, take out `removed`: no rebuild.

        For a table fed by a stream (the webhook inbox) rather than snapshots:
        the cost is that of the rows given, not of the table. New rows go on
        top (newest first) or at the bottom, in the order given. The cursor and
        the viewport stay on the row a person reads, as in `sync`.
        """
        safe = [(key, [_safe(cell) for cell in cells]) for key, cells in rows]  # as in `sync`: never markup
        gone = {key for key in removed if key in self._store}
        given = dict(safe)
        fresh = [key for key, _ in safe if key not in self._store or key in gone]  # gone and back: a new row
        kept = [(key, given.get(key, cells)) for key, cells in self._given if key not in gone]
        added = [(key, given[key]) for key in fresh]
        tally = self._tally_of_given()
        for key in gone:
            tally.remove(key)
        for key, cells in safe:
            tally.add(key, cells)
        self._given = self._tallied = added + kept if new_on_top else kept + added
        # Fitted from each column's widest cell: a pass over every row's cells took most of an update.
        fit = self._fit_for(self._given, widest=tally.widest() if cuts_only(self._squeeze) else None)
        if fit != self._fit:  # a new width for the columns cut: a whole-table change, as in `sync`
            self._fit = fit
            self._replace_all(self._fitted(self._given))
            return
        if not gone and not safe:
            return
        place = self._place()
        fresh_keys = set(fresh)
        shown = self._fitted(safe)
        self.remove_rows(gone)
        self.update_rows([(key, cells) for key, cells in shown if key not in fresh_keys])
        self.add_rows([(key, cells) for key, cells in shown if key in fresh_keys], on_top=new_on_top)
        self._keep(place)

    # --- keeping a person's place ------------------------------------------------------------

    def _place(self) -> _Place:
        return _Place(self.selected_key(), self.cursor_row, round(self.scroll_y))

    def _keep(self, place: _Place) -> None:
        """After the rows changed: the cursor on the same row at the same height, or on the top row."""
        self.has_rows = self.row_count > 0  # Enter comes into the footer, or leaves it
        index = self.find_row(place.key)
        if place.follows_top or index is None:
            if self.selected_key() != place.key:
                self.highlighted()
            return
        # Compared with what is shown now, not with the place before: rows taken out on the way
        # (evictions) may have pulled the cursor and the view back already.
        top = max(0, min(place.top + index - place.row, self.max_scroll_y))
        if top != round(self.scroll_y):
            self.set_scroll(None, top)
            self.scroll_target_y = top
        if index != self.cursor_row:
            self.move_cursor(row=index, scroll=False, announce=index != place.row)

    # --- fitting the rows to the width ---------------------------------------------------

    def _fit_for(self, rows: Sequence[SafeRow], *, widest: Sequence[Cell] | None = None) -> Fit:
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

    def _fitted(self, rows: Sequence[SafeRow]) -> list[SafeRow]:
        if self.app.no_color:
            rows = [(key, [without_colour(cell) for cell in cells]) for key, cells in rows]  # type: ignore[misc]
        if self._fit == NO_FIT:
            return list(rows)
        # A shorter form may hand back a str (a time without its seconds): safe again, never markup.
        return [(key, [_safe(cell) for cell in self._fit.cells(cells)]) for key, cells in rows]

    def _replace_all(self, rows: Sequence[SafeRow]) -> None:
        """Show `rows` in place of every row, the columns as wide as they need, the viewport steady."""
        place = self._place()
        self.set_columns(self._fit.labels(self._column_labels))
        self.replace_rows(rows)
        if not rows:
            self.has_rows = False
            return
        index = self.find_row(place.key)
        # Rows given anew: the row under the cursor is told again, even if it is the same.
        if place.follows_top or index is None:
            top = index = 0
        else:
            top = max(0, min(index - (place.row - place.top), self.max_scroll_y))
        self.set_scroll(None, top)
        self.scroll_target_y = top
        self.move_cursor(row=index, scroll=False, announce=False)
        self.highlighted()
        self.has_rows = True


def _safe(cell: Cell) -> Cell:
    """`safe_cell`, the `Text` left to the drawing: a `str` made visible stays a `str`, which the table shows as plain text.

    A burst's update gives the inbox thousands of cells, and making each a `Text`
    took most of it; only the rows in view are ever drawn.
    """
    return visible(cell) if isinstance(cell, str) else safe_cell(cell)
