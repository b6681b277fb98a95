"""Pictures of the crawls pane with progress and ended crawls, and of a crawl's page full screen, at 120x40 and 80x24.

On a seeded emulator whose manual clock is also the dashboard's, so crawls
progress and ended crawls age as a test moves it. Update with
`pytest tests/ui/test_snapshots_crawls.py --snapshot-update` and look at the
pictures before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import NOW, dashboard, freeze_cursors, seeded_emulator, settle, wait_until
from tui.dashboard.features.crawls.pane import CrawlsPane
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.kit.document import DocumentScreen
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.emulator.core.clock import ManualClock

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


async def loaded(pilot: Pilot) -> None:
    await wait_until(pilot, lambda: all(p.data is not None for p in pilot.app.query(Pane)), "all panes")
    await settle(pilot)


@size_ids
def test_crawls_pane_with_a_running_a_completed_and_a_cancelled_crawl(snap_compare, size) -> None:
    clock = ManualClock(NOW)
    emulator = seeded_emulator(clock=clock)

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        client = pilot.app.client
        await client.crawl.start("https://northwind.dev/", limit=40, max_depth=3)
        await client.crawl.start("https://fernwood.co/", limit=5)
        stopped = await client.crawl.start("https://acme-outdoor.com/", limit=30, include_paths=["/products/.*"])
        pane = pilot.app.query_one(CrawlsPane)
        pane.refresh_data()
        await settle(pilot)
        clock.advance(2)
        await client.crawl.cancel(stopped.id)
        clock.advance(4)  # the small crawl ends; the big one is part way
        pane.refresh_data()
        await settle(pilot)
        assert [str(row.progress.state) for row in pane.tracker.rows if row.progress] == [
            "scraping",
            "completed",
            "cancelled",
        ]
        pane.action_toggle_maximize()
        pane.focus_first()
        await pilot.pause()
        freeze_cursors(pilot.app)
        await pilot.pause()

    app = dashboard(emulator, clock=clock.now)
    assert snap_compare(app, terminal_size=size, run_before=run)


def crawl_to_a_page(url: str, include: list[str], row: int):
    """The dashboard, and a `run_before` that crawls `url` to the end, opens its status and Enter on page `row`."""
    clock = ManualClock(NOW)

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        app = pilot.app
        started = await app.client.crawl.start(url, limit=8, include_paths=include)
        clock.advance(3600)
        app.push_screen(CrawlStatusScreen(app.client, started.id, url=url, clock=app.clock))
        await wait_until(pilot, lambda: app.screen.status is not None, "the crawl's status")
        await pilot.pause()
        pages = app.screen.query_one("#crawl-pages", LiveTable)
        pages.focus()
        pages.move_cursor(row=row)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DocumentScreen), "the document")
        await pilot.pause()

    return dashboard(seeded_emulator(clock=clock), clock=clock.now), run


@size_ids
def test_document_of_a_page_that_answered_500(snap_compare, size) -> None:
    app, run = crawl_to_a_page("https://lumen-labs.io/", ["/status.*"], row=1)
    assert snap_compare(app, terminal_size=size, run_before=run)


@size_ids
def test_document_of_a_page(snap_compare, size) -> None:
    app, run = crawl_to_a_page("https://northwind.dev/", [], row=0)
    assert snap_compare(app, terminal_size=size, run_before=run)
