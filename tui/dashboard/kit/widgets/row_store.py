"""The rows of a `LineTable`: keyed, in order, changed one row at a time.

A table fed by a stream (the webhook inbox) gets a few new rows on top many
times a second; a table fed by polls gets the same rows again and again.
Either way the cost should be that of the rows that changed. So each row
keeps a version, new with every change of its cells: what is drawn of a row
is cached under its key and version (`LineTable`), and a row that moves
(rows added above it) is still drawn from that cache.

Places (key -> index) are worked out again only when asked for after the
order changed: adding a row on top shifts every place, and most updates
never ask.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import count
from typing import Protocol

from rich.text import Text

__all__ = ["Cell", "RowSource", "RowStore"]

Cell = str | Text
"""A cell: a `str` is plain text (never markup), a `Text` keeps its styles."""
Cells = tuple[Cell, ...]


class RowSource(Protocol):
    """What a `LineTable` reads its rows from: a `RowStore`, or a view of data held elsewhere (the map's links)."""

    def __len__(self) -> int: ...
    @property
    def keys(self) -> list[str]: ...
    def key_at(self, index: int) -> str: ...
    def index_of(self, key: str) -> int | None: ...
    def cells(self, key: str) -> Cells: ...
    def version(self, key: str) -> int: ...


class RowStore:
    """Rows by key, in the order shown, each with its cells and a version."""

    def __init__(self) -> None:
        self._order: list[str] = []
        self._cells: dict[str, Cells] = {}
        self._versions: dict[str, int] = {}
        self._places: dict[str, int] | None = {}
        self._versions_given = count()  # one counter for the store: a key removed and back never reuses a version

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    @property
    def keys(self) -> list[str]:
        """The keys in the order shown (a copy)."""
        return list(self._order)

    def key_at(self, index: int) -> str:
        return self._order[index]

    def keys_between(self, start: int, end: int) -> list[str]:
        return self._order[start:end]

    def index_of(self, key: str) -> int | None:
        """Where `key` is shown, or None."""
        if self._places is None:
            self._places = {key: index for index, key in enumerate(self._order)}
        return self._places.get(key)

    def cells(self, key: str) -> Cells:
        return self._cells[key]

    def version(self, key: str) -> int:
        return self._versions[key]

    def rows(self) -> Iterable[tuple[str, Cells]]:
        """Every row, in order."""
        cells = self._cells
        return ((key, cells[key]) for key in self._order)

    def replace(self, rows: Sequence[tuple[str, Sequence[Cell]]]) -> None:
        """Hold exactly `rows`, in their order; a row whose cells are unchanged keeps its version (and its drawing)."""
        old_cells, old_versions = self._cells, self._versions
        self._order = [key for key, _ in rows]
        self._cells, self._versions = {}, {}
        for key, cells in rows:
            kept = tuple(cells)
            self._cells[key] = kept
            if old_cells.get(key) == kept:
                self._versions[key] = old_versions[key]
            else:
                self._versions[key] = next(self._versions_given)
        self._places = None

    def set(self, key: str, cells: Sequence[Cell]) -> bool:
        """New cells for a row already held; whether they differ from the old."""
        kept = tuple(cells)
        if self._cells[key] == kept:
            return False
        self._cells[key] = kept
        self._versions[key] = next(self._versions_given)
        return True

    def add(self, rows: Sequence[tuple[str, Sequence[Cell]]], *, on_top: bool) -> None:
        """Rows not held yet, on top or at the bottom, in the order given."""
        for key, cells in rows:
            self._cells[key] = tuple(cells)
            self._versions[key] = next(self._versions_given)
        keys = [key for key, _ in rows]
        if on_top:
            self._order[:0] = keys
            self._places = None
        else:
            start = len(self._order)
            self._order.extend(keys)
            if self._places is not None:
                self._places.update((key, start + offset) for offset, key in enumerate(keys))

    def remove(self, keys: Collection[str]) -> None:
        """Take out the rows of `keys` (the ones held), in one pass over the order."""
        gone = {key for key in keys if key in self._cells}
        if not gone:
            return
        self._order = [key for key in self._order if key not in gone]
        for key in gone:
            del self._cells[key]
            del self._versions[key]
        self._places = None
