"""News pushed over a crawl's socket redraws the crawls pane, but is not a poll.

A push tells of one crawl, and not that the service answers calls: while
the connection banner shows, it must not bring the panes back online; over
stale data, it must not make the pane, or the header's "updated", look fresh.
The whole dashboard runs over the in-process emulator; the push is handed to
the pane as its live follower hands it (`CrawlsPane.show_pushed`).
"""

from __future__ import annotations

import httpx
from textual.pilot import Pilot

from tests.support.dashboard import SwitchableTransport, client_on, dashboard, settle, wait_until
from tui.dashboard.connection.banner import ConnectionBanner
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.dashboard.features.crawls.tracker import Progress
from tui.dashboard.kit.pane import Pane, PaneStatus
from tui.dashboard.kit.widgets.status_header import StatusHeader
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


class Outage(httpx.AsyncBaseTransport):
    """The emulator, or while `down`, nothing listening."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.down = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        return await self.inner.handle_async_request(request)


def pages(pane: CrawlsPane, crawl_id: str) -> str:
    return str(pane.query_one(CrawlTable).get_row(crawl_id)[1])


def status_line(pane: Pane) -> str:
    line = pane.query_one(PaneStatus)
    return str(line.render()) if line.display else ""


def push(pane: CrawlsPane, crawl_id: str, completed: int, total: int, clock: ManualClock) -> None:
    """What the pane's live follower does with a pushed status: into the tracker, then drawn."""
    pane.tracker.record(crawl_id, Progress("scraping", completed, total), clock.now())
    pane.show_pushed(pane.tracker.rows)


async def crawl_on_screen(pilot: Pilot, transport: httpx.AsyncBaseTransport) -> tuple[CrawlsPane, str]:
    crawl_id = (await client_on(transport).crawl.start("https://acme-outdoor.com/", limit=8)).id
    pane = pilot.app.query_one(CrawlsPane)
    pane.refresh_data()
    await wait_until(pilot, lambda: pane.data is not None and crawl_id in pane.query_one(CrawlTable).row_keys, "it")
    await settle(pilot)
    return pane, crawl_id


async def test_a_push_while_the_service_is_unreachable_leaves_the_banner_and_the_panes_held(
    emulator: Emulator, clock: ManualClock, transport: SwitchableTransport
) -> None:
    outage = Outage(transport)
    app = dashboard(emulator, outage, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane, crawl_id = await crawl_on_screen(pilot, outage)
        outage.down = True
        pane.refresh_data()
        banner = app.query_one(ConnectionBanner)
        await wait_until(pilot, lambda: banner.showing, "the banner", 15)
        last_success, header_updated = pane.last_success, app.query_one(StatusHeader).last_refresh
        clock.advance(30)
        push(pane, crawl_id, 3, 8, clock)
        await pilot.pause(0.2)
        assert banner.showing and all(p.held for p in app.query(Pane))  # still lost: the banner alone retries
        assert pane.last_success == last_success and pane.stale_since is not None
        assert app.query_one(StatusHeader).last_refresh == header_updated
        # Held: not drawn, but kept in the pane's memory for its next fetch.
        assert pages(pane, crawl_id).startswith("◌ 0/8")
        tracked = pane.tracker.get(crawl_id)
        assert tracked is not None and tracked.progress == Progress("scraping", 3, 8)


async def test_a_push_over_stale_data_redraws_its_row_but_the_pane_stays_marked_stale(
    emulator: Emulator, clock: ManualClock, transport: SwitchableTransport
) -> None:
    app = dashboard(emulator, transport, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane, crawl_id = await crawl_on_screen(pilot, transport)
        transport.failing = True  # 503: the pane's fetch fails, the service is not lost
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.stale_since is not None, "the stale mark")
        stale, last_success = status_line(pane), pane.last_success
        header_updated = app.query_one(StatusHeader).last_refresh
        clock.advance(30)
        push(pane, crawl_id, 3, 8, clock)
        await pilot.pause(0.2)
        assert pages(pane, crawl_id).startswith("◌ 3/8")  # the pushed row is drawn at once
        assert status_line(pane) == stale and stale.startswith("⚠ stale since")
        assert pane.last_success == last_success
        assert app.query_one(StatusHeader).last_refresh == header_updated
