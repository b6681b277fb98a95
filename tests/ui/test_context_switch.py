"""T: switch context in the running dashboard (the picker; the app ends with the new settings to start again on)."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from tests.support.dashboard import SwitchableTransport, dashboard, seeded_emulator, wait_until
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.startup.context_picker import ContextPickerScreen
from tui.dashboard.startup.contexts import ContextSwitch, SwitchTo
from tui.dashboard.startup.settings import SettingsError


def app_with_contexts(load: Any) -> WdsApp:
    emulator = seeded_emulator()
    app = dashboard(emulator, SwitchableTransport(emulator))
    app.contexts = ContextSwitch(["prod", "staging", "local"], "prod", load)
    return app


async def test_t_lists_the_contexts_and_choosing_one_ends_the_app_with_its_settings() -> None:
    asked: list[str] = []

    def load(name: str) -> tuple[object, list[str]]:
        asked.append(name)
        return f"settings of {name}", ["a warning"]

    app = app_with_contexts(load)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await wait_until(pilot, lambda: isinstance(app.screen, ContextPickerScreen), "the picker")
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels == ["● prod", "  staging", "  local  (the embedded emulator)"]
        assert options.highlighted == 0  # on the one in use
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: bool(app._exit), "the app ending to start again")
    assert asked == ["staging"]
    assert app.return_value == SwitchTo("settings of staging", ["a warning"])


async def test_a_context_that_cannot_be_loaded_says_why_and_the_dashboard_stays() -> None:
    def load(name: str) -> tuple[object, list[str]]:
        raise SettingsError("The api_key_command of context 'staging' failed (exit 3): locked")

    app = app_with_contexts(load)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await wait_until(pilot, lambda: isinstance(app.screen, ContextPickerScreen), "the picker")
        await pilot.press("down", "enter")
        problem = app.screen.query_one("#context-problem", Static)
        await wait_until(pilot, lambda: "Cannot switch" in str(problem.render()), "the reason")
        assert "failed (exit 3): locked" in str(problem.render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ContextPickerScreen) and not app._exit


async def test_the_context_in_use_or_a_single_context_does_not_restart() -> None:
    app = app_with_contexts(lambda name: (name, []))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("T", "enter")  # the one in use: just closes
        await pilot.pause()
        assert not isinstance(app.screen, ContextPickerScreen) and not app._exit
        app.contexts = ContextSwitch(["local"], "local", lambda name: (name, []))
        await pilot.press("T")  # nothing to switch to: the key does nothing
        await pilot.pause()
        assert not isinstance(app.screen, ContextPickerScreen)
