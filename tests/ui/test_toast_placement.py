"""Notifications never cover the pane a person is working in: they go on the other half of the screen."""

from __future__ import annotations

import pytest
from textual.widgets._toast import Toast

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tui.dashboard.kit.pane import Pane


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("pane_id", ["crawls", "activity", "usage", "sessions"])
async def test_a_toast_stays_off_the_focused_pane(pane_id: str, size: tuple[int, int]) -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=size, notifications=True) as pilot:
        pane = app.query_one(f"#{pane_id}", Pane)
        await wait_until(pilot, lambda: pane.data is not None, "the pane's data")
        pane.focus_first()
        await pilot.pause()
        for n in range(3):  # a stack of them, as a burst of news makes
            app.notify(
                f"session 1234abcd started, number {n}, with a message long enough to wrap", title="Browser session"
            )
        await wait_until(pilot, lambda: len(app.screen.query(Toast)) == 3, "the toasts")
        await pilot.pause()
        for toast in app.screen.query(Toast):
            assert toast.region.width > 0
            assert not toast.region.overlaps(pane.region), f"a toast covers the focused {pane_id} pane"
