"""Quitting as operators expect: ctrl+c everywhere (twice while a request is on its way), q never from a form."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input

from tests.support.dashboard import SwitchableTransport, dashboard, wait_until
from tui.dashboard.features.scrape.form import ScrapeFormScreen
from tui.dashboard.shell.app import WdsApp
from tui.emulator.service import Emulator


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport) -> WdsApp:
    return dashboard(emulator, transport)


def quitting(app: WdsApp) -> bool:
    """Whether the app was asked to exit (run_test's own exit at the end would hide it from return_code)."""
    return bool(app._exit)


async def open_scrape_form(pilot: Pilot[Any]) -> ScrapeFormScreen:
    await pilot.pause()
    await pilot.press("S")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ScrapeFormScreen), "the scrape form")
    assert isinstance(pilot.app.screen, ScrapeFormScreen)
    return pilot.app.screen


async def test_ctrl_c_quits_the_dashboard_at_once_when_nothing_is_on_its_way(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not quitting(app)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert quitting(app)


async def test_ctrl_c_quits_from_a_form_too(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_scrape_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/"
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert quitting(app)


async def test_ctrl_c_asks_again_while_a_scrape_is_on_its_way(emulator: Emulator) -> None:
    class Slow(SwitchableTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/v2/scrape":
                await asyncio.sleep(30)
            return await super().handle_async_request(request)

    app = dashboard(emulator, Slow(emulator))
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_scrape_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/blog"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert form.sending
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.screen is form and form.sending and not quitting(app)  # one press only warns
        [toast] = [n for n in app._notifications if n.title == "Quit?"]
        assert toast.message == "A scrape is on its way: ctrl+c again to quit anyway"
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert quitting(app)


async def test_ctrl_c_in_a_field_with_a_selection_copies_it(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_scrape_form(pilot)
        url = form.query_one("#url", Input)
        url.value = "https://example.com/page"
        url.focus()
        url.selection = (8, 19)  # "example.com"
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not quitting(app) and app.screen is form
        assert app.clipboard == "example.com"


async def test_q_never_quits_from_a_screen_with_a_text_field(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_scrape_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/typed"
        form.query_one("#mobile", Checkbox).focus()  # not in a text field: q is not typing here
        await pilot.press("q")
        await pilot.pause()
        assert not quitting(app) and app.screen is form
        assert form.query_one("#url", Input).value == "https://example.com/typed"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("q")  # on the dashboard, q quits
        await pilot.pause()
        assert quitting(app)
