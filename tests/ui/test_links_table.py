"""LinksTable: 100,000 links read in place from a LinkList; filter, sort and selection redraw only what is on screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import App, ComposeResult

from tui.dashboard.features.map.links import LinkList
from tui.dashboard.features.map.links_table import LinksTable

LINKS = 100_000


@dataclass(frozen=True)
class FakeLink:
    url: str
    title: str | None
    description: str | None


class LinksApp(App[None]):
    def __init__(self, links: LinkList) -> None:
        super().__init__()
        self.links = links

    def compose(self) -> ComposeResult:
        yield LinksTable(self.links, width=120)

    def on_mount(self) -> None:
        self.query_one(LinksTable).focus()


def link_list() -> LinkList:
    return LinkList(
        FakeLink(f"https://shop.example/item/{n:06d}", f"Item {n}", "\x1b[2Jcleared?" if n == 7 else None)
        for n in range(LINKS)
    )


def shown(table: LinksTable) -> list[str]:
    return ["".join(segment.text for segment in table.render_line(y)).rstrip() for y in range(table.size.height)]


async def test_the_rows_are_the_lists_view_filtered_and_sorted_in_place() -> None:
    links = link_list()
    app = LinksApp(links)
    async with app.run_test(size=(120, 12)) as pilot:
        table = app.query_one(LinksTable)
        await pilot.pause()
        assert table.row_count == LINKS
        lines = shown(table)
        assert lines[0].split() == ["✓", "url", "title", "description"]
        assert lines[1].split() == ["shop.example/item/000000", "Item", "0"]
        assert "␛[2Jcleared?" in lines[8]  # the map's words are text: the escape is shown, never obeyed
        links.set_filter("item/0999")
        table.view_changed()
        await pilot.pause()
        assert table.row_count == 100 and shown(table)[1].split()[0] == "shop.example/item/099900"
        links.sort_by("url")
        links.sort_by("url")  # again: the other way round
        table.view_changed()
        await pilot.pause()
        assert shown(table)[1].split()[0] == "shop.example/item/099999"


async def test_space_and_shift_select_rows_and_their_marks_are_drawn() -> None:
    links = link_list()
    app = LinksApp(links)
    async with app.run_test(size=(120, 12)) as pilot:
        table = app.query_one(LinksTable)
        await pilot.pause()
        await pilot.press("down", "space", "shift+down", "shift+down")
        await pilot.pause()
        assert links.selected == {1, 2, 3}
        assert [line.split()[0] for line in shown(table)[1:5]] == ["shop.example/item/000000", "✓", "✓", "✓"]
        await pilot.press("down", "shift+up")  # a new range starts where the cursor is
        await pilot.pause()
        assert links.selected == {1, 2, 3, 4}
        await pilot.press("space")
        assert links.selected == {1, 2, 3, 4} - {3}


async def test_a_narrower_filter_keeps_the_cursor_within_the_rows() -> None:
    links = link_list()
    app = LinksApp(links)
    async with app.run_test(size=(120, 12)) as pilot:
        table = app.query_one(LinksTable)
        await pilot.pause()
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert table.cursor_row == LINKS - 1
        links.set_filter("item/00001")
        table.view_changed()
        await pilot.pause()
        assert table.row_count == 10 and table.cursor_row == 9
        assert table.selected_key() == str(links.view[9])
