"""LiveTable.put_rows: a stream of rows updates the table in place, never rebuilding it, and draws what a fresh table draws."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tui.dashboard.kit.outside_text import safe_cell
from tui.dashboard.kit.widgets.live_table import LiveTable, Squeeze


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LiveTable("id", "status", "note")


class NarrowApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LiveTable("id", "status", "note", squeeze=(Squeeze("note", 6),))


def row(number: int, note: str = "x", status: str = "ok") -> tuple[str, tuple[str | Text, ...]]:
    return f"r{number}", (f"r{number}", Text(status, style="bold"), note)


def lines(table: LiveTable) -> list[str]:
    """What the table draws, line by line, the cursor's line marked (its colours depend on focus, not on rows)."""
    cursor = table.get_component_rich_style("linetable--cursor").bgcolor
    drawn = []
    for strip in table.render_lines(table.region.reset_offset):
        text = "".join(segment.text for segment in strip)
        under_cursor = any(segment.style is not None and segment.style.bgcolor == cursor for segment in strip)
        drawn.append(("> " if under_cursor else "  ") + text)
    return drawn


async def same_as_fresh(pilot, table: LiveTable, rows: list) -> None:  # type: ignore[no-untyped-def]
    """`table` draws what it draws once rebuilt from `rows` (as `sync` rebuilds it), the cursor on the same row."""
    assert table.row_keys == [key for key, _ in rows]
    drawn = lines(table)
    cursor, top = table.cursor_row, table.scroll_y
    table._replace_all(table._fitted([(key, [safe_cell(cell) for cell in cells]) for key, cells in rows]))  # made anew
    table.move_cursor(row=cursor, animate=False)
    table.scroll_to(y=top, animate=False)
    await pilot.pause()
    assert lines(table) == drawn


async def test_rows_are_added_on_top_updated_in_place_and_removed_without_a_rebuild() -> None:
    app = TableApp()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([row(3), row(2), row(1)])
        rebuilt = []
        table._replace_all = lambda *a, **k: rebuilt.append(True)  # type: ignore[method-assign]
        table.put_rows([row(5), row(4)], new_on_top=True)
        assert table.row_keys == ["r5", "r4", "r3", "r2", "r1"]
        table.put_rows([row(2, note="changed", status="failed")], removed=["r1", "gone-already"])
        assert table.row_keys == ["r5", "r4", "r3", "r2"]
        assert [str(cell) for cell in table.get_row("r2")] == ["r2", "failed", "changed"]
        table.put_rows([row(6, note="a much longer note than any before")], new_on_top=True)
        assert rebuilt == []
        del table._replace_all  # the class's own again, for the comparison's rebuild
        await pilot.pause()
        await same_as_fresh(
            pilot,
            table,
            [
                row(6, note="a much longer note than any before"),
                row(5),
                row(4),
                row(3),
                row(2, note="changed", status="failed"),
            ],
        )


async def test_the_cursor_follows_the_top_or_stays_on_its_row() -> None:
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([row(n) for n in range(20, 0, -1)])
        table.put_rows([row(21)], new_on_top=True)
        assert table.selected_key() == "r21"  # an untouched table shows the newest
        table.focus()
        for _ in range(4):
            await pilot.press("down")
        chosen, on_screen = table.selected_key(), table.cursor_row - round(table.scroll_y)
        table.put_rows([row(22), row(23)][::-1], removed=["r1", "r2"], new_on_top=True)
        assert table.selected_key() == chosen
        assert table.cursor_row - round(table.scroll_y) == on_screen  # the rows read do not move
        await pilot.pause()
        await same_as_fresh(pilot, table, [row(n) for n in range(23, 2, -1)])


async def test_the_cursor_stays_on_its_row_when_as_many_rows_leave_above_it_as_arrive_on_top() -> None:
    """The inbox under a flood: new rows on top, the oldest of them evicted, just above the row a person reads."""
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([row(n) for n in range(30, 0, -1)])
        table.focus()
        await pilot.press("ctrl+end", "up", "up")  # on r3, near the bottom
        await pilot.pause()
        on_screen = table.cursor_row - round(table.scroll_y)
        table.put_rows([row(n) for n in range(40, 30, -1)], removed=[f"r{n}" for n in range(4, 14)], new_on_top=True)
        assert table.selected_key() == "r3"
        assert table.cursor_row - round(table.scroll_y) == on_screen
        await pilot.press("up")
        assert table.selected_key() == "r14"  # the row above it now


async def test_removing_the_chosen_row_keeps_a_cursor_in_the_table() -> None:
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([row(3), row(2), row(1)])
        table.move_cursor(row=2)
        table.put_rows([], removed=["r1"])
        assert table.selected_key() == "r2"
        table.put_rows([], removed=["r2", "r3"])
        assert table.row_count == 0 and table.selected_key() is None
        table.put_rows([row(9)], new_on_top=True)
        assert table.selected_key() == "r9"


async def test_a_row_removed_and_given_again_is_a_new_row_on_top() -> None:
    """An event evicted and then delivered again (a retry after its row went) is new: on top, not in its old place."""
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([row(3), row(2), row(1)])
        table.put_rows([row(1, note="again")], removed=["r1"], new_on_top=True)
        assert table.row_keys == ["r1", "r3", "r2"]
        assert [str(cell) for cell in table.get_row("r1")] == ["r1", "ok", "again"]
        await pilot.pause()
        await same_as_fresh(pilot, table, [row(1, note="again"), row(3), row(2)])


async def test_rows_are_cut_to_the_width_as_a_table_given_them_all_would_cut_them() -> None:
    """put_rows fits from each column's widest cell (no pass over every row): the same cuts as from every row."""
    app = NarrowApp()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([row(2), row(1)])
        table.put_rows([row(3, note="a note far too long for forty columns, cut in its middle")], new_on_top=True)
        assert table._fit == table._fit_for(table._given)  # as fitted from every row
        assert "…" in str(table.get_row("r3")[2])
        await pilot.pause()
        await same_as_fresh(
            pilot, table, [row(3, note="a note far too long for forty columns, cut in its middle"), row(2), row(1)]
        )
        table.put_rows([row(4)], removed=["r3"], new_on_top=True)  # the widest row gone: shown whole again
        assert table._fit == table._fit_for(table._given)
        assert [str(cell) for cell in table.get_row("r4")] == ["r4", "ok", "x"]
        await pilot.pause()
        await same_as_fresh(pilot, table, [row(4), row(2), row(1)])


async def test_streamed_cells_are_text_never_markup_even_without_a_fit() -> None:
    # A table with nothing to squeeze has no fit step to clean its cells: put_rows must do it, as sync does.
    app = TableApp()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.put_rows([("r1", ("r1", "crawl.page[/oops]", "[@click=app.quit]x[/] \x1b]52;c;Zm9v\x07"))])
        await pilot.pause()
        drawn = "\n".join(lines(table))
        assert "crawl.page[/oops]" in drawn and "[@click=app.quit]x[/]" in drawn
        assert "\x1b" not in drawn and "␛]52;c;Zm9v␇" in drawn
