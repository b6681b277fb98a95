"""Which columns of a table give way, and how, when its rows are wider than the table.

A table lists its columns' steps in order of what matters least: a URL cut
in the middle first, then a time without its seconds, a status reduced to its
symbol, a column dropped, ... `plan_fit` takes the steps in that order until
the rows fit, then gives the room left over back to the columns it cut, so
a cut column is as wide as the table allows. The rows themselves are never
changed: a wider table (a zoomed pane) shows them whole again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.style import Style
from rich.text import Span, Text

from tui.dashboard.kit.formatting import middle_clip

Cell = str | Text


def cell_width(cell: Cell) -> int:
    """How many terminal cells `cell` takes."""
    return cell.cell_len if isinstance(cell, Text) else cell_len(str(cell))


def cut_cell(cell: Cell, width: int) -> Cell:
    """`cell` cut in the middle to `width` cells with "…" (a styled cell keeps its style)."""
    if cell_width(cell) <= width:
        return cell
    if isinstance(cell, str):
        return middle_clip(cell, width)
    head = width // 2
    tail = width - 1 - head
    cut = cell[:head] + Text("…", style=cell.style)
    return cut + cell[-tail:] if tail else cut


@dataclass(frozen=True)
class Squeeze:
    """A column whose cells are cut in the middle, down to `min_width` at most (never below its header)."""

    column: str
    min_width: int


@dataclass(frozen=True)
class Shorten:
    """A column whose cells take a shorter form (`form`), under a shorter header (`label`) if given.

    `form` is given the cells as the table was given them: a later Shorten of
    the same column replaces an earlier one.
    """

    column: str
    form: Callable[[Cell], Cell]
    label: str | None = None


@dataclass(frozen=True)
class Drop:
    """A column left out."""

    column: str


Step = Squeeze | Shorten | Drop


@dataclass(frozen=True)
class Fit:
    """What the rows become at one width: columns cut to a width, shortened, or dropped."""

    limits: dict[int, int] = field(default_factory=dict)
    shortened: dict[int, Shorten] = field(default_factory=dict)
    dropped: frozenset[int] = frozenset()

    def labels(self, columns: Sequence[str]) -> list[tuple[str, str]]:
        """(key, header) of each column shown."""
        shown = []
        for index, column in enumerate(columns):
            if index in self.dropped:
                continue
            short = self.shortened.get(index)
            shown.append((column, short.label if short is not None and short.label is not None else column))
        return shown

    def cells(self, cells: Sequence[Cell]) -> list[Cell]:
        """One row's cells as shown."""
        shown = []
        for index, cell in enumerate(cells):
            if index in self.dropped:
                continue
            short = self.shortened.get(index)
            if short is not None:
                cell = short.form(cell)
            if index in self.limits:
                cell = cut_cell(cell, self.limits[index])
            shown.append(cell)
        return shown


NO_FIT = Fit()


def plan_fit(
    columns: Sequence[str], rows: Sequence[Sequence[Cell]], steps: Sequence[Step], room: int, gutter: int
) -> Fit:
    """The fewest steps, in order, that make `rows` fit in `room` cells (`gutter` cells around each column)."""
    if not steps:
        return NO_FIT
    labels = list(columns)
    forms: list[list[Cell]] = [[row[i] for row in rows] for i in range(len(labels))]
    widths = [max([cell_len(labels[i]), *map(cell_width, forms[i])]) for i in range(len(labels))]
    natural = list(widths)  # each column's width in its current form, uncut
    limits: dict[int, int] = {}
    shortened: dict[int, Shorten] = {}
    dropped: set[int] = set()

    def excess() -> int:
        return sum(widths[i] + gutter for i in range(len(labels)) if i not in dropped) - room

    for step in steps:
        if excess() <= 0:
            break
        index = labels.index(step.column)
        if index in dropped:
            continue
        if isinstance(step, Drop):
            dropped.add(index)
        elif isinstance(step, Shorten):
            shortened[index] = step  # a later form of a column replaces an earlier one
            forms[index] = [step.form(row[index]) for row in rows]
            header = step.label if step.label is not None else labels[index]
            natural[index] = max([cell_len(header), *map(cell_width, forms[index])])
            widths[index] = min(widths[index], natural[index]) if index in limits else natural[index]
        else:
            short_label = shortened[index].label if index in shortened else None
            header = short_label if short_label is not None else labels[index]
            floor = max(step.min_width, cell_len(header))  # a header is never cut
            if widths[index] > floor:
                limits.setdefault(index, widths[index])
                widths[index] = floor
    # The room a later step freed goes back to the cut columns, the first cut first.
    spare = -excess()
    for index in list(limits):
        if index in dropped:
            del limits[index]
            continue
        give = min(max(spare, 0), natural[index] - widths[index])
        widths[index] += give
        spare -= give
        if widths[index] >= natural[index]:
            del limits[index]
        else:
            limits[index] = widths[index]
    return Fit(limits, shortened, frozenset(dropped))


