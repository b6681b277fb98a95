"""The map explorer (M), end to end on the in-process emulator.

A user maps a real site of the emulator, filters the links, selects some
(one, a range, every shown one), copies them, saves them to a file, and
sends them to the batch scrape form; what they typed in the form survives
every refusal, each said in its own words.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.support.dashboard import KEY, PaneHost, SwitchableTransport, client_on, dashboard, wait_until
from tui.contract.models.packed_texts import PackedTexts
from tui.dashboard.features.map.explorer import MapExplorerScreen
from tui.dashboard.features.map.save import SaveUrlsScreen
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.intents import OpenBatchForm
from tui.emulator.service import Emulator

SITE = "https://harbour-books.com"


def host_on(transport: httpx.AsyncBaseTransport) -> PaneHost:
    """A bare app that records the intents the explorer posts (the batch form is another screen's)."""
    return PaneHost(lambda: Static("host"), footer=False)


async def open_explorer(pilot: Pilot[Any], transport: httpx.AsyncBaseTransport) -> MapExplorerScreen:
    screen = MapExplorerScreen(client_on(transport))
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def explorer_opened_with_m(pilot: Pilot[Any], app: WdsApp) -> MapExplorerScreen:
    """The map explorer, opened on the whole dashboard with its key, M."""
    await pilot.pause()
    await pilot.press("M")
    await wait_until(pilot, lambda: isinstance(app.screen, MapExplorerScreen), "the map explorer")
    screen = app.screen
    assert isinstance(screen, MapExplorerScreen)
    return screen


def text_of(screen: MapExplorerScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def map_site(pilot: Pilot[Any], screen: MapExplorerScreen, url: str = SITE, **fields: str) -> None:
    screen.query_one("#url", Input).value = url
    for field_id, value in fields.items():
        screen.query_one(f"#{field_id}", Input).value = value
    await pilot.press("ctrl+s")
    await wait_until(
        pilot,
        lambda: (
            screen.links is not None
            or screen.query_one("#form-problem").display
            or any(line.display for line in screen.query(".field-error"))
        ),
        "an answer",
    )
    await pilot.pause()


async def type_filter(pilot: Pilot[Any], text: str) -> None:
    await pilot.press("slash", *text, "enter")
    await pilot.pause()


async def test_m_opens_the_explorer_and_a_map_shows_the_sites_links(
    emulator: Emulator, transport: SwitchableTransport
) -> None:
    app: WdsApp = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await explorer_opened_with_m(pilot, app)
        await map_site(pilot, screen, limit="300")
        assert screen.links is not None and len(screen.links) == 300
        assert text_of(screen, "#links-count") == "300 of 300 links"
        assert screen.sent is not None and screen.sent.limit == 300
        assert screen.links.urls[0].startswith(SITE)
        # Once shown, the links are packed (the emulator's are ASCII) and ready to filter.
        links = screen.links
        await wait_until(pilot, lambda: links.compacted, "the links packed")
        assert isinstance(links.urls, PackedTexts) and links.urls[0].startswith(SITE)
        await pilot.press("escape")  # back to the form, as typed
        assert screen.query_one("#url", Input).value == SITE and screen.query_one("#limit", Input).value == "300"


async def test_filter_select_a_range_and_all_shown(transport: SwitchableTransport) -> None:
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        await map_site(pilot, screen, limit="2000")
        links = screen.links
        assert links is not None
        word = "archive"
        await type_filter(pilot, word)
        shown = len(links.view)
        assert 0 < shown < 2000
        assert all(word in f"{links.urls[i]} {links.titles[i]}".lower() for i in links.view)
        await pilot.press("space", "shift+down", "shift+down")  # the first row, then a range of three
        assert links.selected_urls() == [links.urls[i] for i in links.view[:3]]
        assert text_of(screen, "#links-count").startswith(f"{shown:,} of 2,000 links · 3 selected")
        await pilot.press("n", "a")
        assert len(links.selected) == shown
        await pilot.press("slash", *["backspace"] * len(word), "enter")
        await type_filter(pilot, "*/catalog/*")  # a glob: the whole url must match
        assert links.view and all("/catalog/" in links.urls[i] for i in links.view)
        assert text_of(screen, "#links-count").endswith("glob")
        await pilot.press("slash")  # down from the filter goes to the links, as Enter does
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()
        assert screen.focused is screen.query_one("LinksTable")


async def test_copy_save_and_send_to_batch(
    transport: SwitchableTransport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        await map_site(pilot, screen, limit="100")
        links = screen.links
        assert links is not None
        await pilot.press("space", *["shift+down"] * 19)
        chosen = [links.urls[i] for i in links.view[:20]]
        assert links.selected_urls() == chosen
        await pilot.press("c")
        assert app.clipboard == "\n".join(chosen)
        assert any("Copied 20 selected URLs" in str(n.message) for n in app._notifications)

        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveUrlsScreen), "the save dialog")
        await pilot.press("enter")  # links.txt in the working folder
        await wait_until(pilot, lambda: app.screen is screen, "the save")
        assert (tmp_path / "links.txt").read_text() == "".join(f"{url}\n" for url in chosen)

        await pilot.press("s")  # again: the file exists, so it asks
        await wait_until(pilot, lambda: isinstance(app.screen, SaveUrlsScreen), "the save dialog")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveUrlsScreen), "the dialog back")
        assert "Not replaced" in str(app.screen.query_one("#save-problem", Static).render())
        path_input = app.screen.query_one("#save-path", Input)
        path_input.value = str(tmp_path / "no-such-folder" / "links.txt")
        await pilot.press("enter")
        await pilot.pause()
        assert "no-such-folder does not exist" in str(app.screen.query_one("#save-problem", Static).render())
        assert path_input.value.endswith("links.txt")  # kept, to be corrected
        path_input.value = str(tmp_path)
        await pilot.press("enter")
        await pilot.pause()
        assert "is a folder" in str(app.screen.query_one("#save-problem", Static).render())
        await pilot.press("escape")

        await pilot.press("b")
        await wait_until(pilot, lambda: any(isinstance(i, OpenBatchForm) for i in app.intents), "the batch intent")
        intent = next(i for i in app.intents if isinstance(i, OpenBatchForm))
        assert intent.urls == tuple(chosen)


