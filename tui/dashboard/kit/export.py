"""Lists as files: any list of the dashboard written as CSV or JSON lines, to a file or the clipboard.

A list hands over an `ExportTable`: its columns and one record per row, made
from what it knows (full ids, whole URLs, ISO times), not from the cells it
shows, which are cut to fit. The text is made here, once for every list.

What a list holds comes from outside (URLs, error messages written by the
service or by the pages it scraped), so a CSV cell is made safe for the
spreadsheet that will open it: a cell whose first character other than a
space is `=`, `+`, `-` or `@`, or that starts with a tab or a carriage return,
may be read as a formula there (some spreadsheets trim first), so it gets a
leading `'` (OWASP's advice on CSV injection); then control characters (a
tab, a carriage return, an escape sequence, DEL, the C1 controls) become
spaces. JSON lines are printable ASCII: every character outside space to `~`
is written as a `\\uXXXX` escape, so every control character, DEL, the C1
controls (`\\x9b`, an 8-bit CSI) and the line separators U+2028 and U+2029.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Cell = str | int | float | bool | None
Format = Literal["csv", "jsonl"]
FORMATS: dict[Format, str] = {"csv": "CSV", "jsonl": "JSON lines"}
"""Each format and its name for people, in the order the dialog offers them."""

FORMULA_STARTS = ("=", "+", "-", "@")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class ExportTable:
    """A list to export: `name` (a file name's stem, "activity-1h"), a title for people, columns and records."""

    name: str
    title: str
    columns: tuple[str, ...]
    records: tuple[Mapping[str, Cell], ...]

    @property
    def count(self) -> int:
        """How many rows the list has."""
        return len(self.records)


def csv_cell(value: Cell) -> str | int | float:
    """One CSV cell, safe to open in a spreadsheet: no formula, no control character."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value  # a number is not a formula, even a negative one
    text = _CONTROLS.sub(" ", value)
    # Some spreadsheets trim a cell before they look for a formula: " =cmd" (or "\x1b=cmd", now a space) is one.
    risky = value.startswith(("\t", "\r")) or text.lstrip().startswith(FORMULA_STARTS)
    return f"'{text}" if risky else text


def csv_text(table: ExportTable) -> str:
    """The table as CSV: a header line of its columns, then a line per record."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    for record in table.records:
        writer.writerow([csv_cell(record.get(column)) for column in table.columns])
    return out.getvalue()


def jsonl_text(table: ExportTable) -> str:
    """The table as JSON lines: one object per record, its keys in the columns' order."""
    # ensure_ascii: no raw DEL, C1 control or line separator reaches a terminal that `cat`s the file.
    lines = (json.dumps({c: record.get(c) for c in table.columns}, ensure_ascii=True) for record in table.records)
    return "".join(f"{line}\n" for line in lines)


def export_text(table: ExportTable, fmt: Format) -> str:
    """The table in `fmt`."""
    return csv_text(table) if fmt == "csv" else jsonl_text(table)


def with_suffix(path: str, fmt: Format) -> str:
    """`path` with the suffix of `fmt` when it has the other format's (a person who changed format meant it)."""
    for other in FORMATS:
        if other != fmt and path.endswith(f".{other}"):
            return path[: -len(other)] + fmt
    return path


def records_of(columns: Sequence[str], rows: Sequence[Sequence[Cell]]) -> tuple[dict[str, Cell], ...]:
    """Records from rows of cells in the columns' order."""
    return tuple(dict(zip(columns, row, strict=True)) for row in rows)
