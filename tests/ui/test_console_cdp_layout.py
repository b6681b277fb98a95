"""The CDP panel reads in a narrow column: pages and events wrap, long URLs are folded whole, never cut."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from tui.api.cdp_types import CdpEvent, ConnectionState, PagesChanged, PageTarget, StateChanged
from tui.dashboard.features.console.cdp_panel import CdpStatusPanel, pages_text

LONG_URL = "https://shop.example.com/catalogue/bicycles/touring/frames?size=56&colour=forest-green&ref=console"
PAGES = (
    PageTarget("t1", LONG_URL, "Touring frames · Example shop", loading=False),
    PageTarget("t2", "about:blank", "", loading=True),
)
EVENT = CdpEvent("Target.targetInfoChanged", {"targetInfo": {"type": "page", "url": LONG_URL, "title": "Frames"}})


class PanelHost(App[None]):
    """The panel at the width it gets beside the console at 80 columns."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("editor", id="left")
            with Vertical(id="side"):
                yield CdpStatusPanel(None, id="cdp")

    CSS = "#left { width: 1fr; } #side { width: 32; }"


def test_pages_text_puts_each_page_on_two_lines_with_the_whole_url() -> None:
    text = pages_text([("Frames", LONG_URL, "ready"), ("(untitled)", "about:blank", "loading…")])
    assert text.plain == f"Frames · ready\n{LONG_URL}\n(untitled) · loading…\nabout:blank"
    assert pages_text([]).plain == "no page open"


async def test_long_urls_wrap_in_pages_and_events() -> None:
    app = PanelHost()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.query_one(CdpStatusPanel)
        panel._apply(StateChanged(ConnectionState.CONNECTED))  # noqa: SLF001 - updates as the client sends them
        panel._apply(PagesChanged(PAGES))  # noqa: SLF001
        panel._apply(EVENT)  # noqa: SLF001
        await pilot.pause()
        shown = str(panel.query_one("#cdp-pages", Static).render())
        assert LONG_URL in shown.replace("\n", "")
        assert panel.page_rows == [
            ("Touring frames · Example shop", LONG_URL, "ready"),
            ("(untitled)", "about:blank", "loading…"),
        ]
        log = panel.query_one("#cdp-events", RichLog)
        event_text = "".join(segment.text for strip in log.lines for segment in strip).replace(" ", "")
        assert LONG_URL in event_text, "the event's URL is folded onto the next lines, not cut"
        assert max(strip.cell_length for strip in log.lines) <= log.scrollable_content_region.width
        assert not log.show_horizontal_scrollbar


async def test_enter_in_the_panel_shows_it_over_the_whole_screen_and_escape_brings_it_back() -> None:
    app = PanelHost()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.query_one(CdpStatusPanel)
        panel._apply(PagesChanged(PAGES))  # noqa: SLF001
        panel._apply(EVENT)  # noqa: SLF001
        log = panel.query_one("#cdp-events", RichLog)
        log.focus()
        await pilot.pause()
        narrow = len(log.lines)
        assert app.screen.active_bindings["enter"].binding.description == "Full screen"
        await pilot.press("enter")
        assert app.screen.maximized is panel and panel.region.width == 80
        shown = str(panel.query_one("#cdp-pages", Static).render())
        assert LONG_URL in shown.replace("\n", "")
        await pilot.pause()
        assert len(log.lines) < narrow, "the events are wrapped again to the full width"
        assert max(strip.cell_length for strip in log.lines) > 32
        await pilot.press("escape")
        assert app.screen.maximized is None and panel.region.width == 32
        await pilot.pause()
        assert len(log.lines) == narrow
        panel.query_one("#cdp-pages-box").focus()
        await pilot.press("enter")
        assert app.screen.maximized is panel, "from the pages too"
