"""Pictures of what the user sees, at 120x40 and 80x24, on a seeded emulator with a frozen clock.

Update after an intended change with `pytest tests/ui/test_snapshots.py --snapshot-update`
and look at the report before committing the new SVGs.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import SwitchableTransport, dashboard, freeze_cursors, seeded_emulator, wait_until
from tui.panes.base import Pane

SIZES = [(120, 40), (80, 24)]


async def all_panes_loaded(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: all(p.data is not None for p in pilot.app.query(Pane)), "all panes")
    await pilot.pause()
    freeze_cursors(pilot.app)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen(snap_compare, size) -> None:
    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=all_panes_loaded)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen_with_a_failing_service_keeps_data_and_marks_it_stale(snap_compare, size) -> None:
    emulator = seeded_emulator()
    transport = SwitchableTransport(emulator)

    async def fail_then_refresh(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        transport.failing = True
        for pane in pilot.app.query(Pane):
            pane.refresh_data()
        await wait_until(pilot, lambda: all(p.stale_since for p in pilot.app.query(Pane)), "stale marks")
        await pilot.pause()

    app = dashboard(emulator, transport)
    assert snap_compare(app, terminal_size=size, run_before=fail_then_refresh)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_usage_pane_maximised(snap_compare, size) -> None:
    async def zoom(pilot: Pilot) -> None:
        await all_panes_loaded(pilot)
        pilot.app.query_one("#usage", Pane).action_toggle_maximize()
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=zoom)
