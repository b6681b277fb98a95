"""Pictures of the batch scrape form (B) and of a finished batch's status, at 120x40 and 80x24.

Update after an intended change with
`pytest tests/ui/test_snapshots_batch.py --snapshot-update` and look at the
pictures (`python3 /work/svgtext.py FILE.svg`) before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import NOW, dashboard, freeze_cursors, seeded_emulator, wait_until
from tui.dashboard.features.batch.form import BatchFormScreen
from tui.dashboard.features.batch.status import BatchStatusScreen
from tui.dashboard.shell.intents import OpenBatch, OpenBatchForm
from tui.emulator.core.clock import ManualClock

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
SELECTED = (
    "https://bigbox-supply.com/",
    "https://bigbox-supply.com/about",
    "https://bigbox-supply.com/products",
    "https://example.com/blog",
)


async def show_form(pilot: Pilot, urls: tuple[str, ...]) -> None:
    await pilot.pause()
    pilot.app.post_message(OpenBatchForm(urls=urls))
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, BatchFormScreen), "the batch form")
    await pilot.pause()
    freeze_cursors(pilot.app)
    await pilot.pause()


@size_ids
def test_the_empty_form(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        await show_form(pilot, ())

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)


@size_ids
def test_the_form_filled_from_a_map_selection(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        await show_form(pilot, SELECTED)

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)


@size_ids
def test_a_finished_batch_with_a_failed_url_and_an_invalid_one(snap_compare, size) -> None:
    clock = ManualClock(NOW)
    app = dashboard(seeded_emulator(clock=clock))

    async def run(pilot: Pilot) -> None:
        await pilot.pause()
        started = await app.client.batch.create([*SELECTED, "https://bigbox-supply.com/products/item-3", "not a url"])
        clock.advance(3600)
        app.post_message(OpenBatch(started.id, tuple(started.invalid_urls or ())))
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch's status")
        screen = app.screen
        assert isinstance(screen, BatchStatusScreen)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)
