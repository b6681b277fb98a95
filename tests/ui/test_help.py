"""The help screen (? and f1): the keys that work where you are, grouped, closed by Esc; ? stays typeable."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TextArea

from tests.support.dashboard import dashboard, open_pane, seeded_emulator, settle, wait_until
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.keys.help import HelpScreen
from tui.dashboard.keys.keymap import takes_text


def listed(help_screen: HelpScreen) -> dict[str, list[tuple[str, str, bool | None]]]:
    """Group title -> (keys, description, enabled) of each line."""
    return {
        group.title: [(entry.key_text, entry.description, entry.enabled) for entry in group.actions]
        for group in help_screen.groups
    }


def help_text(help_screen: HelpScreen) -> str:
    return "\n".join(str(static.render()) for static in help_screen.query("Static"))


async def open_help(pilot: Pilot[Any], key: str = "question_mark") -> HelpScreen:
    await pilot.press(key)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help screen")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, HelpScreen)
    return screen


async def test_question_mark_shows_the_focused_panes_keys_then_the_apps_and_esc_closes() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        help_screen = await open_help(pilot)

        groups = listed(help_screen)
        assert list(groups) == ["Browser sessions", "App"], "only the keys that work here, grouped"
        sessions = {keys: (description, enabled) for keys, description, enabled in groups["Browser sessions"]}
        assert sessions["r"] == ("Refresh", True) and sessions["c"] == ("Create", True)
        assert sessions["d"] == ("Delete", None), "no session selected: listed, but not now"
        assert sessions["y"] == ("Copy id", None) and sessions["Y"] == ("Copy cdpUrl", None)
        app_keys = {keys: description for keys, description, _ in groups["App"]}
        assert app_keys["? / f1"].startswith("Help") and app_keys["q"] == "Quit" and app_keys["4"] == "Go to sessions"
        assert app_keys["^p"].startswith("Command palette")
        assert app_keys["g"] == "Open job by id"
        text = help_text(help_screen)
        assert "Browser sessions" in text and "Delete (not now)" in text and "Go to sessions" in text
        assert "Next page" not in text, "another pane's keys do not work here"

        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        assert app.query_one(SessionsPane).has_focus_within, "back where you were"


async def test_f1_opens_it_too_and_question_mark_closes_it() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        help_screen = await open_help(pilot, "f1")
        assert list(listed(help_screen))[0] == "Team activity"
        await pilot.press("question_mark")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_on_another_screen_it_shows_that_screens_keys() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionFormScreen), "the form")
        help_screen = await open_help(pilot, "f1")  # the focus is in a text field: f1 is no text
        groups = listed(help_screen)
        assert list(groups) == ["Session form", "App"]
        assert ("^s", "Create", True) in groups["Session form"]
        assert ("esc", "Cancel", True) in groups["Session form"]
        app_keys = [keys for keys, _, _ in groups["App"]]
        assert "f1" in app_keys and "^p" in app_keys
        assert not {"1", "q", "?"} & set(app_keys), "keys a text field takes as text are not offered"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SessionFormScreen), "Esc closed the help, not the form"


async def test_question_mark_and_digits_are_typed_into_a_text_field() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionFormScreen), "the form")
        form = app.screen
        form.query_one("#profile-name", Input).focus()
        await pilot.pause()
        await pilot.press(*"shop?", "2")
        await settle(pilot)
        assert app.screen is form, "? in a text field is text"
        assert form.query_one("#profile-name", Input).value == "shop?2"


def test_what_counts_as_a_text_field() -> None:
    assert takes_text(Input()) and takes_text(TextArea())
    assert not takes_text(TextArea(read_only=True)), "a document shown read-only takes ? as help"
    assert not takes_text(DataTable()) and not takes_text(None)
