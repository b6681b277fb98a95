"""How activity entries read as table rows, in the pane and in the failed-only view.

Columns: time (with the date when not today), kind, status, short id,
target. The target says most to a person, so it is the column the others
make room for: in a narrow pane it is cut in the middle first (Enter, or
zoom, shows it whole), then the time loses its seconds, the status keeps only
its symbol, then the kind is cut, and at a quarter of 80 columns the id goes.
At 120 columns every kind (`batch_scrape` too) is whole.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message

from tui.contract.models import ActivityEntry
from tui.dashboard.features.activity.job_states import PENDING, RowStatus
from tui.dashboard.kit.export import ExportTable
from tui.dashboard.kit.formatting import bare_url, clock_time, short_id
from tui.dashboard.kit.widgets.hyperlink import linked
from tui.dashboard.kit.widgets.live_table import Drop, LiveTable, Shorten, Squeeze
from tui.dashboard.kit.widgets.table_fit import first_word, without_seconds

COLUMNS: tuple[str, ...] = ("time", "kind", "status", "id", "target")
SQUEEZE = (
    Squeeze("target", 12),
    Shorten("time", without_seconds),
    # The status's symbol says its state; a cut kind (`bat…pe`) says nothing, so the kind holds longer.
    Shorten("status", first_word, label=""),
    Squeeze("kind", 6),
    Drop("id"),
    Squeeze("kind", 4),
    Squeeze("target", 8),
)
"""How the columns give way in a narrow pane, in order: the target keeps the most room."""


def entry_row(entry: ActivityEntry, now: datetime | None = None) -> tuple[str, str, str, str]:
    """The cells of one entry without its status: time (dated when not today), kind, short id, target."""
    when = clock_time(entry.created_at, now or datetime.now(UTC))
    return (when, entry.endpoint, short_id(entry.id), bare_url(entry.target or ""))


def table_row(entry: ActivityEntry, now: datetime, status: RowStatus | None) -> tuple[str | Text, ...]:
    """All the cells of one entry, its status (or "…" while unknown) after its kind."""
    when, kind, job, target = entry_row(entry, now)
    return (when, kind, (status or PENDING).text, job, linked(target, entry.target))


EXPORT_COLUMNS = ("created_at", "kind", "id", "target", "state", "http_status", "error")


def export_table(name: str, title: str, rows: Iterable[tuple[ActivityEntry, RowStatus | None]]) -> ExportTable:
    """Entries as a list to export: whole ids and URLs, ISO times, and the state each row knows (if any)."""
    records = []
    for entry, status in rows:
        summary = status.summary if status is not None else None
        records.append(
            {
                "created_at": entry.created_at.isoformat(),
                "kind": entry.endpoint,
                "id": entry.id,
                "target": entry.target,
                "state": status.state if status is not None else None,
                "http_status": summary.http_status if summary is not None else None,
                "error": status.error if status is not None else None,
            }
        )
    return ExportTable(name, title, EXPORT_COLUMNS, tuple(records))


def keyed_entries(entries: list[ActivityEntry]) -> list[tuple[str, ActivityEntry]]:
    """Entries with a unique row key each: one job can appear under two kinds (scrape, interact)."""
    seen: dict[str, int] = {}
    keyed = []
    for entry in entries:
        base = f"{entry.id}/{entry.endpoint}/{entry.created_at.isoformat()}"
        count = seen.get(base, 0)
        seen[base] = count + 1
        keyed.append((base if count == 0 else f"{base}#{count}", entry))
    return keyed


class ActivityTable(LiveTable):
    """The entries table; Enter opens the highlighted entry's job; says when other rows come into view."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open job", id="activity_table.select_cursor")
    ]

    class ViewportMoved(Message):
        """Other rows can be seen now (scrolled or resized): their status may be wanted."""

    def __init__(self, **kwargs) -> None:
        super().__init__(*COLUMNS, squeeze=SQUEEZE, **kwargs)

    def visible_keys(self) -> list[str]:
        """The keys of the rows a person can see now (none while the table has no size)."""
        height = self.scrollable_content_region.height - (self.header_height if self.show_header else 0)
        if height <= 0 or not self.display:
            return []
        first = round(self.scroll_y)
        return self.row_keys[first : first + height]

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.post_message(self.ViewportMoved())

    def on_resize(self) -> None:
        self.post_message(self.ViewportMoved())
