"""A 100-row table whose one cell changes every tick: LiveTable or DataTable.update_cell.

Run by bench_dashboard.py in a pseudo-terminal to count the bytes each tick writes.
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tui.dashboard.kit.widgets.live_table import LiveTable

ROWS = 100


class RepaintApp(App[None]):
    def __init__(self, live: bool) -> None:
        super().__init__()
        self.live = live
        self.tick = 0

    def compose(self) -> ComposeResult:
        yield LiveTable("id", "status", "value", id="table") if self.live else DataTable(id="table")

    def rows(self) -> list[tuple[str, tuple[str, str, str]]]:
        return [
            (f"row-{n}", (f"row-{n}", "changed" if n == 3 and self.tick % 2 else "steady", f"{n:05d}"))
            for n in range(ROWS)
        ]

    def on_mount(self) -> None:
        table = self.query_one("#table")
        if self.live:
            self.call_after_refresh(lambda: table.sync(self.rows()))  # type: ignore[attr-defined]
        else:
            table.add_columns("id", "status", "value")
            for key, cells in self.rows():
                table.add_row(*cells, key=key)
        self.set_interval(1.0, self.step)

    def step(self) -> None:
        self.tick += 1
        table = self.query_one("#table")
        if self.live:
            table.sync(self.rows())  # type: ignore[attr-defined]
        else:
            status = "changed" if self.tick % 2 else "steady"
            table.update_cell("row-3", table.ordered_columns[1].key, status)


if __name__ == "__main__":
    RepaintApp(live=sys.argv[1:] == ["live"]).run()
