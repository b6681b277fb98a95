"""Time windows on the activity pane and the failed view (t): entries filtered by the app's clock, the border says which."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Label

from tests.support.dashboard import wait_until
from tests.ui.triage_helpers import END, pane_ready, press_window, produce_failures, window_host
from tui.api.client import WdsClient
from tui.dashboard.features.activity.failed_view import FailedJobsScreen
from tui.dashboard.features.activity.pane import ActivityPane, ActivityTable
from tui.dashboard.features.activity.window import entries_since
from tui.emulator.core.clock import ManualClock


def shown_ids(pane: ActivityPane) -> list[str]:
    return [pane._entries[key].id for key in pane.query_one(ActivityTable).row_keys]


async def test_each_window_lists_the_entries_since_its_start_by_the_apps_clock(
    client: WdsClient, clock: ManualClock
) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        assert str(pane.border_title) == "Team activity · last 24 h"
        assert pane.border_subtitle.startswith("page 1")

        await press_window(pilot, pane, "15 min")
        assert shown_ids(pane) == [m.job_id for m in reversed(made) if m.at >= END - timedelta(minutes=15)]
        assert pane.border_subtitle == "5 entries"

        await press_window(pilot, pane, "1 h")
        assert shown_ids(pane) == [m.job_id for m in reversed(made)]  # the seeded history ends an hour before
        assert pane.border_subtitle == f"{len(made)} entries"

        # 6 h reaches into the seeded history (paging is tested with small pages below).
        await press_window(pilot, pane, "6 h")
        since = END - timedelta(hours=6)
        every = []
        page = await client.team.activity(limit=100)
        while True:
            every.extend(page.entries)
            if page.next_cursor is None or page.entries[-1].created_at < since:
                break
            page = await client.team.activity(limit=100, cursor=page.next_cursor)
        expected = [entry.id for entry in every if entry.created_at >= since]
        assert len(expected) > len(made)  # seeded entries too
        assert shown_ids(pane) == expected
        assert not pilot.app.query_one(ActivityPane).check_action("next_page", ())  # a window is listed whole

        await press_window(pilot, pane, "24 h")
        assert pane.border_subtitle.startswith("page 1 · more (n)")  # the log, paged again


async def test_a_window_with_nothing_in_it_says_so(client: WdsClient, clock: ManualClock) -> None:
    clock.set(END)  # an hour after the seeded history: nothing in the last 15 minutes
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "15 min")
        assert pane.query_one("#activity-empty").display
        assert "No activity in the last 15 min" in str(pane.query_one("#activity-empty").render())


async def test_the_failed_view_searches_the_panes_window_and_t_changes_it(
    client: WdsClient, clock: ManualClock
) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "15 min")
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, FailedJobsScreen), "the failed view")
        screen = app.screen
        assert isinstance(screen, FailedJobsScreen)

        def found_ids() -> list[str]:
            return [found.entry.id for found in screen.walk.state.found]

        async def searched() -> None:
            await wait_until(pilot, lambda: screen.walk.state.finished and not screen.walking, "the search", 15)
            await pilot.pause()

        await searched()
        title = str(screen.query_one("#failed-title", Label).render())
        assert title == "Failed jobs · last 15 minutes · all kinds"
        in_15 = [m.job_id for m in reversed(made) if m.failed and m.at >= END - timedelta(minutes=15)]
        assert found_ids() == in_15
        assert screen.walk.state.progress_text(END).startswith("checked all 5 entries of the last 15 minutes")

        await pilot.press("t")
        await searched()
        assert str(screen.query_one("#failed-title", Label).render()) == "Failed jobs · last 1 hour · all kinds"
        assert found_ids() == [m.job_id for m in reversed(made) if m.failed]


async def test_entries_since_stops_at_the_windows_start_and_says_when_it_cut(
    client: WdsClient, clock: ManualClock
) -> None:
    await produce_failures(client, clock)
    whole = await entries_since(client.team, None, END - timedelta(hours=1), page_size=3)
    assert len(whole.entries) == 11 and not whole.cut
    assert whole.pages == 4  # 3 + 3 + 3 + a page that reaches back past the start
    cut = await entries_since(client.team, None, END - timedelta(hours=1), page_size=3, limit=5)
    assert cut.cut and len(cut.entries) == 5
