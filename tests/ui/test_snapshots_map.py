"""Pictures of the map explorer (M) at 120x40 and 80x24: the form before mapping, and links filtered with a selection.

Update after an intended change with
`pytest tests/ui/test_snapshots_map.py --snapshot-update` and look at the
pictures before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.support.dashboard import dashboard, freeze_cursors, seeded_emulator, wait_until
from tui.dashboard.features.map.explorer import MapExplorerScreen

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


async def open_explorer(pilot: Pilot) -> MapExplorerScreen:
    await pilot.pause()
    await pilot.press("M")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MapExplorerScreen), "the map explorer")
    screen = pilot.app.screen
    assert isinstance(screen, MapExplorerScreen)
    return screen


@size_ids
def test_the_form_before_mapping(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        screen = await open_explorer(pilot)
        screen.query_one("#url", Input).value = "https://harbour-books.com"
        freeze_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)


@size_ids
def test_links_filtered_with_a_selection(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        screen = await open_explorer(pilot)
        screen.query_one("#url", Input).value = "https://harbour-books.com"
        screen.query_one("#limit", Input).value = "500"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.links is not None, "the links")
        await pilot.pause()
        await pilot.press("slash", *"archive", "enter", "down", "space", "shift+down", "shift+down")
        freeze_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)
