"""A refused key (401): tries slow down to once a minute, and another key can be typed for this run (and saved)."""

from __future__ import annotations

import stat
import tomllib
from dataclasses import replace
from pathlib import Path

from textual.widgets import Checkbox, Input, Static

from tests.support.dashboard import KEY, dashboard, seeded_emulator, wait_until
from tui.dashboard.connection.problem_screen import REFUSED_KEY_LONGEST_WAIT, ConnectionProblemScreen
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.kit.pane import Pane

WRONG = "wds-" + "0" * 32


def refused_dashboard(config: Path | None = None):  # type: ignore[no-untyped-def]
    app = dashboard(seeded_emulator(), key=WRONG)
    app.service = replace(app.service, embedded=False, config_path=config, context="prod")
    return app


async def problem_screen(pilot) -> ConnectionProblemScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    await wait_until(
        pilot,
        lambda: isinstance(app.screen, ConnectionProblemScreen) and bool(app.screen.query("#new-key")),
        "the problem screen",
    )
    await pilot.pause()
    return app.screen


def note(screen: ConnectionProblemScreen) -> str:
    return str(screen.query_one("#new-key-note", Static).render())


async def test_another_key_typed_replaces_the_refused_one_and_is_never_shown() -> None:
    app = refused_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await problem_screen(pilot)
        field = screen.query_one("#new-key", Input)
        assert field.display and field.password
        screen.set_focus(field)
        await pilot.press(*WRONG.replace("0", "1"), "enter")
        await wait_until(pilot, lambda: "refused that key too" in note(screen), "the second refusal")
        field.value = ""
        await pilot.press(*KEY, "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, ConnectionProblemScreen), "the screen gone")
        await wait_until(pilot, lambda: all(p.data is not None for p in app.query(Pane)), "the panes' data", 10)
        header = str(app.header.render())
        assert KEY[-4:] in header and KEY not in header
        assert app.client.api_key_hint.endswith(KEY[-4:])


async def test_the_key_is_saved_to_the_config_file_only_after_a_yes(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        'current = "prod"\n# my note\n[contexts.prod]\nbase_url = "http://127.0.0.1:3002"\napi_key = "old"\n'
    )
    app = refused_dashboard(config)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await problem_screen(pilot)
        screen.query_one("#save-key", Checkbox).value = True
        screen.query_one("#new-key", Input).value = KEY
        screen.set_focus(screen.query_one("#new-key", Input))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        assert "old" in config.read_text()  # nothing written before the yes
        await pilot.press("y")
        await wait_until(pilot, lambda: "old" not in config.read_text(), "the key saved")
    assert tomllib.loads(config.read_text())["contexts"]["prod"]["api_key"] == KEY
    assert "# my note" in config.read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o600


async def test_a_refused_key_is_tried_less_and_less_often() -> None:
    app = refused_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await problem_screen(pilot)
        waits = []
        for _ in range(6):
            screen.fetch_failed(screen.error)
            waits.append(screen.interval)
        assert waits == [10, 20, 40, 60, 60, 60] and REFUSED_KEY_LONGEST_WAIT == 60
        assert "at most every 60 s" in str(screen.query_one("#problem-retry", Static).render())
