"""The active crawls pane and the crawl status screen, on an in-process emulator with a manual clock."""

from __future__ import annotations

import uuid

import pytest
from textual.widgets import Label, ProgressBar, Static

from tests.support.dashboard import (
    LOCAL_NOW,
    NOW,
    PaneHost,
    SwitchableTransport,
    frozen_clock,
    seeded_emulator,
    wait_until,
)
from tui.api.client import WdsClient
from tui.contract.models import ActiveCrawl
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.dashboard.features.crawls.rows import options_summary
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.kit.pane import PaneStatus
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: the crawls on screen are the ones each test starts.
    return seeded_emulator(seed=5, clock=clock, history=False)


def crawls_pane(client: WdsClient) -> CrawlsPane:
    """The crawls pane as the tests host it: refreshed by hand."""
    return CrawlsPane(client, interval=3600, clock=frozen_clock(NOW), id="crawls")


def crawls_host(client: WdsClient) -> PaneHost:
    """The crawls pane alone, styled by the dashboard's stylesheet; the status screens it opens follow quickly."""
    navigator = Navigator(client, clock=frozen_clock(NOW), crawl_poll_seconds=0.05)
    return PaneHost(lambda: crawls_pane(client), navigator=navigator)


def text_of(widget: Static) -> str:
    return str(widget.content)


def cells(table: LiveTable, key: str) -> list[str]:
    return [str(cell) for cell in table.get_row(key)]


def test_options_summary_is_compact_and_reads_wire_names() -> None:
    crawl = ActiveCrawl.model_validate(
        {
            "id": str(uuid.uuid4()),
            "url": "https://example.org/",
            "options": {
                "limit": 50,
                "maxDepth": 2,
                "includePaths": ["/blog/.*"],
                "excludePaths": ["/tag/.*", "/page/.*"],
                "scrapeOptions": {"formats": ["markdown", {"type": "json", "schema": {}}]},
            },
        }
    )
    assert options_summary(crawl.options) == "limit 50 · depth 2 · +/blog/.* · -/tag/.*,/page/.* · markdown,json"
    bare = ActiveCrawl.model_validate({"id": str(uuid.uuid4()), "url": "https://example.org/"})
    assert options_summary(bare.options) == "defaults"


async def test_no_crawls_says_so(client: WdsClient) -> None:
    app = crawls_host(client)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(CrawlsPane)
        await wait_until(pilot, lambda: pane.data is not None, "the first fetch")
        await pilot.pause()
        assert pane.data == ()
        empty = pane.query_one("#crawls-empty", Static)
        assert empty.display and text_of(empty) == "No crawls running"
        table = pane.query_one(CrawlTable)
        # The table stays, empty, with its headers: it keeps the pane's keys reachable.
        assert table.row_count == 0 and table.has_class("-empty")
        assert pane.check_action("open_selected", ()) is None


async def test_a_started_crawl_is_listed_and_its_status_followed_to_the_end(
    client: WdsClient, clock: ManualClock, transport: SwitchableTransport
) -> None:
    started = await client.crawl.start(
        "https://acme-outdoor.com/", limit=12, max_depth=3, scrape_options={"formats": ["markdown"]}
    )
    app = crawls_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        table = pane.query_one(CrawlTable)
        await wait_until(pilot, lambda: started.id in table.row_keys, "the crawl's row")
        short, progress, url, when, options = cells(table, started.id)
        assert short == started.id[:8]
        assert progress == "◌ 0/12 ▱▱▱▱▱▱"
        assert url == "acme-outdoor.com/"
        assert when == LOCAL_NOW
        assert options == "limit 12 · depth 3 · markdown"
        assert not pane.query_one("#crawls-empty", Static).display

        clock.advance(3)  # part of the crawl is done
        table.focus()
        table.move_cursor(row=table.get_row_index(started.id))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CrawlStatusScreen), "the status screen")
        screen = app.screen
        assert isinstance(screen, CrawlStatusScreen)
        await wait_until(pilot, lambda: screen.status is not None, "the crawl status")
        running = screen.status
        assert running is not None and str(running.status) == "scraping"
        assert 0 < running.completed < running.total
        await pilot.pause()
        assert text_of(screen.query_one("#crawl-status", Label)) == "scraping"
        assert text_of(screen.query_one("#crawl-counts", Label)) == f"{running.completed} / {running.total}"
        bar = screen.query_one("#crawl-progress", ProgressBar)
        assert bar.display and bar.total == running.total and bar.progress == running.completed

        clock.advance(3600)  # the crawl finishes; the screen notices by itself
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        done = screen.status
        assert done is not None and str(done.status) == "completed"
        assert text_of(screen.query_one("#crawl-status", Label)) == "completed"
        assert bar.progress == bar.total == done.total
        pages = screen.query_one("#crawl-pages", LiveTable)
        assert pages.row_count == len(done.data) > 0
        first = done.data[0].metadata
        assert [str(c) for c in pages.get_row_at(0)] == [str(first.status_code), first.url, first.title]

        # A finished crawl is not polled any more.
        status_path = f"/v2/crawl/{started.id}"
        polls = transport.paths.count(status_path)
        await pilot.pause(0.15)  # three poll intervals: a poll still going would have been sent
        assert transport.paths.count(status_path) == polls

        await pilot.press("escape")
        assert not isinstance(app.screen, CrawlStatusScreen)


async def test_an_unknown_crawl_is_a_clear_message(client: WdsClient, transport: SwitchableTransport) -> None:
    app = crawls_host(client)
    async with app.run_test(size=(80, 24)) as pilot:
        missing = str(uuid.uuid4())
        screen = CrawlStatusScreen(client, missing, interval=0.05)
        await app.push_screen(screen)
        error = screen.query_one("#crawl-error", Static)
        await wait_until(pilot, lambda: bool(error.display), "the error line")
        assert f"Crawl {missing[:8]} was not found on the service" in text_of(error)
        assert text_of(screen.query_one("#crawl-status", Label)) == "unknown"
        asked = transport.paths.count(f"/v2/crawl/{missing}")
        await pilot.pause(0.15)  # three poll intervals, as above
        assert transport.paths.count(f"/v2/crawl/{missing}") == asked == 1  # a missing job is not polled


async def test_a_failed_fetch_keeps_rows_and_marks_them_stale(
    client: WdsClient, transport: SwitchableTransport
) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=5)
    app = crawls_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        table = pane.query_one(CrawlTable)
        await wait_until(pilot, lambda: started.id in table.row_keys, "the crawl's row")
        transport.failing = True
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.stale_since is not None, "the stale mark")
        await pilot.pause()
        assert table.row_keys == [started.id]
        status = pane.query_one(PaneStatus)
        assert status.display and f"stale since {LOCAL_NOW}" in text_of(status)
        assert "Service unavailable" in text_of(status)


async def test_status_screen_keeps_data_when_a_poll_fails(
    client: WdsClient, clock: ManualClock, transport: SwitchableTransport
) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=12)
    clock.advance(3)
    app = crawls_host(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = CrawlStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the crawl status")
        shown = screen.query_one("#crawl-pages", LiveTable).row_keys
        transport.failing = True
        error = screen.query_one("#crawl-error", Static)
        await wait_until(pilot, lambda: bool(error.display), "the error line")
        assert "Service unavailable" in text_of(error) and f"stale since {LOCAL_NOW}" in text_of(error)
        assert screen.query_one("#crawl-pages", LiveTable).row_keys == shown
        transport.failing = False  # polling carries on, and recovers
        await wait_until(pilot, lambda: not error.display, "recovery")
