"""The failed-only view (e on the activity pane): the 24 hours searched for failed jobs, on the seeded emulator.

The standard picture (seed 11) holds 143 entries in the last 24 hours, 11 of
them failed: 4 scrapes whose page answered 404, 408 or 500, 6 agent jobs and
1 extract job.
"""

from __future__ import annotations

import asyncio

import httpx
from textual import on
from textual.pilot import Pilot
from textual.widgets import Select, Static

from tests.support.dashboard import NOW, PaneHost, SwitchableTransport, client_on, frozen_clock, wait_until
from tui.api.client import WdsClient
from tui.dashboard.features.activity.failed_search import WalkState
from tui.dashboard.features.activity.failed_view import FailedJobsScreen
from tui.dashboard.features.activity.pane import ActivityPane, ActivityTable
from tui.dashboard.shell.intents import AskSupport, OpenFailedJobs, OpenJob
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.service import Emulator

SEEDED_FAILED = 11
SEEDED_ENTRIES = 143


class FailedHost(PaneHost):
    """The activity pane alone; opens the failed view as the dashboard does, notes every other intent."""

    def __init__(self, client: WdsClient) -> None:
        super().__init__(lambda: ActivityPane(client, interval=3600, clock=frozen_clock(NOW), id="activity"))
        self.screens = Navigator(client, clock=frozen_clock(NOW))

    @on(OpenFailedJobs)
    def _open_failed(self, intent: OpenFailedJobs) -> None:
        self.push_screen(self.screens.screen_for(intent))


