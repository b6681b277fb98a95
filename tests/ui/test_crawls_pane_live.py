"""Issue 21: the Active crawls pane follows its first running crawls over the WebSocket; the rest are polled.

The emulator runs on uvicorn in the test's loop on a manual clock; the pane
polls once an hour, so progress that reaches it after its first poll came
over the socket. The client records every HTTP request it sends.
"""

from __future__ import annotations

import pytest

from tests.support.crawl_sockets import recorded_client, served_without_socket
from tests.support.dashboard import KEY, NOW, PaneHost, frozen_clock, seeded_emulator, wait_until
from tui.api.client import WdsClient
from tui.dashboard.features.crawls.live_crawls import LIVE_LIMIT
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.dashboard.features.crawls.tracker import TrackedJob
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import running
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

WAIT = 10.0


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    return seeded_emulator(seed=5, clock=clock, history=False)


def pane_host(client: WdsClient) -> PaneHost:
    return PaneHost(lambda: CrawlsPane(client, interval=3600, clock=frozen_clock(NOW), id="crawls"))


def pages_cell(pane: CrawlsPane, crawl_id: str) -> str:
    table = pane.query_one(CrawlTable)
    return str(table.get_row(crawl_id)[1]) if crawl_id in table.row_keys else ""


def pushed_pages(pane: CrawlsPane, crawl_id: str) -> int:
    status = pane.live.latest(crawl_id)
    return status.completed if status is not None else -1


async def test_the_pane_shows_progress_pushed_over_the_socket(emulator: Emulator, clock: ManualClock) -> None:
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        crawl_id = (await client.crawl.start("https://acme-outdoor.com/", limit=8)).id
        app = pane_host(client)
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(CrawlsPane)
            await wait_until(pilot, lambda: pane.live.latest(crawl_id) is not None, "the catch-up", WAIT)
            assert pane.live.following == {crawl_id}
            clock.advance(1)
            await wait_until(pilot, lambda: pages_cell(pane, crawl_id).startswith("◌ 2/8"), "2 of 8 pushed", WAIT)
            clock.advance(3600)
            await wait_until(pilot, lambda: pages_cell(pane, crawl_id) == "✓ completed 8/8", "the end pushed", WAIT)
            assert pane.live.following == frozenset()
    assert recorded.count("GET /v2/crawl/active") == 1  # one poll; the rest came over the socket
    # Asked by that poll, before the socket's catch-up; then once for the final status, as the SDKs do.
    assert recorded.count(f"GET /v2/crawl/{crawl_id}") == 2


async def test_at_most_four_crawls_are_followed_live_and_the_rest_are_polled(emulator: Emulator) -> None:
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        ids = [(await client.crawl.start(f"https://site-{n}.test/", limit=50)).id for n in range(LIVE_LIMIT + 2)]
        app = pane_host(client)
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(CrawlsPane)
            await wait_until(pilot, lambda: len(pane.live.following) == LIVE_LIMIT, "the followers", WAIT)
            live = pane.live.following
            await wait_until(pilot, lambda: all(pane.live.latest(i) is not None for i in live), "catch-ups", WAIT)
            before = {crawl_id: recorded.count(f"GET /v2/crawl/{crawl_id}") for crawl_id in ids}
            pane.refresh_data()
            await wait_until(pilot, lambda: recorded.count("GET /v2/crawl/active") == 2, "a second poll", WAIT)
            await wait_until(pilot, lambda: not pane.fetching, "its answer", WAIT)
            asked = {crawl_id: recorded.count(f"GET /v2/crawl/{crawl_id}") - before[crawl_id] for crawl_id in ids}
            assert {crawl_id: asked[crawl_id] for crawl_id in live} == dict.fromkeys(live, 0)
            assert [asked[crawl_id] for crawl_id in ids if crawl_id not in live] == [1, 1]
            assert pane.live.following == live


async def test_a_service_without_the_socket_is_not_asked_again(emulator: Emulator) -> None:
    upgrades: list[str] = []
    async with (
        served_without_socket(emulator, upgrades) as base_url,
        recorded_client(base_url, KEY) as (client, recorded),
    ):
        crawl_id = (await client.crawl.start("https://acme-outdoor.com/", limit=50)).id
        other_id = (await client.crawl.start("https://northwind.dev/", limit=50)).id
        app = pane_host(client)
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(CrawlsPane)
            await wait_until(pilot, lambda: not pane.live.offered, "no socket learnt", WAIT)
            assert pane.live.following == frozenset()
            pane.refresh_data()
            await wait_until(pilot, lambda: recorded.count("GET /v2/crawl/active") == 2, "a second poll", WAIT)
            await wait_until(pilot, lambda: not pane.fetching, "its answer", WAIT)
            assert pane.live.following == frozenset() and pages_cell(pane, crawl_id).startswith("◌ 0/50")
        assert recorded.count(f"GET /v2/crawl/{crawl_id}") == 2  # polled at each poll
    # Both crawls were tried at the first poll (their sockets run side by side); none after.
    assert sorted(upgrades) == sorted(f"/v2/crawl/{i}" for i in (crawl_id, other_id))


async def test_a_paused_pane_keeps_pushed_news_and_shows_it_when_resumed(
    emulator: Emulator, clock: ManualClock
) -> None:
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, _):
        crawl_id = (await client.crawl.start("https://acme-outdoor.com/", limit=8)).id
        app = pane_host(client)
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(CrawlsPane)
            await wait_until(pilot, lambda: pages_cell(pane, crawl_id).startswith("◌ 0/8"), "the first row", WAIT)
            pane.toggle_pause()
            clock.advance(1)
            await wait_until(pilot, lambda: pushed_pages(pane, crawl_id) == 2, "2 pages pushed", WAIT)
            await pilot.pause(0.2)
            assert pages_cell(pane, crawl_id).startswith("◌ 0/8")  # paused: not redrawn
            pane.toggle_pause()
            await wait_until(pilot, lambda: pages_cell(pane, crawl_id).startswith("◌ 2/8"), "shown on resume", WAIT)


class PushBreaks(CrawlsPane):
    """A pane whose drawing of a push fails: a bug of ours on the live path."""

    def show_pushed(self, data: tuple[TrackedJob, ...]) -> bool:
        raise RuntimeError("drawing a push failed")


async def test_a_follower_that_fails_unexpectedly_lets_its_crawl_go_to_polling(emulator: Emulator) -> None:
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        crawl_id = (await client.crawl.start("https://acme-outdoor.com/", limit=50)).id
        app = PaneHost(lambda: PushBreaks(client, interval=3600, clock=frozen_clock(NOW), id="crawls"))
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(CrawlsPane)
            # Followed from the first fetch on (it fails at once: too soon to be sure to see it).
            gone = lambda: pane.data is not None and pane.live.following == frozenset()  # noqa: E731
            await wait_until(pilot, gone, "the follower gone", WAIT)
            assert pane.live.latest(crawl_id) is None
            pane.refresh_data()
            await wait_until(pilot, lambda: recorded.count("GET /v2/crawl/active") == 2, "a second poll", WAIT)
            await wait_until(pilot, lambda: not pane.fetching, "its answer", WAIT)
            assert pane.live.following == frozenset()  # polled from now on, as after any give-up
            assert recorded.count(f"GET /v2/crawl/{crawl_id}") == 2
