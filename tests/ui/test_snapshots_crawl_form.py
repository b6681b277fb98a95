"""Pictures of the "Start a crawl" form at 120x40 and 80x24: filled from a preview, and with a value out of its limits.

Update after an intended change with
`pytest tests/ui/test_snapshots_crawl_form.py --snapshot-update` and look at the report first.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.support.dashboard import dashboard, freeze_cursors, seeded_emulator, settle, wait_until
from tui.dashboard.features.crawls.form import CrawlFormScreen

SIZES = [(120, 40), (80, 24)]


async def previewed(pilot: Pilot) -> CrawlFormScreen:
    await settle(pilot)
    await pilot.press("C")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CrawlFormScreen), "the crawl form")
    screen = pilot.app.screen
    assert isinstance(screen, CrawlFormScreen)
    screen.query_one("#param-url", Input).value = "https://northwind.dev"
    screen.query_one("#prompt", TextArea).text = "only the blog, up to 50 pages, depth 2"
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: bool(screen.query_one("#param-limit", Input).value), "the preview")
    await pilot.pause()
    return screen


async def still(pilot: Pilot) -> None:
    freeze_cursors(pilot.app)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_crawl_form_filled_from_a_preview(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        await previewed(pilot)
        await still(pilot)

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_crawl_form_with_a_value_out_of_its_limits(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        screen = await previewed(pilot)
        screen.query_one("#param-limit", Input).value = "0"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.query_one("#param-limit-error").display, "the error")
        await pilot.pause()
        await still(pilot)

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)
