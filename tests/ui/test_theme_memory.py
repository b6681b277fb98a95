"""The theme chosen in the app is used again next time (tui.dashboard.startup.ui_state), and a bad state file never stops a start."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.dashboard import SwitchableTransport, dashboard, seeded_emulator
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.startup.ui_state import UiState


def app_with_state(path: Path) -> WdsApp:
    emulator = seeded_emulator()
    app = dashboard(emulator, SwitchableTransport(emulator))
    app.ui_state = UiState(path)
    return app


async def test_a_theme_chosen_is_saved_and_used_next_time(tmp_path: Path) -> None:
    state = tmp_path / "state" / "ui.json"
    first = app_with_state(state)
    async with first.run_test(size=(120, 40)) as pilot:
        assert first.theme == "textual-dark"
        first.theme = "textual-light"
        await pilot.pause()
    assert json.loads(state.read_text()) == {"theme": "textual-light"}

    second = app_with_state(state)
    async with second.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert second.theme == "textual-light"


async def test_an_unknown_or_broken_state_file_keeps_the_default_theme(tmp_path: Path) -> None:
    state = tmp_path / "ui.json"
    for content in ('{"theme": "no-such-theme"}', "{not json", '["textual-light"]'):
        state.write_text(content)
        app = app_with_state(state)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.theme == "textual-dark"


async def test_a_state_file_that_cannot_be_written_is_said_once_and_the_theme_still_changes(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    app = app_with_state(blocker / "ui.json")
    async with app.run_test(size=(120, 40)) as pilot:
        app.theme = "nord"
        await pilot.pause()
        assert app.theme == "nord"
        assert any("could not be saved" in str(n.message) for n in app._notifications)


def test_the_state_file_lives_in_the_users_state_directory(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tui.dashboard.startup.ui_state import default_state_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_state_path() == tmp_path / "state" / "wds-tui" / "ui.json"