class SlowTransport(SwitchableTransport):
    """Status requests take a while, so a search can be stopped part-way."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith(("/v2/scrape/", "/v2/extract/", "/v2/batch/scrape/")):
            await asyncio.sleep(0.05)
        return await super().handle_async_request(request)


async def open_failed_view(pilot: Pilot, pane: ActivityPane) -> FailedJobsScreen:
    await wait_until(pilot, lambda: pane._is_current(pane.data), "the activity page")
    pane.focus_first()
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, FailedJobsScreen), "the failed view")
    screen = pilot.app.screen
    assert isinstance(screen, FailedJobsScreen)
    return screen


async def searched(pilot: Pilot, screen: FailedJobsScreen) -> WalkState:
    await wait_until(pilot, lambda: screen._worker is not None and not screen.walking, "the search", 15)
    await pilot.pause()
    return screen.walk.state


def progress(screen: FailedJobsScreen) -> str:
    return str(screen.query_one("#failed-progress", Static).content)


def rows(screen: FailedJobsScreen) -> list[tuple[str, str]]:
    table = screen.query_one(ActivityTable)
    return [(str(table.get_row(key)[1]), str(table.get_row(key)[2])) for key in table.row_keys]


async def test_the_search_finds_every_failed_job_of_the_day(client: WdsClient) -> None:
    app = FailedHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        screen = await open_failed_view(pilot, pane)
        state = await searched(pilot, screen)
        assert state.finished and state.checked == SEEDED_ENTRIES
        shown = rows(screen)
        assert len(shown) == SEEDED_FAILED
        assert all(status.startswith("✗ ") for _, status in shown)
        assert {kind for kind, _ in shown} == {"scrape", "agent", "extract"}
        assert progress(screen).startswith(f"checked all {SEEDED_ENTRIES} entries of the last 24 hours")
        assert f"{SEEDED_FAILED} failed" in progress(screen)


async def test_a_screenful_stops_the_search_and_m_goes_on(client: WdsClient) -> None:
    app = FailedHost(client)
    async with app.run_test(size=(100, 12)) as pilot:  # a screenful is 5 rows here
        pane = app.query_one(ActivityPane)
        screen = await open_failed_view(pilot, pane)
        state = await searched(pilot, screen)
        assert not state.finished and 5 <= len(state.found) < SEEDED_FAILED
        assert "~" in progress(screen) and " of ~" in progress(screen)  # an estimate of the day's entries
        assert "m: find more" in progress(screen)
        checked, before = state.checked, len(state.found)
        await pilot.press("m")
        await wait_until(pilot, lambda: screen.walking or screen.walk.state.checked > checked, "the search going on")
        state = await searched(pilot, screen)
        assert state.checked > checked
        assert len(state.found) >= min(before + 5, SEEDED_FAILED)  # another screenful, or all there is
        assert len(rows(screen)) == len(state.found)


async def test_esc_stops_the_search_keeps_what_it_found_and_esc_again_goes_back(emulator: Emulator) -> None:
    app = FailedHost(client_on(SlowTransport(emulator)))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        page_before, cursor_before = pane.page_number, pane.query_one(ActivityTable).cursor_row
        screen = await open_failed_view(pilot, pane)
        await wait_until(pilot, lambda: len(screen.walk.state.found) >= 1, "a first failed job", 15)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.walking, "the search to stop")
        assert app.screen is screen
        kept = len(screen.walk.state.found)
        assert kept >= 1 and len(rows(screen)) == kept
        assert "stopped" in progress(screen)
        await pilot.pause(0.15)  # three times a status request's delay: one still in flight would have landed
        assert len(screen.walk.state.found) == kept  # nothing more arrives once stopped
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen
        assert (pane.page_number, pane.query_one(ActivityTable).cursor_row) == (page_before, cursor_before)


async def test_the_search_keeps_to_the_kind_filtered_on(client: WdsClient, transport: SwitchableTransport) -> None:
    app = FailedHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-endpoint", Select).value = "agent"
        await wait_until(pilot, lambda: pane.endpoint == "agent" and pane._is_current(pane.data), "agent entries")
        transport.paths.clear()
        screen = await open_failed_view(pilot, pane)
        await searched(pilot, screen)
        assert "agent only" in str(screen.query_one(".failed-title").content)
        assert {kind for kind, _ in rows(screen)} == {"agent"}
        assert not any(path.startswith("/v2/scrape/") for path in transport.paths)


async def test_enter_opens_a_found_job_and_a_asks_support_about_it(client: WdsClient) -> None:
    app = FailedHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        screen = await open_failed_view(pilot, pane)
        await searched(pilot, screen)
        found = screen.selected()
        assert found is not None and found.status.error
        detail = str(screen.query_one("#failed-detail", Static).content)
        assert found.entry.id in detail and found.status.error in detail  # the cause, under the table
        await pilot.press("a")
        await pilot.press("enter")
        await pilot.pause()
        asked = [intent for intent in app.intents if isinstance(intent, AskSupport)]
        opened = [intent for intent in app.intents if isinstance(intent, OpenJob)]
        assert [(i.job_id, i.kind, i.status) for i in asked] == [(found.entry.id, found.entry.endpoint, "failed")]
        assert asked[0].error == found.status.error and asked[0].target == found.entry.target
        assert [(i.endpoint, i.job_id) for i in opened] == [(found.entry.endpoint, found.entry.id)]


async def test_what_the_search_learnt_fills_the_pane_without_asking_again(
    client: WdsClient, transport: SwitchableTransport
) -> None:
    app = FailedHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-size", Select).value = 100  # more rows than a first round asks about
        await wait_until(pilot, lambda: pane.page_size == 100 and pane._is_current(pane.data), "100 rows")
        screen = await open_failed_view(pilot, pane)
        await searched(pilot, screen)
        await pilot.press("escape")
        pane.query_one(ActivityTable).scroll_to(y=10_000, animate=False)  # rows never seen before
        transport.paths.clear()
        pane.refresh_data()
        await wait_until(pilot, lambda: not pane.fetching and not pane.checking_statuses, "the poll and its checks")
        assert [path for path in transport.paths if path != "/v2/team/activity"] == []
        table = pane.query_one(ActivityTable)
        shown = {str(table.get_row(key)[2]) for key in table.row_keys}
        assert "…" not in shown  # every row of the page was checked by the search, and says so


async def test_a_failing_service_stops_the_search_with_its_reason_and_keeps_the_view(emulator: Emulator) -> None:
    transport = SwitchableTransport(emulator)
    app = FailedHost(client_on(transport))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await wait_until(pilot, lambda: pane._is_current(pane.data), "the activity page")
        transport.failing = True  # every call answers 503 from now on
        screen = await open_failed_view(pilot, pane)
        state = await searched(pilot, screen)
        assert app.screen is screen and state.found == []
        text = progress(screen)
        assert "stopped: Service unavailable" in text
        assert screen.query_one("#failed-progress").has_class("-error")


class FailingChecksTransport(SwitchableTransport):
    """The activity list answers; every status check answers 500."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith(("/v2/scrape/", "/v2/extract/", "/v2/batch/scrape/", "/v2/crawl/")):
            self.paths.append(request.url.path)
            return httpx.Response(500, json={"success": False, "error": "Boom", "code": "UNKNOWN_ERROR"})
        return await super().handle_async_request(request)


async def test_checks_that_fail_are_counted_not_taken_for_success(emulator: Emulator) -> None:
    app = FailedHost(client_on(FailingChecksTransport(emulator)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_failed_view(pilot, app.query_one(ActivityPane))
        state = await searched(pilot, screen)
        assert state.finished and state.found == [] and state.unreadable > 0
        assert f"{state.unreadable} could not be checked" in progress(screen)
