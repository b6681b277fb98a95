"""Pictures of the failed-only view (e) and the triage view (c) of the activity pane at 120x40 and 80x24, seeded.

Update with `pytest tests/ui/test_snapshots_activity.py --snapshot-update` and
look at the new SVGs before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tui.dashboard.features.activity.failed_view import FailedJobsScreen
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.activity.triage import TriageScreen
from tui.dashboard.kit.pane import Pane

SIZES = [(120, 40), (80, 24)]


async def failed_view_searched(pilot: Pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: all(p.data is not None for p in app.query(Pane)), "all panes")
    app.query_one(ActivityPane).focus_first()
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(app.screen, FailedJobsScreen), "the failed view")
    screen = app.screen
    assert isinstance(screen, FailedJobsScreen)
    await wait_until(pilot, lambda: screen._worker is not None and not screen.walking, "the search", 15)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_failed_view_after_its_search(snap_compare, size) -> None:
    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=failed_view_searched)


async def triage_walked(pilot: Pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: all(p.data is not None for p in app.query(Pane)), "all panes")
    app.query_one(ActivityPane).focus_first()
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "the triage view")
    screen = app.screen
    assert isinstance(screen, TriageScreen)
    await wait_until(pilot, lambda: screen.walk.state.finished and not screen.walking, "the walk", 15)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_triage_of_the_day(snap_compare, size) -> None:
    """The seeded day's 11 failures grouped by cause: counts, first and last seen, a sparkline over 24 hours."""
    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=triage_walked)
