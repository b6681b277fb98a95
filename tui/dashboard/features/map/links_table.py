"""A table of a map's links: a `LineTable` reading a `LinkList`'s view in place.

Textual's own `DataTable` copies every row into its own structures (19 s and
149 MB for 100,000 rows). A `LineTable` draws only the lines on screen and
asks its row source for them: `LinkRows` answers from the `LinkList` the
explorer filters and sorts, so a new filter costs the table nothing but a
redraw of the rows on screen, and no row is copied.

Keys, besides the table's own (arrows, page keys, home/end): space selects
the row under the cursor, shift+up / shift+down select from where the shift
began to the cursor (a range), enter posts `RowSelected` (the explorer shows
the link in full).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message

from tui.dashboard.features.map.links import LinkList
from tui.dashboard.kit.formatting import bare_url, middle_clip
from tui.dashboard.kit.outside_text import visible
from tui.dashboard.kit.widgets.hyperlink import linked
from tui.dashboard.kit.widgets.line_table import LineTable

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
    return (
        WIDTH_CAPS[0],
        *(max(8, min(cap, int(room * share))) for cap, share in zip(WIDTH_CAPS[1:], SHARES, strict=True)),
    )


def _widest(texts: Iterable[str | None], cap: int) -> int:
    """The length of the longest of `texts`, or `cap` as soon as one is that long (most maps: within a few links)."""
    widest = 0
    for text in texts:
        if text and len(text) > widest:
            widest = len(text)
            if widest >= cap:
                return cap
    return widest


class LinkRows:
    """A `LinkList`'s view as the rows of a `LineTable`: a row's cells are made when it is drawn, nothing copied.

    A row's key is its link's position in the list (as text). Its version is
    the same for every row, new when the selection changed (every ✓ is drawn
    again); a filter or a sort does not change it.
    """

    def __init__(self, links: LinkList, *, width: int | None = None) -> None:
        self.links = links
        self.generation = 0
        # Measured once: the widest value of each column (capped to fit `width`), over every link, so
        # widths do not jump as the filter changes.
        caps = fitted_caps(width)
        columns = (links.urls, links.titles, links.descriptions)
        self.widths = [1, *(_widest(column, cap) for cap, column in zip(caps[1:], columns, strict=True))]

    def __len__(self) -> int:
        return len(self.links.view)

    @property
    def keys(self) -> list[str]:
        return [str(link) for link in self.links.view]

    def key_at(self, index: int) -> str:
        return str(self.links.view[index])

    def index_of(self, key: str) -> int | None:
        try:
            return self.links.view.index(int(key))
        except ValueError:
            return None

    def version(self, key: str) -> int:
        return self.generation

    def cells(self, key: str) -> tuple[str | Text, ...]:
        """The mark, url (a link to the whole URL), title and description, each one line of visible text cut to its column."""
        links, link = self.links, int(key)
        cells: list[str | Text] = [MARK if link in links.selected else ""]
        for column, text in enumerate((links.urls[link], links.titles[link], links.descriptions[link] or ""), 1):
            room = self.widths[column]
            text = visible(text)  # the map's words
            if column == 1:
                text = bare_url(text)  # as the activity pane: the scheme says little and costs eight columns
            if cell_len(text) > room:
                # A URL differs at its end (the path), so it is cut in the middle; titles read from the start.
                text = middle_clip(text, room) if column == 1 else set_cell_size(text, max(room - 1, 0)) + "…"
            cells.append(linked(text, links.urls[link]) if column == 1 else text)
        return tuple(cells)


class LinksTable(LineTable):
    """The links of a `LinkList`, a row each, with a ✓ on the selected ones."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle", "Select", show=False, id="links_table.toggle"),
        Binding("shift+down", "extend(1)", "Select down", show=False, id="links_table.extend.1"),
        Binding("shift+up", "extend(-1)", "Select up", show=False, id="links_table.extend.-1"),
        Binding("shift+pagedown", "extend_page(1)", "Select a page down", show=False, id="links_table.extend_page.1"),
        Binding("shift+pageup", "extend_page(-1)", "Select a page up", show=False, id="links_table.extend_page.-1"),
    ]

    # The looks it had as a textual-fastdatatable DataTable (its stylesheet won where it and
    # Textual's set the same property): a blue header, rows on the screen's background.
    DEFAULT_CSS = """
    LinksTable {
        color: $text;
        max-height: 100vh;
        &:dark { background: initial; }
        & > .linetable--header { background: $primary; color: $text; }
        & > .linetable--cursor { background: $secondary; color: $text; }
        & > .linetable--hover { background: $secondary 20%; }
    }
    """

    class SelectionChanged(Message):
        """The selection changed (the explorer redraws its count)."""

    def __init__(self, links: LinkList, *, width: int | None = None, id: str | None = None) -> None:
        self.source = LinkRows(links, width=width)
        super().__init__(rows=self.source, id=id)
        self.links = links
        self._anchor: int | None = None  # the row where a shift-selection began
        self.set_columns([(label, label) for label in COLUMNS])
        for column, width in zip(self.ordered_columns, self.source.widths, strict=True):
            column.content_width = max(column.content_width, width)
        self._new_layout()

    def view_changed(self) -> None:
        """Redraw after the `LinkList` was filtered or sorted: the rows on screen only.

        A link's row looks the same in any view, so the lines drawn before stay good: a row
        still on screen after a keystroke of the filter (or back on it after a deletion) is
        taken from the table's cache, not painted again.
        """
        self._anchor = None
        self.source_changed()

    def selection_changed(self) -> None:
        """Redraw the ✓ marks after the selection changed outside the table."""
        self.source.generation += 1
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

    def action_move(self, rows: int) -> None:
        self._anchor = None
        super().action_move(rows)
