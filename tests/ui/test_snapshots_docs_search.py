"""Pictures of the docs search screen at 120x40 and 80x24: results for a question, and one result read in full.

On the seeded emulator with a frozen clock; its docs search is timed by a
clock that does not move, so the "in 0 ms" of the status line is the same in
every run. Update after an intended change with `--snapshot-update` and look
at the pictures before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import dashboard, freeze_cursors, seeded_emulator, wait_until
from tui.dashboard.features.support.docs_search import DocsSearchScreen
from tui.dashboard.kit.pane import Pane
from tui.emulator.service import Emulator

SIZES = [(120, 40), (80, 24)]
QUESTION = "how long is a scrape cached"


def still_emulator() -> Emulator:
    emulator = seeded_emulator()
    emulator.support.timer = lambda: 0.0  # durationMs 0 in every run
    return emulator


async def search(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: all(p.data is not None for p in pilot.app.query(Pane)), "all panes")
    await pilot.press("slash")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DocsSearchScreen), "the docs search screen")
    screen = pilot.app.screen
    assert isinstance(screen, DocsSearchScreen)
    await pilot.press(*QUESTION, "enter")
    await wait_until(pilot, lambda: screen.memory.answered == QUESTION and screen.searching is None, "the results")
    await pilot.press("down", "down")  # to the results, the first source highlighted
    freeze_cursors(pilot.app)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_docs_search_with_results(snap_compare, size) -> None:
    assert snap_compare(dashboard(still_emulator()), terminal_size=size, run_before=search)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_docs_search_result_opened(snap_compare, size) -> None:
    async def open_first_source(pilot: Pilot) -> None:
        await search(pilot)
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(dashboard(still_emulator()), terminal_size=size, run_before=open_first_source)