async def test_a_value_out_of_its_limits_is_said_under_its_field(transport: SwitchableTransport) -> None:
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        await map_site(pilot, screen, limit="100001", country="USA")
        assert screen.links is None and transport.paths == []  # nothing sent
        assert "100000" in text_of(screen, "#limit-error") and "country" in text_of(screen, "#country-error")
        assert screen.query_one("#limit", Input).value == "100001"


async def test_copy_as_curl_masks_the_key(transport: SwitchableTransport) -> None:
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        screen.query_one("#url", Input).value = SITE
        screen.query_one("#search", Input).value = "poetry"
        await pilot.press("ctrl+y")
        copied = app.clipboard
        assert copied.startswith("curl -X POST http://emulator.test/v2/map") and KEY not in copied
        assert '"search":"poetry"' in copied and screen.query_one("#curl-panel").display


class Answering(httpx.AsyncBaseTransport):
    """A service that answers every map with one failure."""

    def __init__(self, how: str) -> None:
        self.how = how

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.how == "timeout":
            raise httpx.ReadTimeout("timed out", request=request)
        if self.how == "lost":
            raise httpx.ConnectError("connection refused", request=request)
        if self.how == "unreadable":
            return httpx.Response(200, text="<html>oops</html>", headers={"content-type": "text/html"})
        if self.how == "400":
            details = [{"path": ["limit"], "message": "Number must be less than or equal to 100000"}]
            return httpx.Response(400, json={"success": False, "error": "Bad Request", "details": details})
        status = int(self.how)
        return httpx.Response(status, json={"success": False, "error": f"failure {status}"})


@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("timeout", "No answer in time"),
        ("lost", "Connection lost"),
        ("unreadable", "Unreadable answer"),
        ("401", "The API key was refused"),
        ("402", "No credits left"),
        ("429", "Rate limited"),
        ("500", "The service failed"),
        ("408", "The map took too long"),
    ],
)
async def test_every_failure_keeps_the_form_and_says_why(how: str, words: str) -> None:
    transport = Answering(how)
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        await map_site(pilot, screen, search="poetry", limit="50", timeout="9000")
        assert screen.links is None and not screen.sending
        assert text_of(screen, "#form-problem").startswith(words)
        kept = [screen.query_one(f"#{name}", Input).value for name in ("url", "search", "limit", "timeout")]
        assert kept == [SITE, "poetry", "50", "9000"]


async def test_the_services_400_lands_under_the_field_it_names() -> None:
    transport = Answering("400")
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        await map_site(pilot, screen, limit="50")
        assert "less than or equal to 100000" in text_of(screen, "#limit-error")
        assert screen.query_one("#limit", Input).value == "50"


async def test_escape_abandons_a_slow_map_and_gives_the_form_back(emulator: Emulator) -> None:
    class Slow(SwitchableTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            await asyncio.sleep(30)
            return await super().handle_async_request(request)

    transport = Slow(emulator)
    app = host_on(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_explorer(pilot, transport)
        screen.query_one("#url", Input).value = SITE
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "Esc cancels" in text_of(screen, "#map-progress"), "the waiting line")
        assert re.search(r"… \d+ s \(no timeout set\)", text_of(screen, "#map-progress"))  # the wait, counted
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.sending and "Cancelled" in text_of(screen, "#map-progress")
        assert screen.query_one("#url", Input).value == SITE and app.screen is screen


async def test_a_closed_map_leaves_nothing_frozen_and_its_widgets_are_collected(
    emulator: Emulator, transport: SwitchableTransport
) -> None:
    """The links are frozen out of the collector while shown (typing a filter walks no 100,000 links), and
    unfrozen when the map closes: a closed map's widgets are cycles, which a frozen heap would keep for good."""
    import gc
    import weakref

    app: WdsApp = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await explorer_opened_with_m(pilot, app)
        await map_site(pilot, screen, limit="300")
        await wait_until(pilot, lambda: gc.get_freeze_count() > 0, "the links frozen after the first frame")
        results = weakref.ref(screen.query_one("#map-links"))
        del screen
        app.pop_screen()
        await wait_until(pilot, lambda: not isinstance(app.screen, MapExplorerScreen), "the dashboard again")
        await pilot.pause()
        assert gc.get_freeze_count() == 0

        def collected() -> bool:
            gc.collect()  # a message or timer still on its way may hold the screen a moment longer
            return results() is None

        await wait_until(pilot, collected, "the closed map's links view collected")
