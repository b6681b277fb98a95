"""Pictures of what the user sees, at 120x40 and 80x24 (the main screen also at 100x30 and 200x50), on a seeded emulator with a frozen clock.

Update after an intended change with `pytest tests/ui/test_snapshots.py --snapshot-update`
and look at the report before committing the new SVGs.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.support.dashboard import (
    SwitchableTransport,
    dashboard,
    freeze_cursors,
    live_views,
    panes_loaded,
    seeded_emulator,
    wait_until,
)
from tests.support.recording_backend import RecordingBackend
from tui.dashboard.connection.problem_screen import ConnectionProblemScreen
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.console.history import ConsoleTarget
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.kit.pane import Pane

SIZES = [(120, 40), (80, 24)]
MAIN_SIZES = [*SIZES, (100, 30), (200, 50)]
"""The main screen at the sizes operators use: columns give way in order, nothing scrolls sideways."""


async def all_panes_loaded(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: panes_loaded(pilot.app), "all panes")
    await wait_until(pilot, lambda: not any(p.checking_statuses for p in pilot.app.query(ActivityPane)), "statuses")
    await pilot.pause()
    freeze_cursors(pilot.app)
    await pilot.pause()


@pytest.mark.parametrize("size", MAIN_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen(snap_compare, size) -> None:
    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=all_panes_loaded)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen_with_a_failing_service_keeps_data_and_marks_it_stale(snap_compare, size) -> None:
    emulator = seeded_emulator()
    transport = SwitchableTransport(emulator)

    async def fail_then_refresh(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        transport.failing = True
        for pane in pilot.app.query(Pane):
            pane.refresh_data()
        await wait_until(pilot, lambda: all(p.stale_since for p in live_views(pilot.app)), "stale marks")
        await pilot.pause()

    app = dashboard(emulator, transport)
    assert snap_compare(app, terminal_size=size, run_before=fail_then_refresh)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_usage_pane_maximised(snap_compare, size) -> None:
    async def zoom(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        pilot.app.query_one("#usage", Pane).action_toggle_maximize()
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=zoom)


# --- screens ------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_connection_problem_screen_for_a_refused_key(snap_compare, size) -> None:
    async def refused(pilot: Pilot) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConnectionProblemScreen), "problem screen")
        await wait_until(pilot, lambda: bool(pilot.app.screen.query("#problem-advice")), "its text")
        # Its retries run on real time (the first after 5 s): stopped, so a slow machine takes
        # the picture of the first attempt too, not of a later one.
        pilot.app.screen.stop_polling()
        await pilot.pause()

    app = dashboard(seeded_emulator(), key="wds-" + "0" * 32)
    assert snap_compare(app, terminal_size=size, run_before=refused)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_console_after_a_run(snap_compare, size) -> None:
    backend = RecordingBackend()
    emulator = seeded_emulator(browser_backend=backend)

    async def run_once(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        app = pilot.app
        created = await app.client.browser.create(ttl=600)
        # No CDP address: the panel shows its waiting state rather than a socket that
        # cannot exist on the in-process transport (the live panel is tested with Chromium).
        target = ConsoleTarget("session", created.id, None, f"Execute console · browser session {created.id[:8]}")
        ticks = iter(range(1000))
        app.push_screen(ConsoleScreen(app.client, target, clock=app.clock, timer=lambda: next(ticks) * 0.25))
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        await wait_until(pilot, lambda: editor.has_focus, "the editor's focus")  # what a person types into
        editor.text = "console.log(await page.title())"
        await pilot.press("ctrl+r")
        await wait_until(
            pilot, lambda: "exit" in " ".join(str(s.render()) for s in app.screen.query("Static")), "run output"
        )
        freeze_cursors(app)
        await pilot.pause()

    assert snap_compare(dashboard(emulator), terminal_size=size, run_before=run_once)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_job_detail_of_a_scrape(snap_compare, size) -> None:
    emulator = seeded_emulator()

    async def open_scrape(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        app = pilot.app
        scrape = await app.client.scrape.create("https://northwind.dev/blog")
        app.push_screen(JobDetailScreen(app.client, "scrape", scrape.job_id, target="https://northwind.dev/blog"))
        await wait_until(pilot, lambda: app.screen.job is not None, "the document")
        await pilot.pause()

    assert snap_compare(dashboard(emulator), terminal_size=size, run_before=open_scrape)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_session_form_with_a_value_out_of_range(snap_compare, size) -> None:
    async def bad_ttl(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        pilot.app.query_one(SessionsPane).action_create()
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SessionFormScreen), "the form")
        await pilot.pause()
        ttl = pilot.app.screen.query_one("#ttl", Input)
        ttl.value = "5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        freeze_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=bad_ttl)
