"""How a `LineTable` row looks: `DataTable`'s looks (Textual 8, row cursor, no zebra stripes), so a pane looks as before.

Each cell is padded by `padding` blank cells either side and rendered as
`DataTable` renders one: the cell between a pre-style (the row's, then the
cursor's or the hover's) and a post-style (the cursor's colours, which win
over the cell's own; its bold does not). Each cell's segments carry a meta
with their column, as `DataTable`'s carry theirs (with the row too), so the
segments of two cells are never merged: the terminal, and a snapshot, get
the same segments as before. The rest of the line, right of the last
column, is in the row's style.

A cell may carry a link in its style (`tui.dashboard.kit.widgets.hyperlink.linked`):
with `links` off (a terminal that prints OSC 8 as garbage) it is drawn without.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.renderables.styled import Styled

__all__ = ["TABLE_CSS", "Column", "column_at", "paint_row", "state_style"]


@dataclass
class Column:
    """A column as drawn: its key, its header, and the width of its widest cell (header included)."""

    key: str
    label: Text
    content_width: int


TABLE_CSS = """
    LineTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .linetable--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .linetable--header {
                background-tint: $foreground 5%;
            }
        }
        & > .linetable--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .linetable--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .linetable--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .linetable--hover {
            background: $block-hover-background;
        }
    }
    """
"""DataTable's stylesheet (Textual 8) for what a row-cursor table without stripes uses, its classes renamed."""


def state_style(cursor: Style | None, hover: Style | None) -> Style:
    """What a row's state adds to its style: the hover's, then the cursor's (either may be None)."""
    state = Style()
    if hover is not None:
        state += hover
    if cursor is not None:
        state += cursor
    return state


def paint_row(
    console: Console,
    options: ConsoleOptions,
    cells: Sequence[str | Text],
    widths: Sequence[int],
    *,
    padding: int,
    row_style: Style,
    state: Style,
    width: int,
    links: bool = False,
) -> list[Segment]:
    """One row across the columns (`widths`: each one's widest cell), and on to `width`; links only if `links`."""
    post = Style.from_color(color=state.color) + Style.from_color(bgcolor=state.bgcolor)
    segments: list[Segment] = []
    for column, (cell, cell_width) in enumerate(zip(cells, widths, strict=False)):
        pre = row_style + Style.from_meta({"column": column}) + state
        text = Text(cell, end="") if isinstance(cell, str) else cell if links else _unlinked(cell)
        segments.extend(_cell(console, options, text, cell_width, padding, pre, post))
    rest = max(0, width - sum(cell_width + 2 * padding for cell_width in widths))
    segments.append(Segment(" " * rest, row_style + state + Style.from_meta({"out_of_bounds": True})))
    return segments


def _unlinked(text: Text) -> Text:
    """`text` without the links of its styles (itself when it has none: most cells)."""

    def plain(style: str | Style) -> str | Style:
        return style.update_link(None) if isinstance(style, Style) and style.link else style

    if not any(isinstance(style, Style) and style.link for style in (text.style, *(s.style for s in text.spans))):
        return text
    out = text.copy()
    out.style = plain(text.style)
    out.spans = [Span(span.start, span.end, plain(span.style)) for span in text.spans]
    return out


def _cell(
    console: Console, options: ConsoleOptions, text: Text, width: int, padding: int, pre: Style, post: Style
) -> list[Segment]:
    """One cell, padded: the segments DataTable's renderables give (`Styled(Padding(text))`), without them.

    Rich's way takes ~40 us a cell (a zoomed inbox's screenful: 10 ms); a line of
    plain text that fits needs none of its wrapping, justifying or cropping, so
    it is cut into its styles' runs here, as `Text.render` does, and padded.
    Anything else (several lines, tabs, a justified or too long text) goes Rich's way.
    """
    plain = text.plain
    if text.justify not in (None, "default", "left") or "\n" in plain or "\t" in plain or text.cell_len > width:
        fit = options.update_dimensions(width + 2 * padding, 1).update(no_wrap=True)
        return console.render_lines(Styled(Padding(text, (0, padding)), pre, post), fit)[0]
    # Text.__rich_console__ joins its lines into one Text whose spans carry the line's style.
    line = Text(plain, spans=[Span(0, len(plain), text.style), *text.spans], end="") if text.style else text
    edge = pre + post
    left = Segment(" " * padding, edge)
    right = Segment(" " * (width - text.cell_len + padding), edge)
    return [
        left,
        *(Segment(part, pre + style + post if style else edge) for part, style, _ in line.render(console)),
        right,
    ]


def column_at(widths: Sequence[int], padding: int, x: int) -> int:
    """The column at `x` cells from the table's left edge (the first, right of the last: DataTable's choice)."""
    for index, cell_width in enumerate(widths):
        x -= cell_width + 2 * padding
        if x < 0:
            return index
    return 0
