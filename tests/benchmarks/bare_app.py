"""The yardstick of the start-up benchmark: a bare Textual app with a header, a footer and one table."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Header


class BareApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable()
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("id", "value")
        for n in range(30):
            table.add_row(f"bare-row-{n}", str(n * n))


if __name__ == "__main__":
    BareApp().run()
