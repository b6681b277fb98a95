"""Trouble after the first answer is a banner over the kept data, never a screen over a form; a slow start says what it waits for.

A service that refuses the key now and then among good answers (one bad node
behind a load balancer) once made the full problem screen come and go every
few seconds, over a half-filled form. Here: the refusal is a banner line with
a key (K) to the problem screen, which shows its keys and closes with Esc;
before any answer, Esc there says there is nothing to go back to. A first
call that hangs is named, with its wait on the app's clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from textual.widgets import Input

from tests.support.dashboard import (
    KEY,
    NOW,
    SLOW,
    SwitchableTransport,
    dashboard,
    emulator_service,
    seeded_emulator,
    settle,
    wait_until,
)
from tests.support.faulty_emulator import Faults, faulty_emulator
from tui.api.client import WdsClient
from tui.dashboard.connection import banner as connection_banner
from tui.dashboard.connection.banner import ConnectionBanner
from tui.dashboard.connection.first_wait import SHOW_AFTER
from tui.dashboard.connection.problem_screen import ConnectionProblemScreen
from tui.dashboard.features.crawls.form import CrawlFormScreen
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.footer_key import FooterKey
from tui.dashboard.startup.app_factory import make_app
from tui.emulator.core.clock import ManualClock

WRONG = "wds-" + "0" * 32


class NowAndThenRefused(httpx.AsyncBaseTransport):
    """The emulator, except that while `every` is set, every `every`-th request is answered 401."""

    def __init__(self, inner: httpx.AsyncBaseTransport, status: int = 401) -> None:
        self.inner = inner
        self.status = status
        self.every = 0
        self.requests = 0
        self.refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        if self.every and self.requests % self.every == 0:
            self.refused += 1
            body = {"success": False, "error": "Refused: invalid token", "code": "UNAUTHORIZED"}
            return httpx.Response(self.status, json=body)
        return await self.inner.handle_async_request(request)


def footer_keys(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {key.key: key.description for key in app.screen.query(FooterKey)}


async def refresh_all(pilot, app) -> None:  # type: ignore[no-untyped-def]
    """Every pane asks at once, as after a poll (under a form too: a fetch asked for is not put off)."""
    for pane in app.query(Pane):
        pane.refresh_data()
    await wait_until(pilot, lambda: not any(pane.fetching for pane in app.query(Pane)), "the panes' fetches")
    await pilot.pause()


async def refused_after_answers(pilot, transport: NowAndThenRefused) -> ConnectionBanner:  # type: ignore[no-untyped-def]
    app = pilot.app
    await settle(pilot)
    transport.every = 2
    await refresh_all(pilot, app)
    banner = app.banner
    await wait_until(pilot, lambda: banner.refusing, "the refused-key line")
    return banner


async def test_a_key_refused_now_and_then_is_a_steady_banner_and_the_half_filled_form_keeps_its_focus() -> None:
    emulator = seeded_emulator()
    transport = NowAndThenRefused(SwitchableTransport(emulator))
    app = dashboard(emulator, transport)
    screens: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not app.first_wait.display  # a quick start never names a call
        app.screen_change_signal.subscribe(app.screen, lambda screen: screens.append(type(screen).__name__))
        await pilot.press("C")
        await wait_until(pilot, lambda: isinstance(app.screen, CrawlFormScreen), "the crawl form")
        form = app.screen
        field = form.query_one("#param-url", Input)
        await wait_until(pilot, lambda: field.has_focus, "the URL field's focus")
        await pilot.press(*"https://north")
        transport.every = 2
        for _ in range(6):  # good answers and refusals mixed, as a poll after another would bring them
            await refresh_all(pilot, app)
            assert app.screen is form and field.has_focus and field.value == "https://north"
            assert app.banner.refusing  # steady: good answers between refusals do not take it away
        assert transport.refused >= 6
        await pilot.press(*"wind.dev")
        assert field.value == "https://northwind.dev"
        assert "ConnectionProblemScreen" not in screens  # not even for a moment
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the dashboard")
        await wait_until(pilot, lambda: app.banner.region.height == 1, "the banner laid out")
        text = app.banner.text()
        assert re.fullmatch(
            r"⚠ 127\.0\.0\.1:3002 refused the key at \d\d:\d\d:\d\d \(\d+× since \d\d:\d\d\) · K: what to do", text
        )
        assert len(text) <= 78  # one line at 80 columns (the banner's padding takes two)
        assert all(pane.data is not None for pane in app.query(Pane))  # the data is kept under it
        assert not any(pane.held for pane in app.query(Pane))  # and the panes go on asking


async def test_a_403_on_the_team_calls_after_answers_is_the_same_banner() -> None:
    emulator = seeded_emulator()
    transport = NowAndThenRefused(SwitchableTransport(emulator), status=403)
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        banner = await refused_after_answers(pilot, transport)
        assert "127.0.0.1:3002 denied the key (403) at " in banner.text() and app.screen is app.screen_stack[0]


async def test_K_opens_the_problem_screen_which_shows_its_keys_stays_when_a_try_succeeds_and_closes_with_esc() -> None:
    emulator = seeded_emulator()
    transport = NowAndThenRefused(SwitchableTransport(emulator))
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        await refused_after_answers(pilot, transport)
        app.screen.set_focus(None)
        await pilot.pause()
        assert footer_keys(app).get("K") == "Key refused"
        await pilot.press("K")
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionProblemScreen), "the problem screen")
        screen = app.screen
        assert isinstance(screen, ConnectionProblemScreen)
        await wait_until(pilot, lambda: {"escape", "r"} <= footer_keys(app).keys(), "its keys in its footer")
        keys = footer_keys(app)
        assert keys["escape"] == "Back to the dashboard" and keys["r"] == "Retry now"
        # q is not offered beside a key field (the app's rule: it could lose what was typed); ctrl+c quits.
        assert keys["k"] == "Type another key" and "q" not in keys
        await pilot.press("k")
        assert screen.query_one("#new-key", Input).has_focus  # another key may be typed here
        await pilot.press("r", "q")
        assert screen.query_one("#new-key", Input).value == "rq" and app.screen is screen  # typed, not run
        transport.every = 0
        screen.action_retry_now()
        await wait_until(pilot, lambda: "accepted the key" in screen.query_one("#problem-retry").render().plain, "ok")
        assert app.screen is screen  # opened by a person, it goes when the person says so
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "back on the dashboard")
        assert app.banner.refusing  # the banner still tells of the refusals, until a quiet spell


def test_the_refused_key_line_waits_a_minute_without_refusals() -> None:
    assert connection_banner.REFUSAL_QUIET == 60


async def test_the_refused_key_line_goes_after_a_spell_without_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    emulator = seeded_emulator()
    transport = NowAndThenRefused(SwitchableTransport(emulator))
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        banner = await refused_after_answers(pilot, transport)  # up for a minute: a slow loop still sees it
        # One more refusal, timed with a short quiet spell (a loaded CI run missed a line that lasted 1 s).
        monkeypatch.setattr(connection_banner, "REFUSAL_QUIET", 1.0)
        refused = transport.refused
        transport.every = 1
        app.query(Pane).first().refresh_data()
        await wait_until(pilot, lambda: transport.refused > refused, "one more refusal")
        transport.every = 0
        await wait_until(pilot, lambda: not banner.refusing and not banner.display, "the line gone")
        app.screen.set_focus(None)
        await pilot.pause()
        assert "K" not in footer_keys(app)  # nothing left to explain
        assert not app.check_action("open_problem", ())


async def test_before_any_answer_esc_on_the_problem_screen_says_there_is_nothing_behind_it() -> None:
    app = dashboard(seeded_emulator(), key=WRONG)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionProblemScreen), "the problem screen")
        screen = app.screen
        await wait_until(pilot, lambda: "r" in footer_keys(app), "its keys in its footer")
        keys = footer_keys(app)
        assert keys["r"] == "Retry now" and "escape" not in keys  # no way back is offered where there is none
        screen.set_focus(None)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert any("Nothing to go back to yet" in str(note.message) for note in app._notifications)


class Unreachable(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


async def test_the_problem_screen_of_an_unreachable_service_shows_retry_and_quit() -> None:
    app = dashboard(seeded_emulator(), Unreachable())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionProblemScreen), "the problem screen")
        await wait_until(pilot, lambda: "r" in footer_keys(app), "its keys in its footer")
        keys = footer_keys(app)
        assert keys["r"] == "Retry now" and keys["q"] == "Quit" and "k" not in keys and "escape" not in keys


@pytest.fixture(scope="module")
def holding() -> Iterator[tuple[str, Faults]]:
    """The emulator on a socket, holding every API call for a minute (a fault rule's latency)."""
    with faulty_emulator({"ops": [KEY]}) as (base_url, faults):
        faults.add(path="/v2/*", latency=60_000)
        yield base_url, faults


@pytest.mark.socket
async def test_a_first_call_that_hangs_is_named_with_its_wait_on_the_app_clock(holding: tuple[str, Faults]) -> None:
    base_url, faults = holding
    clock = ManualClock(NOW)
    client = WdsClient(base_url, KEY, max_retries=0)
    app = make_app(client, emulator_service(), clock=clock.now, refresh=SLOW)
    async with app.run_test(size=(80, 24)) as pilot:
        # The four panes' first calls, and the usage pane's capacity line's (however many it makes).
        await wait_until(pilot, lambda: len(client.in_flight.now()) >= 4, "the four panes' first calls")
        wait = app.first_wait
        assert SHOW_AFTER == 2  # the README's "once a call has waited 2 s"
        wait.tick()  # each call stamped with the app's clock as first seen
        assert not wait.display  # not named before SHOW_AFTER: a quick start never flashes it
        clock.advance(SHOW_AFTER - 1)
        wait.tick()
        assert not wait.display
        clock.advance(12 - (SHOW_AFTER - 1))
        await wait_until(pilot, lambda: wait.display and "· 12 s" in wait.render().plain, "the wait named")
        oldest, *others = client.in_flight.now()
        assert wait.render().plain == f"◌ waiting for {oldest} · 12 s · {len(others)} other calls waiting too"
        assert oldest.method == "GET"

        def held_by_the_server() -> bool:
            # Every call the server received is held: once it holds as many as are in flight, the named one is among them.
            (rule,) = faults.rules()
            return rule["fired"] >= len(client.in_flight.now())

        await wait_until(pilot, held_by_the_server, "the call named among those the server holds")
        await wait_until(pilot, lambda: wait.region.height == 1, "the line laid out")
        assert wait.region.y == 1 and wait.region.height == 1  # under the header, where the banner goes later
        assert app.header.connection == "connecting"