# --- short forms shared by the tables ------------------------------------------------------


def without_seconds(cell: Cell) -> Cell:
    """`11:41` for `11:41:46`, `06-14` for `06-14 23:07` (a day that is not today), `12:15 idle` for `12:15:00 idle`."""
    text = str(cell)
    head, _, rest = text.partition(" ")
    if head.count(":") == 2:
        return " ".join(part for part in (head.rsplit(":", 1)[0], rest) if part)
    if head.count("-") == 1 and rest.count(":") == 1:
        return head
    return cell


def first_word(cell: Cell) -> Cell:
    """`✓` for `✓ completed`: a status reduced to its symbol, in its colour."""
    plain = str(cell)
    end = plain.find(" ")
    if end <= 0:
        return cell
    return cell[:end] if isinstance(cell, Text) else plain[:end]


def without_colour(cell: Cell) -> Cell:
    """`cell` with its colours taken out, bold and dim kept: for NO_COLOR.

    Textual turns colours into greys under NO_COLOR, and a red status reads
    dark grey on black; the symbol says the state, so the colour can go.
    """
    if not isinstance(cell, Text):
        return cell

    def plain(style: str | Style) -> Style:
        return (Style.parse(style) if isinstance(style, str) else style).without_color

    out = cell.copy()
    out.style = plain(cell.style)
    out.spans = [Span(span.start, span.end, plain(span.style)) for span in cell.spans]
    return out


class WidthTally:
    """The widest cell of each column, kept up to date as rows come and go, by key.

    For a table fed a stream of rows: `plan_fit` needs only each column's
    widest cell when its steps only cut (`Squeeze`) or drop (`Drop`) columns,
    so `widest` stands in for every row, without a pass over all of them.
    (A `Shorten` form depends on each cell: such a table fits from its rows.)
    """

    def __init__(self, columns: int) -> None:
        self._counts: list[Counter[int]] = [Counter() for _ in range(columns)]
        self._widths: dict[str, tuple[int, ...]] = {}

    def add(self, key: str, cells: Sequence[Cell]) -> None:
        """Count `key`'s cells (in place of what it had)."""
        self.remove(key)
        widths = tuple(map(cell_width, cells))
        self._widths[key] = widths
        for count, width in zip(self._counts, widths, strict=False):
            count[width] += 1

    def remove(self, key: str) -> None:
        widths = self._widths.pop(key, None)
        for count, width in zip(self._counts, widths or (), strict=False):
            count[width] -= 1
            if not count[width]:
                del count[width]

    def widest(self) -> list[Cell]:
        """One row as wide as the widest cell of each column (none when there are no rows)."""
        return ["x" * max(count) for count in self._counts] if self._widths else []


def cuts_only(steps: Sequence[Step]) -> bool:
    """Whether `steps` only cut and drop columns (so a `WidthTally` can stand in for the rows)."""
    return all(isinstance(step, Squeeze | Drop) for step in steps)
