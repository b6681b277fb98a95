"""LiveTable: unchanged rows are left alone, a changed row repaints only itself, widths follow the rows."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widgets import DataTable, Footer

from tui.dashboard.kit.widgets.live_table import LiveTable


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LiveTable("id", "options")


ROWS = [("a", ("a", "limit 40 · depth 3 · +/blog/.* · markdown,links")), ("b", ("b", "limit 5"))]


async def test_sync_reports_changes_and_keeps_unchanged_rows() -> None:
    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        assert table.sync(ROWS) is True
        assert table.sync(ROWS) is False  # the same snapshot: nothing to draw
        assert table.sync([ROWS[0], ("b", ("b", "limit 6"))]) is True
        assert [str(cell) for cell in table.get_row("b")] == ["b", "limit 6"]  # cells are shown as Text
        assert table.row_keys == ["a", "b"]


async def test_an_emptied_table_shrinks_its_columns_back_to_the_headers() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync(ROWS)
        await pilot.pause()
        assert table.columns["options"].content_width > len("options")
        table.sync([])
        await pilot.pause()
        assert table.columns["options"].content_width == len("options")


async def test_the_cursor_stays_on_its_row_when_rows_come_and_go() -> None:
    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync(ROWS)
        table.move_cursor(row=1)
        table.sync([("new", ("new", "x")), *ROWS])
        assert table.selected_key() == "b"


def _feed(first: int, last: int) -> list[tuple[str, tuple[str, str]]]:
    """Rows newest first, as the activity pane lists them."""
    return [(f"r{n}", (f"r{n}", "x")) for n in range(last, first - 1, -1)]


async def test_rows_arriving_above_move_neither_the_newest_view_nor_a_chosen_row() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync(_feed(1, 30))
        await pilot.pause()
        table.sync(_feed(1, 33))  # untouched: the cursor stays on the newest row
        await pilot.pause()
        assert table.cursor_row == 0 and table.selected_key() == "r33"
        assert table.scroll_y == 0

        table.focus()
        for _ in range(12):
            await pilot.press("down")
        await pilot.pause()
        key, on_screen = table.selected_key(), table.cursor_row - table.scroll_y
        assert table.scroll_y > 0  # the premise: the table is scrolled
        table.sync(_feed(1, 36))  # three new rows above the one chosen
        assert table.selected_key() == key
        assert table.cursor_row - table.scroll_y == on_screen  # already in the same frame
        await pilot.pause()
        assert table.selected_key() == key
        assert table.cursor_row - table.scroll_y == on_screen


def looks(strip: Strip) -> list[tuple[str, str]]:
    """Each segment's text and style, without its meta: DataTable's says which row a click is on, ours need not."""
    return [(segment.text, str(segment.style)) for segment in strip]


class BothTablesApp(App[None]):
    """A LiveTable over a plain DataTable with the same rows, to compare what they draw."""

    CSS = "DataTable { height: 1fr; }"
    AUTO_FOCUS = None  # a focused table draws its header differently

    def compose(self) -> ComposeResult:
        yield LiveTable("id", "options", id="live")
        yield DataTable(cursor_type="row", zebra_stripes=False, id="plain")


async def test_a_resized_table_draws_what_a_datatable_draws() -> None:
    """LiveTable keeps its rendered cells across a resize (a zoom): the picture must not go stale."""
    app = BothTablesApp()
    async with app.run_test(size=(100, 12)) as pilot:
        live, plain = app.query_one("#live", LiveTable), app.query_one("#plain", DataTable)
        plain.add_columns("id", "options")
        await pilot.pause()
        live.sync(ROWS)
        for key, cells in ROWS:
            plain.add_row(*cells, key=key)
        await pilot.pause()
        live.move_cursor(row=1)  # a cursor row is padded in its own colour out to the edge
        plain.move_cursor(row=1)
        for width in (60, 40, 90):  # as a zoom does: the layout changes, not the terminal
            live.styles.width = plain.styles.width = width
            await pilot.pause()
            assert live.size.width == plain.size.width == width
            for y in range(live.size.height):
                assert looks(live.render_line(y)) == looks(plain.render_line(y)), f"line {y} at width {width}"


class OpeningTable(LiveTable):
    BINDINGS = [("enter", "select_cursor", "Open")]


class OpeningTableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield OpeningTable("id", "options")
        yield Footer()


async def test_enter_is_offered_only_when_there_is_a_row_to_open() -> None:
    app = OpeningTableApp()
    async with app.run_test() as pilot:
        table = app.query_one(OpeningTable)
        table.focus()
        await pilot.pause()

        def offered() -> bool:
            return any(b.action == "select_cursor" and on for _, b, on, _ in app.active_bindings.values())

        assert not offered()
        table.sync(ROWS)
        await pilot.pause()
        assert offered()
        table.sync([])
        await pilot.pause()
        assert not offered()
