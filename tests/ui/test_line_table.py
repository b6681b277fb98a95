"""LineTable: keyed rows drawn line by line; a change costs the rows it touches; keys and the mouse move the cursor."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.renderables.styled import Styled
from textual.strip import Strip

from tui.dashboard.kit.widgets.line_table import LineTable
from tui.dashboard.kit.widgets.row_paint import paint_row


class CountingTable(LineTable):
    """A LineTable that counts the rows it paints (a row drawn from its cache is not painted again)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.painted: list[str] = []

    def _row_segments(
        self, cells: Sequence[Text], header: bool, cursor: bool, hover: bool, base: Style, width: int
    ) -> list[Segment]:
        self.painted.append("header" if header else cells[0].plain)
        return super()._row_segments(cells, header, cursor, hover, base, width)


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[str] = []
        self.selected: list[str] = []

    def compose(self) -> ComposeResult:
        yield CountingTable()

    def on_mount(self) -> None:
        table = self.query_one(CountingTable)
        table.set_columns([("id", "id"), ("note", "note")])
        table.focus()

    @on(LineTable.RowHighlighted)
    def _highlighted(self, event: LineTable.RowHighlighted) -> None:
        self.highlighted.append(event.row_key)

    @on(LineTable.RowSelected)
    def _selected(self, event: LineTable.RowSelected) -> None:
        self.selected.append(event.row_key)


def row(n: int, note: str = "x") -> tuple[str, list[Text]]:
    return f"r{n}", [Text(f"r{n}"), Text(note)]


def screen_lines(table: LineTable) -> list[str]:
    return ["".join(segment.text for segment in table.render_line(y)).rstrip() for y in range(table.size.height)]


async def test_a_row_added_on_top_paints_that_row_and_no_other() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([row(n) for n in range(20, 0, -1)])
        table.move_cursor(row=5)  # not on the top row: the cursor's row is not repainted by the new one
        await pilot.pause()
        table.painted.clear()
        table.add_rows([row(21)], on_top=True)
        table.move_cursor(row=6, scroll=False)  # as LiveTable keeps it: on the row it was on
        await pilot.pause()
        assert table.row_keys[:2] == ["r21", "r20"]
        assert table.painted == ["r21"]  # every other row in view came from the cache, at its new place
        assert screen_lines(table)[1:3] == [" r21  x", " r20  x"]


async def test_updates_repaint_only_the_rows_that_changed_and_columns_grow_to_fit() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([row(1), row(2), row(3)])
        await pilot.pause()
        table.painted.clear()
        assert table.update_rows([row(1), row(2, note="y"), row(3)]) is True
        await pilot.pause()
        assert table.painted == ["r2"]
        assert table.update_rows([row(1), row(2, note="y"), row(3)]) is False  # the same cells: nothing to do
        table.update_rows([row(3, note="a longer note")])
        await pilot.pause()
        assert table.columns["note"].content_width == len("a longer note")
        assert screen_lines(table)[3] == " r3  a longer note"
        table.replace_rows([row(1)])  # given anew: as wide as the rows now need
        assert table.columns["note"].content_width == len("note")


async def test_removing_rows_keeps_the_cursor_within_them() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([row(n) for n in range(1, 6)])
        table.move_cursor(row=4)
        table.remove_rows({"r4", "r5", "not-there"})
        assert table.row_keys == ["r1", "r2", "r3"]
        assert table.cursor_row == 2 and table.selected_key() == "r3"
        table.remove_rows({"r1", "r2", "r3"})
        await pilot.pause()
        assert table.selected_key() is None and table.row_count == 0
        assert screen_lines(table)[0] == " id  note"  # the header stays


async def test_keys_move_the_cursor_and_the_view_follows_it_under_a_fixed_header() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([row(n) for n in range(1, 101)])
        await pilot.pause()
        await pilot.press("down", "down")
        assert table.selected_key() == "r3" and app.highlighted[-2:] == ["r2", "r3"]
        await pilot.press("pagedown")
        await pilot.pause()
        page = table.scrollable_content_region.height - 1
        assert table.cursor_row == 2 + page
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert table.selected_key() == "r100"
        lines = screen_lines(table)
        assert lines[0] == " id    note" and lines[-1].startswith(" r100")  # scrolled: the header stays on top
        await pilot.press("ctrl+home", "enter")
        await pilot.pause()
        assert table.selected_key() == "r1" and table.scroll_y == 0
        assert app.selected == ["r1"]


async def test_a_click_puts_the_cursor_on_a_row_and_a_second_click_chooses_it() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([row(1), row(2), row(3)])
        await pilot.pause()
        await pilot.click(table, offset=(2, 3))  # the header is line 0: this is r3
        await pilot.pause()
        assert table.selected_key() == "r3" and app.highlighted[-1] == "r3" and app.selected == []
        await pilot.click(table, offset=(2, 3))
        await pilot.pause()
        assert app.selected == ["r3"]
        await pilot.click(table, offset=(2, 0))  # the header: not a row
        await pilot.pause()
        assert table.selected_key() == "r3" and app.selected == ["r3"]


async def test_the_row_under_the_mouse_is_shown_until_a_key_moves_the_cursor() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([row(1), row(2), row(3)])
        await pilot.pause()
        hover = table.get_component_rich_style("linetable--hover").bgcolor

        def hovered() -> list[int]:
            return [
                y
                for y in range(1, 4)
                if any(s.style is not None and s.style.bgcolor == hover for s in table.render_line(y))
            ]

        assert hovered() == []
        await pilot.hover(table, offset=(2, 2))
        await pilot.pause()
        assert hovered() == [2]
        await pilot.press("down")
        await pilot.pause()
        assert hovered() == []


async def test_cells_are_shown_as_given_never_read_as_markup() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(CountingTable)
        table.replace_rows([("k", [Text("[b]k[/b]"), Text("[@click=app.quit]x")])])
        await pilot.pause()
        assert screen_lines(table)[1] == " [b]k[/b]  [@click=app.quit]x"


def test_a_row_is_painted_as_datatable_renders_its_cells() -> None:
    """`paint_row` cuts plain lines itself; what it gives is what Rich's renderables (DataTable's way) give."""
    console = Console(width=120, color_system="truecolor")
    options = console.options
    cells: list[str | Text] = [
        "",
        "plain",
        "wide 漢字 ✓",
        Text("bold", style="bold"),
        Text("red on", style="red on black"),
        Text.assemble(("✗ ", "red"), ("failed", "bold"), " tail"),
        Text("sp", style="italic") + Text("an", "underline"),
        Text("right", justify="right"),
        "tab\there",
        Text("two\nlines"),
        "much too long for its column",
    ]
    row_style, state = Style(color="white", bgcolor="grey11"), Style(bgcolor="blue", bold=True)
    widths = [max(12, Text(str(cell)).cell_len) if index != len(cells) - 1 else 8 for index, cell in enumerate(cells)]
    post = Style.from_color(color=state.color) + Style.from_color(bgcolor=state.bgcolor)
    expected: list[Segment] = []
    for column, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        text = Text(cell, end="") if isinstance(cell, str) else cell
        pre = row_style + Style.from_meta({"column": column}) + state
        fit = options.update_dimensions(width + 2, 1).update(no_wrap=True)
        expected.extend(console.render_lines(Styled(Padding(text, (0, 1)), pre, post), fit)[0])
    painted = paint_row(console, options, cells, widths, padding=1, row_style=row_style, state=state, width=0)
    assert list(Strip(painted[:-1]).simplify()) == list(Strip(expected).simplify())
