"""The main screen without colour (NO_COLOR) and in a light theme, at 120x40.

NO_COLOR: Textual reads (and removes) the variable when the app is built, and
then draws in greys; the focused pane must still show (a heavy border), the
cursor row must not read as a header (reversed), and statuses carry symbols.
Light theme: every status and the header's "● connected" stay readable.
Update with `pytest tests/ui/test_snapshots_colours.py --snapshot-update`.
"""

from __future__ import annotations

import pytest

from tests.support.dashboard import dashboard, seeded_emulator
from tests.ui.test_snapshots import all_panes_loaded
from tui.dashboard.features.activity.pane import ActivityPane


async def activity_focused(pilot) -> None:
    await all_panes_loaded(pilot)
    pilot.app.query_one(ActivityPane).focus_first()  # a cursor row under the header
    await pilot.pause()


def test_main_screen_with_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")  # before the app is built: that is when Textual reads it
    app = dashboard(seeded_emulator())
    assert app.no_color
    assert snap_compare(app, terminal_size=(120, 40), run_before=activity_focused)


def test_main_screen_in_the_light_theme(snap_compare) -> None:
    app = dashboard(seeded_emulator())
    app.theme = "textual-light"
    assert snap_compare(app, terminal_size=(120, 40), run_before=activity_focused)
