"""Keys typed while one screen gives way to another go to the new screen's focus.

An operator types ahead: Escape out of a job screen, then at once `4` (the
sessions pane) and `c` (create a session). Each key must act where the screen
on top will be when it arrives, never land as text in a field of a screen
that is closing or opening.
"""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.keys import _character_to_key
from textual.widgets import Input, Select

from tests.support.dashboard import dashboard, settle, wait_until
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.activity.rows import ActivityTable
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.emulator.service import Emulator


def type_ahead(app: App[object], *keys: str) -> None:
    """Queue `keys` at once, as a fast typist or a paste does (Pilot.press waits for idle between keys)."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(_character_to_key(key) if character else key, character))


async def test_keys_typed_while_leaving_a_job_screen_reach_the_dashboard(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-endpoint", Select).value = "scrape"
        await settle(pilot)
        table = pane.query_one(ActivityTable)
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, JobDetailScreen), "the job screen")

        type_ahead(app, "escape", "4", "c", "1", "2", "0")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionFormScreen), "the session form")
        form = app.screen
        await wait_until(pilot, lambda: bool(form.query("#ttl")), "the form's fields")
        ttl = form.query_one("#ttl", Input)
        try:
            await wait_until(pilot, lambda: ttl.value == "120", "the ttl typed ahead")
        except AssertionError as timed_out:
            raise AssertionError(f"{timed_out}: it shows {ttl.value!r}, focus on {app.focused}") from None
        assert app.screen_stack[0].query_one(SessionsPane).has_focus_within, "4 chose the sessions pane"
        assert [field.value for field in form.query(Input)] == ["120", "300", ""], "nothing else was typed"


async def test_keys_typed_into_the_console_then_escape_and_a_digit_land_in_order(emulator: Emulator) -> None:
    from textual.widgets import TextArea

    from tui.dashboard.features.console.history import ConsoleTarget
    from tui.dashboard.features.console.screen import ConsoleScreen

    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        target = ConsoleTarget("session", "3f1c0b9e-0000-4000-8000-000000000001", None, "console")
        history = app.memory.console_histories.for_target(target)
        console = ConsoleScreen(app.client, target, history=history)
        app.push_screen(console)
        await wait_until(pilot, lambda: isinstance(app.focused, TextArea), "the editor's focus")

        type_ahead(app, *"print(1)", "escape", "4")
        await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the console closed")
        await wait_until(pilot, lambda: app.query_one(SessionsPane).has_focus_within, "the sessions pane")
        assert history.draft.code == "print(1)", "every key typed before Escape reached the editor, in order"
