"""URLs in tables are OSC 8 links where the app has links on, cut to fit or not, and never a way out of the sequence."""

from __future__ import annotations

from rich.segment import Segment
from textual.app import App, ComposeResult

from tui.dashboard.kit.widgets.hyperlink import hyperlinks_supported, linked
from tui.dashboard.kit.widgets.live_table import LiveTable, Squeeze

URL = "https://docs.acme-outdoor.com/guides/waterproofing-your-boots-after-a-season?ref=tui#care"


class LinksApp(App[None]):
    """A table alone, with the app's decision about links (what `WdsApp` takes from its navigator)."""

    def __init__(self, hyperlinks: bool) -> None:
        super().__init__()
        self.hyperlinks = hyperlinks

    def compose(self) -> ComposeResult:
        yield LiveTable("kind", "url", squeeze=[Squeeze("url", 12)])


async def drawn_row(hyperlinks: bool, url_cell: object) -> list[Segment]:
    app = LinksApp(hyperlinks)
    async with app.run_test(size=(50, 6)) as pilot:
        table = app.query_one(LiveTable)
        await pilot.pause()
        table.sync([("a", ("scrape", url_cell))])  # type: ignore[list-item]
        await pilot.pause()
        return list(table.render_line(1))  # line 0 is the header


def links(segments: list[Segment]) -> set[str]:
    return {segment.style.link for segment in segments if segment.style is not None and segment.style.link}


def text(segments: list[Segment]) -> str:
    return "".join(segment.text for segment in segments)


async def test_a_url_cut_to_fit_links_to_the_whole_url() -> None:
    row = await drawn_row(True, linked(URL, URL))
    assert "…" in text(row) and URL not in text(row)  # cut in the middle to the width
    assert links(row) == {URL}
    linked_text = "".join(segment.text for segment in row if segment.style is not None and segment.style.link)
    assert linked_text.strip() == text(row).split("scrape")[1].strip()  # the URL's cell, and nothing else


async def test_no_link_where_links_are_off_or_the_terminal_is_dumb() -> None:
    assert links(await drawn_row(False, linked(URL, URL))) == set()
    dumb = hyperlinks_supported({"TERM": "dumb"})
    row = await drawn_row(dumb, linked(URL, URL))
    assert links(row) == set() and "…" in text(row)  # the same text, only not a link


async def test_a_url_holding_an_escape_is_no_link_and_shows_as_text() -> None:
    hostile = "https://evil.example/\x1b]8;;https://other.example\x1b\\x"
    assert linked(hostile, hostile) == hostile  # no link made of it
    row = await drawn_row(True, linked(hostile, hostile))
    assert links(row) == set() and "\x1b" not in text(row)


def test_a_link_target_is_printable_ascii() -> None:
    cell = linked("café", "https://example.com/café page")
    assert cell.style.link == "https://example.com/caf%C3%A9%20page"  # type: ignore[union-attr]
    assert str(cell) == "café"  # what is shown stays as it was
