"""The dashboard as a whole: opening the console, the palette, and a service that goes away."""

from __future__ import annotations

import re
from dataclasses import replace

import httpx
import pytest
from textual import events

from tests.support.dashboard import KEY, SwitchableTransport, dashboard, seeded_emulator, wait_until
from tests.support.recording_backend import RecordingBackend
from tui.dashboard.connection import banner as connection_banner
from tui.dashboard.connection import problem_screen as connection
from tui.dashboard.connection.banner import ConnectionBanner
from tui.dashboard.connection.problem_screen import ConnectionProblemScreen
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.keys.palette import DashboardCommands
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live_table import LiveTable


class Outage(httpx.AsyncBaseTransport):
    """The emulator behind a switch: while `down`, nothing answers (connection refused)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.down = False
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        if self.down:
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        return await self.inner.handle_async_request(request)


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    return " ".join(str(w.render()) for w in app.screen.query("Static"))


async def all_loaded(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_until(pilot, lambda: all(p.data is not None for p in pilot.app.query(Pane)), "all panes")


async def test_enter_on_a_session_opens_its_console() -> None:
    emulator = seeded_emulator(browser_backend=RecordingBackend())
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        created = await app.client.browser.create(ttl=600)
        pane = app.query_one(SessionsPane)
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.selected_session() is not None, "the new session")
        pane.focus_first()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConsoleScreen), "the console")
        assert created.id[:8] in str(app.screen.query_one("#console-name").render())


async def test_the_palette_offers_every_pane_action() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        names = [name for name, _, _ in DashboardCommands(app.screen)._commands()]
        for title in ("Active crawls", "Team activity", "Token usage", "Browser sessions"):
            assert f"{title}: Refresh" in names
            assert f"{title}: Zoom" in names
        assert "Team activity: Next page" in names
        assert "Browser sessions: Create" in names


@pytest.fixture
def fast_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "RETRY_SECONDS", 0.2)


async def test_an_unreachable_service_at_start_gets_a_screen_that_goes_away_when_it_is_back(fast_retry) -> None:
    emulator = seeded_emulator()
    outage = Outage(SwitchableTransport(emulator))
    outage.down = True
    app = dashboard(emulator, outage)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "Cannot reach the service" in screen_text(app), "the problem screen", 15)
        assert isinstance(app.screen, ConnectionProblemScreen)
        text = screen_text(app)
        assert "WDS_BASE_URL" in text  # says what to check
        outage.down = False
        await wait_until(pilot, lambda: not isinstance(app.screen, ConnectionProblemScreen), "recovery")
        await all_loaded(pilot)


async def test_a_silent_embedded_emulator_is_said_to_have_stopped_with_its_log(fast_retry, tmp_path) -> None:
    emulator = seeded_emulator()
    outage = Outage(SwitchableTransport(emulator))
    outage.down = True
    app = dashboard(emulator, outage)
    log = tmp_path / "embedded-emulator.log"
    app.service = replace(app.service, emulator_log=log)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "Cannot reach the service" in screen_text(app), "the problem screen", 15)
        text = " ".join(screen_text(app).split())
        assert "embedded emulator" in text and "has stopped" in text
        assert "WDS_BASE_URL" not in text  # nothing the user configured is to blame
        assert log.name in text


@pytest.fixture
def fast_banner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection_banner, "FIRST_WAIT", 0.3)


async def test_a_link_lost_after_the_first_answer_keeps_the_data_under_a_banner(fast_banner) -> None:
    emulator = seeded_emulator()
    outage = Outage(SwitchableTransport(emulator))
    app = dashboard(emulator, outage)
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        activity = app.query_one("#activity", Pane)
        rows_before = activity.query_one(LiveTable).row_count
        assert rows_before > 0
        outage.down = True
        activity.refresh_data()
        banner = app.query_one(ConnectionBanner)
        # Showing, and laid out: on a loaded machine the layout may come a frame after the flag.
        await wait_until(pilot, lambda: banner.showing and banner.region.height > 0, "the banner", 15)
        # Said from the first moment: since when, the next try, how many failed.
        assert re.fullmatch(
            r"⚠ cannot reach \S+ since \d\d:\d\d:\d\d, retrying (in \d+ s|now) \((1 attempt|\d+ attempts)\) · r retries now",
            banner.text(),
        ), banner.text()
        assert banner.region.height == 1 and banner.region.y == 1  # under the header, over the panes
        assert app.screen is app.screen_stack[0]  # no full screen over the data
        assert activity.query_one(LiveTable).row_count == rows_before and activity.stale_since is not None
        assert all(pane.held for pane in app.query(Pane))  # the panes stop asking; the banner alone retries
        await wait_until(pilot, lambda: banner.attempts >= 2, "a second try", 15)
        assert f"({banner.attempts} attempts)" in banner.text()
        requests_before, attempts_before = outage.requests, banner.attempts
        # A request besides the banner's tries (a retry, a held pane asking) would come at once; 0.5 s
        # costs nothing, as the banner's next try (0.6 s after the second) is waited for below anyway.
        await pilot.pause(0.5)
        # The panes hold still: only the banner's own tries (one request each, no retries) reach the service.
        assert outage.requests - requests_before <= banner.attempts - attempts_before + 1

        outage.down = False
        await wait_until(pilot, lambda: not banner.showing, "the banner gone", 15)
        await wait_until(pilot, lambda: all(p.stale_since is None for p in app.query(Pane)), "fresh panes", 15)
        assert not any(pane.held for pane in app.query(Pane)) and not banner.display


async def test_r_on_the_dashboard_retries_at_once_and_an_embedded_emulator_names_its_log(tmp_path) -> None:
    emulator = seeded_emulator()
    outage = Outage(SwitchableTransport(emulator))
    app = dashboard(emulator, outage)
    log = tmp_path / "embedded-emulator.log"
    app.service = replace(app.service, emulator_log=log)
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        outage.down = True
        app.query_one("#crawls", Pane).refresh_data()
        banner = app.query_one(ConnectionBanner)
        await wait_until(pilot, lambda: banner.showing, "the banner", 15)
        assert "embedded emulator is not answering" in banner.text() and str(log) in banner.text()
        app.screen.set_focus(None)  # no pane focused: the app's r retries
        outage.down = False
        await pilot.press("r")
        await wait_until(pilot, lambda: not banner.showing, "the banner gone after r", 5)


async def test_a_refused_key_says_so_and_never_shows_it() -> None:
    wrong = "wds-" + "0" * 32
    app = dashboard(seeded_emulator(), key=wrong)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "refused the API key" in screen_text(app), "the problem screen")
        text = screen_text(app)
        assert wrong not in text and KEY not in text


async def test_zoom_fills_the_screen_with_one_pane_and_escape_brings_the_others_back() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        grid = app.query_one("#panes")
        activity = app.query_one("#activity", Pane)
        small = activity.region
        await pilot.press("2", "z")
        await pilot.pause()
        assert [pane.id for pane in app.query(Pane) if pane.display] == ["activity"]
        assert activity.region == grid.region and grid.region.height == 39  # all but the footer
        assert not app.header.display

        await pilot.press("escape")
        await pilot.pause()
        assert all(pane.display for pane in app.query(Pane)) and app.header.display
        assert activity.region == small

        await pilot.press("z", "z")  # z also goes back
        await pilot.pause()
        assert activity.region == small


async def test_keys_typed_together_act_on_the_pane_the_first_one_chose() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        app.query_one("#sessions", Pane).focus_first()
        await pilot.pause()
        # As a terminal delivers "2z" typed fast: both keys queued before either is handled.
        app.post_message(events.Key("2", "2"))
        app.post_message(events.Key("z", "z"))
        await pilot.pause()
        assert app.zoomed is app.query_one("#activity", Pane)


async def test_a_pane_zoomed_from_the_palette_takes_the_keys() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        await pilot.press("2")
        usage = app.query_one("#usage", Pane)
        usage.action_toggle_maximize()  # what the palette's "Token usage: Zoom" runs
        await pilot.pause()
        # Not the hidden activity pane: its keys would act on rows nobody can see.
        assert usage.has_focus_within


async def test_a_screen_opened_by_its_key_is_not_offered_again_over_itself() -> None:
    from tui.dashboard.features.inbox.screen import WebhookInboxScreen

    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await all_loaded(pilot)
        assert app.check_action("webhook_inbox", ()) is True
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WebhookInboxScreen), "the inbox")
        assert app.check_action("webhook_inbox", ()) is False  # w again would stack a second inbox
        assert app.check_action("docs_search", ()) is True  # another screen still opens over it
