"""Pictures of the "Scrape a URL" screen (S) at 120x40 and 80x24: a field refused before sending, and a page scraped.

Update after an intended change with
`pytest tests/ui/test_snapshots_scrape.py --snapshot-update` and look at the
pictures before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.support.dashboard import dashboard, freeze_cursors, seeded_emulator, wait_until
from tui.dashboard.features.scrape.form import ScrapeFormScreen

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


async def open_form(pilot: Pilot) -> ScrapeFormScreen:
    await pilot.pause()
    await pilot.press("S")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ScrapeFormScreen), "the scrape form")
    form = pilot.app.screen
    assert isinstance(form, ScrapeFormScreen)
    return form


@size_ids
def test_the_form_with_a_value_out_of_its_limits(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        form = await open_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/blog"
        form.query_one("#timeout", Input).value = "500"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.query_one("#timeout-error").display, "the field's error")
        freeze_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)


@size_ids
def test_a_page_scraped(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        form = await open_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/blog"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.result is not None, "the scraped page")
        await pilot.pause()
        freeze_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)
