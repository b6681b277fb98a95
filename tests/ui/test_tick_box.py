"""Checkboxes read ticked or not without colour: `▐X▌` on, `▐ ▌` off (NO_COLOR, monochrome logs)."""

from __future__ import annotations

import re
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Checkbox

from tui.dashboard.kit.widgets.tick_box import TickBox

SOURCE = Path(__file__).parents[2] / "tui"


class Boxes(App[None]):
    def compose(self) -> ComposeResult:
        yield TickBox("on", True, id="on")
        yield TickBox("off", False, id="off")


async def test_ticked_and_unticked_differ_in_their_glyphs_not_only_in_colour() -> None:
    app = Boxes()
    async with app.run_test(size=(40, 5)) as pilot:
        on, off = app.query_one("#on", Checkbox), app.query_one("#off", Checkbox)
        assert on.render().plain.startswith("▐X▌") and off.render().plain.startswith("▐ ▌")
        await pilot.click("#off")
        await pilot.pause()
        assert off.value and off.render().plain.startswith("▐X▌")
        on.toggle()
        await pilot.pause()
        assert not on.value and on.render().plain.startswith("▐ ▌")


def test_every_checkbox_of_the_dashboard_is_a_tick_box() -> None:
    plain = [
        f"{path.relative_to(SOURCE)}:{number}"
        for path in SOURCE.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bCheckbox\(", line)
    ]
    assert plain == []
