"""The history screen's lists: what each shows, and the same rows whole for export (`s`, as the triage view does).

A list keeps its values as they are (counts, credits, percentages as numbers; hosts
and causes as the journal has them) for the export, and shows them formatted.
Hosts and causes come from outside (the pages scraped, the service's errors): the
table shows every cell as plain text, and the export makes them safe for a spreadsheet
(`tui.dashboard.kit.export`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tui.contract.redact import mask_key
from tui.dashboard.features.history.figures import HistoryFigures
from tui.dashboard.kit.export import Cell, ExportTable, records_of
from tui.dashboard.kit.widgets.live_table import Row


@dataclass(frozen=True)
class HistoryList:
    """One list of the screen: `name` (its table's id and the export's file name), a title, columns, rows of values."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def table_rows(self) -> list[Row]:
        """The rows as the table shows them, keyed by their place (two keys may end in the same four characters)."""
        return [(str(index), tuple(map(cell_text, row))) for index, row in enumerate(self.rows)]

    def export(self, span_text: str) -> ExportTable:
        """The list to export: "history-hosts-last-30-days", its title with the span."""
        stem = f"history-{self.name}-{span_text}".replace(" ", "-").replace(":", "").replace("(", "").replace(")", "")
        return ExportTable(stem, f"{self.title} · {span_text}", self.columns, records_of(self.columns, self.rows))


def cell_text(value: Cell) -> str:
    """A value as a cell: counts with thousands separators, credits and percentages to one decimal (none when whole)."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() else f"{value:,.1f}"
    return value


def calls_list(figures: HistoryFigures) -> HistoryList:
    """Calls by day and kind, newest day first."""
    rows = sorted(figures.calls.items(), key=lambda item: (-item[1], item[0][1]))
    rows.sort(key=lambda item: item[0][0], reverse=True)
    return HistoryList(
        "calls",
        "Calls per day by kind",
        ("day", "kind", "calls"),
        tuple((day, kind, count) for (day, kind), count in rows),
    )


def failures_list(figures: HistoryFigures) -> HistoryList:
    """Each day with calls: calls, failed and the share failed, newest day first."""
    return HistoryList(
        "failures",
        "Failures per day",
        ("day", "calls", "failed", "failed %"),
        tuple((one.day, one.total, one.failed, round(one.percent, 1)) for one in reversed(figures.failures)),
    )


def hosts_list(figures: HistoryFigures) -> HistoryList:
    """The hosts of failed calls' targets, most failures first."""
    return HistoryList("hosts", "Top failing hosts", ("host", "failures"), figures.hosts)


def causes_list(figures: HistoryFigures) -> HistoryList:
    """Failed calls by cause, most first."""
    return HistoryList("causes", "Top failure causes", ("cause", "failures"), figures.causes)


def credits_per_day_list(figures: HistoryFigures) -> HistoryList:
    """Credits used each day, newest first."""
    rows = sorted(figures.credits_per_day.items(), reverse=True)
    return HistoryList("credits-per-day", "Credits per day", ("day", "credits"), tuple(rows))


def credits_per_key_list(figures: HistoryFigures) -> HistoryList:
    """Credits used by each API key in the span, most first; a key shows only its last four characters."""
    rows = sorted(((mask_key(key), credits) for key, credits in figures.credits_per_key.items()), key=lambda r: -r[1])
    return HistoryList("credits-per-key", "Credits per API key", ("key", "credits"), tuple(rows))


def finished_list(figures: HistoryFigures) -> HistoryList:
    """Crawls and batches that ended, by day, kind and final state, newest day first."""
    rows = sorted(figures.finished.items(), key=lambda item: item[0], reverse=True)
    return HistoryList(
        "finished",
        "Crawls and batches ended per day",
        ("day", "kind", "status", "count"),
        tuple((day, kind, status, count) for (day, kind, status), count in rows),
    )


LISTS = (calls_list, failures_list, hosts_list, causes_list, credits_per_day_list, credits_per_key_list, finished_list)
"""Every list of the screen, in the order of its tabs."""
