"""The footer's first keys are the ones a person needs at 80 columns: quit, help, then the focused pane's own."""

from __future__ import annotations

import pytest

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.footer_key import FooterKey


def footer_keys(app) -> list[str]:
    footer = app.screen.query_one(Footer)
    return [key.key for key in footer.query(FooterKey) if "-command-palette" not in key.classes]


@pytest.mark.parametrize(
    ("pane_id", "own_first"), [("activity", "enter"), ("sessions", "s"), ("usage", "k"), ("crawls", "r")]
)
async def test_quit_help_and_the_focused_panes_keys_come_first(pane_id: str, own_first: str) -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(f"#{pane_id}", Pane)
        await wait_until(pilot, lambda: pane.data is not None, "the pane's data")
        pane.focus_first()
        await pilot.pause()
        await pilot.pause()
        keys = footer_keys(app)
        assert keys[:3] == ["q", "question_mark", own_first], keys
        own = [index for index, key in enumerate(keys) if key not in ("q", "question_mark", "r", "p", "z")]
        # At 80 columns the shared keys may be left out (they do not fit); those shown come after the pane's own.
        shared = [index for index, key in enumerate(keys) if key in ("r", "p", "z")]
        assert all(o < s for o in own for s in shared), "the keys every pane shares come after the pane's own"
        footer = app.screen.query_one(Footer)
        shown = [key for key in footer.query(FooterKey)][:3]
        assert all(key.region.right <= 80 for key in shown), "quit, help and the first own key are on screen"
        assert "Help" in str(shown[1].render()) and "the keys" not in str(shown[1].render())
