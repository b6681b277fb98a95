"""Where `g` (open a job by id) works: the dashboard and its job and list screens, never over a dialog or the problem screen.

A jump dialog stacked on a confirm that waits for its answer, or on the
connection problem screen (where no job is shown, and before a first answer
none can be found), hid what was being asked of the person.
"""

from __future__ import annotations

from tests.support.dashboard import dashboard, open_pane, seeded_emulator, wait_until
from tui.dashboard.connection.problem_screen import ConnectionProblemScreen
from tui.dashboard.features.activity.failed_view import FailedJobsScreen
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.jump.dialog import OpenByIdScreen
from tui.dashboard.kit.confirm import ConfirmScreen

WRONG = "wds-" + "0" * 32


async def test_g_does_nothing_over_a_confirm_and_works_once_it_is_answered() -> None:
    emulator = seeded_emulator()
    app = dashboard(emulator)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await open_pane(pilot, ActivityPane)
            confirm = ConfirmScreen("Delete it?", "Delete")
            await app.push_screen(confirm)
            await pilot.pause()
            assert app.check_action("open_by_id", ()) is False
            await pilot.press("g")
            await pilot.pause()
            assert app.screen is confirm, "no jump dialog over the question"
            await pilot.press("n")
            await wait_until(pilot, lambda: app.screen is not confirm, "the confirm to close")
            await pilot.press("g")
            await wait_until(pilot, lambda: isinstance(app.screen, OpenByIdScreen), "the dialog, on the dashboard")
    finally:
        await emulator.aclose()


async def test_g_still_works_on_a_list_screen() -> None:
    emulator = seeded_emulator()
    app = dashboard(emulator)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await open_pane(pilot, ActivityPane)
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, FailedJobsScreen), "the failed view")
            await pilot.press("g")
            await wait_until(pilot, lambda: isinstance(app.screen, OpenByIdScreen), "the dialog, on the failed view")
    finally:
        await emulator.aclose()


async def test_g_does_nothing_on_the_problem_screen_before_a_first_answer() -> None:
    emulator = seeded_emulator()
    app = dashboard(emulator, key=WRONG)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, ConnectionProblemScreen), "the problem screen")
            screen = app.screen
            screen.set_focus(None)  # not typing a new key
            await pilot.pause()
            assert app.check_action("open_by_id", ()) is False
            await pilot.press("g")
            await pilot.pause()
            assert app.screen is screen
    finally:
        await emulator.aclose()
