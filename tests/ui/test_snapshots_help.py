"""Pictures of the help screen (?) and of an ended browser session, at 120x40 and 80x24.

Update after an intended change with
`pytest tests/ui/test_snapshots_help.py --snapshot-update` and look at the
pictures before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import NOW, dashboard, freeze_cursors, panes_loaded, seeded_emulator, wait_until
from tests.support.recording_backend import RecordingBackend
from tui.contract.requests import BrowserCreateRequest
from tui.dashboard.features.console.history import ConsoleTarget, RunOutcome, RunSpec
from tui.dashboard.features.console.session_detail import SessionDetailScreen
from tui.dashboard.features.sessions.form import SessionCreated
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.keys.help import HelpScreen
from tui.emulator.core.clock import ManualClock

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


async def loaded(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: panes_loaded(pilot.app), "all panes")
    await pilot.pause()
    freeze_cursors(pilot.app)
    await pilot.pause()


@size_ids
def test_help_on_the_sessions_pane(snap_compare, size) -> None:
    emulator = seeded_emulator(browser_backend=RecordingBackend())

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        await pilot.app.client.browser.create(ttl=600)
        pane = pilot.app.query_one(SessionsPane)
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.selected_session() is not None, "the session")
        pane.focus_first()
        await pilot.pause()
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help")
        await pilot.pause()

    assert snap_compare(dashboard(emulator), terminal_size=size, run_before=run)


@size_ids
def test_an_ended_session_with_its_console_runs(snap_compare, size) -> None:
    clock = ManualClock(NOW)
    emulator = seeded_emulator(clock=clock, browser_backend=RecordingBackend())

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        app = pilot.app
        request = BrowserCreateRequest(ttl=600, profile={"name": "checkout-tests"})
        created = await app.client.browser.create(request=request)
        pane = app.query_one(SessionsPane)
        pane.session_created(SessionCreated(created, request))  # as the form hands it over
        await wait_until(pilot, lambda: pane.selected_session() is not None, "the session")
        history = app.memory.console_histories.for_target(ConsoleTarget.for_session(created))
        first = history.start(
            RunSpec("code", "await page.goto('https://northwind.dev/')\nawait page.title()", "node", 30), clock.now()
        )
        first.finish(RunOutcome(success=True, stdout="Northwind Dev\n", exit_code=0), 1.4)
        clock.advance(20)
        second = history.start(RunSpec("code", "print(await page.title())", "python", None), clock.now())
        second.finish(
            RunOutcome(success=True, error="TimeoutError: page.goto: Timeout 30000ms exceeded", exit_code=1), 30.2
        )
        clock.advance(70)
        pane.delete_session(created.id)
        await wait_until(
            pilot, lambda: pane.selected_session() is not None and not pane.selected_session().is_active, "the end"
        )
        pane.focus_first()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionDetailScreen), "the ended session")
        app.clear_notifications()  # "started" and "deleted" toasts would cover the runs
        await pilot.pause()

    assert snap_compare(dashboard(emulator, clock=clock.now), terminal_size=size, run_before=run)
