"""Issue 21: the crawl status screen follows a crawl live over the WebSocket where the service offers it.

The emulator runs on uvicorn in the test's loop (a real socket, a manual
clock); the client sends through an httpx pool that records every request,
so a test can tell a live screen (no status polls: one `GET /v2/crawl/{id}`
for the final status, as the SDKs ask it) from a polling one. Without the
socket (the same emulator less its WebSocket route) the screen polls and says
why.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Label, Static

from tests.support.crawl_sockets import recorded_client, served_without_socket
from tests.support.dashboard import KEY, NOW, PaneHost, frozen_clock, seeded_emulator, wait_until
from tui.api.backoff import Backoff
from tui.api.client import WdsClient
from tui.dashboard.features.crawls.live_follow import Reconnects
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import running
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

POLL = 0.05  # what the screen would poll at: dozens of requests in the time a live crawl takes here
WAIT = 10.0


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    return seeded_emulator(seed=5, clock=clock, history=False)


def follow_text(screen: CrawlStatusScreen) -> str:
    return str(screen.query_one("#crawl-follow", Label).render())


async def open_status(pilot: Any, client: WdsClient, crawl_id: str, **options: Any) -> CrawlStatusScreen:
    screen = CrawlStatusScreen(client, crawl_id, clock=frozen_clock(NOW), interval=POLL, **options)
    await pilot.app.push_screen(screen)
    return screen


def completed(screen: CrawlStatusScreen) -> int:
    return screen.status.completed if screen.status is not None else -1


async def test_the_status_screen_follows_a_crawl_live_to_completed_without_polling(
    emulator: Emulator, clock: ManualClock
) -> None:
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        started = await client.crawl.start("https://acme-outdoor.com/", limit=8)
        status_path = f"GET /v2/crawl/{started.id}"
        clock.advance(1)  # two pages scraped before the screen opens
        app = PaneHost(lambda: Static(""))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_status(pilot, client, started.id)
            await wait_until(pilot, lambda: completed(screen) == 2, "the catch-up", WAIT)
            assert screen.following.mode == "live"
            assert follow_text(screen).startswith("● live")

            for pages in (3, 4, 5):  # each page on screen as the emulator's clock reaches it
                clock.advance(0.5)
                await wait_until(pilot, lambda pages=pages: completed(screen) == pages, f"page {pages}", WAIT)
                assert screen.status is not None and len(screen.status.data) == pages
                # What the pages pushed cost is not said: the catch-up's credits, as a floor.
                assert screen.query_one("#crawl-credits", Label).render().plain == "≥ 2"  # type: ignore[union-attr]

            clock.advance(3600)
            await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end", WAIT)
            await wait_until(pilot, lambda: screen.following.mode == "ended", "the end said", WAIT)
            assert screen.query_one("#crawl-status", Label).render().plain == "completed"  # type: ignore[union-attr]
            assert follow_text(screen) == "● followed live to its end"
            final = f"{screen.status.credits_used:,}"
            assert screen.query_one("#crawl-credits", Label).render().plain == final  # type: ignore[union-attr]
            await pilot.pause(10 * POLL)  # ten poll intervals: a polling screen would have asked ten times
    # The final status, asked once when the socket closed as done; no status was polled.
    assert recorded.count(status_path) == 1, recorded.requests


async def test_without_the_socket_the_screen_polls_and_says_why(emulator: Emulator, clock: ManualClock) -> None:
    async with served_without_socket(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        started = await client.crawl.start("https://acme-outdoor.com/", limit=8)
        app = PaneHost(lambda: Static(""))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_status(pilot, client, started.id)
            await wait_until(pilot, lambda: screen.following.mode == "polling", "the fallback", WAIT)
            said = follow_text(screen)
            assert said == "polling every 0.05 s · no live updates: the WebSocket upgrade was answered with HTTP 403"
            await wait_until(pilot, lambda: screen.status is not None, "the first poll", WAIT)
            assert screen.status is not None and screen.status.status == "scraping"
            clock.advance(3600)
            await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end", WAIT)
            assert follow_text(screen) == said
    assert recorded.count(f"GET /v2/crawl/{started.id}") >= 2  # polled until the end was seen


async def test_a_client_that_opens_no_sockets_polls_from_the_start(client: WdsClient) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=3)
    app = PaneHost(lambda: Static(""))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_status(pilot, client, started.id)
        await wait_until(pilot, lambda: screen.status is not None, "the status")
        assert (screen.live, screen.following.mode) == (False, "polling")
        assert follow_text(screen) == "polling every 0.05 s"


async def test_r_on_a_live_screen_opens_a_fresh_socket_rather_than_polling(
    emulator: Emulator, clock: ManualClock
) -> None:
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        started = await client.crawl.start("https://acme-outdoor.com/", limit=8)
        app = PaneHost(lambda: Static(""))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_status(pilot, client, started.id)
            await wait_until(pilot, lambda: screen.following.mode == "live", "live", WAIT)
            await pilot.press("r")
            clock.advance(1)
            await wait_until(pilot, lambda: completed(screen) == 2, "a page after r", WAIT)
            assert screen.following.mode == "live"
        assert recorded.count(f"GET /v2/crawl/{started.id}") == 0


@pytest.mark.serial  # the socket's 5 s upgrade deadline is on the wall clock: a loaded run missed it
async def test_a_socket_lost_again_and_again_is_reopened_three_times_then_the_screen_polls(
    emulator: Emulator, clock: ManualClock
) -> None:
    upgrades: list[str] = []
    quick = Reconnects(tries=3, backoff=Backoff(initial=0.05, maximum=0.1, jitter=0))
    async with (
        served_without_socket(emulator, upgrades, close_with=1001) as base_url,
        recorded_client(base_url, KEY) as (client, recorded),
    ):
        started = await client.crawl.start("https://acme-outdoor.com/", limit=8)
        app = PaneHost(lambda: Static(""))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await open_status(pilot, client, started.id, reconnects=quick)
            seen: set[str] = set()
            for _ in range(250):  # what the line said on the way
                seen.add(follow_text(screen))
                if screen.following.mode == "polling":
                    break
                await pilot.pause(0.02)
            assert (
                "◌ live connection lost; reconnecting (1 of 3) in 0 s: the service closed the live connection (code 1001): restarting"
                in seen
            )
            assert follow_text(screen).startswith(
                "polling every 0.05 s · no live updates: the live connection was lost 4 times"
            )
            clock.advance(3600)
            await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end", WAIT)
    assert len(upgrades) == 4  # the first and three more
    assert recorded.count(f"GET /v2/crawl/{started.id}") >= 1
