"""LiveTable fits its rows to its width: squeezed columns cut in the middle, never a sideways scrollbar."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tui.dashboard.kit.widgets.live_table import LiveTable, Squeeze, cut_cell

URL = "docs.acme-outdoor.com/guides/waterproofing-your-boots-after-a-season"
ROWS = [("a", ("11:41:46", "scrape", URL)), ("b", ("11:38:16", "map", "northwind.dev/"))]


class FitApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LiveTable("time", "kind", "target", squeeze=[Squeeze("target", 8)])


def shown_target(table: LiveTable, key: str) -> str:
    return str(table.get_row(key)[2])


async def test_a_long_target_is_cut_in_the_middle_to_the_width() -> None:
    app = FitApp()
    async with app.run_test(size=(50, 10)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync(ROWS)
        await pilot.pause()
        target = shown_target(table, "a")
        assert "…" in target and target.startswith("docs.") and target.endswith("season")
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert not table.show_horizontal_scrollbar
        assert shown_target(table, "b") == "northwind.dev/"  # short enough: untouched
        assert [str(cell) for cell in table.get_row("a")[:2]] == ["11:41:46", "scrape"]


async def test_a_wider_table_shows_the_target_whole_again() -> None:
    app = FitApp()
    async with app.run_test(size=(50, 10)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync(ROWS)
        await pilot.pause()
        await pilot.resize_terminal(120, 10)
        await pilot.pause()
        assert shown_target(table, "a") == URL
        await pilot.resize_terminal(50, 10)
        await pilot.pause()
        assert "…" in shown_target(table, "a")


async def test_new_rows_size_the_columns_at_once() -> None:
    """Before: widths caught up on idle, so a busy app drew a frame with every column at its header's width."""
    app = FitApp()
    async with app.run_test(size=(120, 10)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync(ROWS[1:])
        await pilot.pause()
        table.sync(ROWS)  # new keys (a filter change): the columns are rebuilt
        widths = [column.content_width for column in table.ordered_columns]  # no pause: at once
        assert widths == [len("11:41:46"), len("scrape"), len(URL)]


def test_a_styled_cell_keeps_its_style_when_cut() -> None:
    cell = Text("✗ HTTP 404 page", style="bold red")
    cut = cut_cell(cell, 7)
    assert isinstance(cut, Text) and cut.plain == "✗ H…age" and cut.cell_len == 7
    assert all(span.style == "bold red" for span in cut.spans) or cut.style == "bold red"
