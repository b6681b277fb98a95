"""`follow_crawl`: reconnects after a lost connection (a few times, with a backoff), then gives up for polling.

Driven by loopback WebSocket servers whose handlers lose the connection on
purpose (`tests.support.crawl_sockets.socket_server`); no Textual app.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection

from tests.support.crawl_sockets import http_answer, socket_server
from tests.support.dashboard import KEY
from tui.api.backoff import Backoff
from tui.api.client import WdsClient
from tui.contract.models import CrawlStatus
from tui.dashboard.features.crawls.live_follow import ENDED, RECONNECTS, Following, Reconnects, follow_crawl

pytestmark = pytest.mark.socket

CRAWL_ID = "6f1c0d0e-8a4b-4c1e-9d7a-2b3c4d5e6f70"
QUICK = Reconnects(tries=3, backoff=Backoff(initial=0.01, maximum=0.02, jitter=0))
DONE = json.dumps({"type": "done"})


def catchup(status: str, completed: int) -> str:
    return json.dumps({"type": "catchup", "data": {"status": status, "completed": completed, "total": 9, "data": []}})


def document(index: int) -> str:
    return json.dumps({"type": "document", "data": {"metadata": {"url": f"https://example.com/{index}"}}})


async def follow(handler: Any, **options: Any) -> tuple[Following, list[CrawlStatus], list[Following]]:
    delivered: list[CrawlStatus] = []
    notes: list[Following] = []
    async with socket_server(handler) as server, WdsClient(server.base_url, KEY) as client:
        outcome = await asyncio.wait_for(
            follow_crawl(client, CRAWL_ID, deliver=delivered.append, note=notes.append, **options), 10
        )
    return outcome, delivered, notes


async def test_a_lost_connection_is_opened_again_and_followed_to_the_end() -> None:
    connections = 0

    async def drops_once(ws: ServerConnection) -> None:
        nonlocal connections
        connections += 1
        if connections == 1:
            await ws.send(catchup("scraping", 1))
            ws.transport.abort()
        else:
            await ws.send(catchup("completed", 9))
            await ws.close(1000, DONE)

    outcome, delivered, notes = await follow(drops_once, reconnects=QUICK, pace=0)
    assert outcome == ENDED and connections == 2
    assert [(status.status, status.completed) for status in delivered] == [("scraping", 1), ("completed", 9)]
    assert [note.mode for note in notes] == ["connecting", "live", "reconnecting", "live", "ended"]
    assert notes[2].describe(2) == (
        "◌ live connection lost; reconnecting (1 of 3) in 0 s: the live connection was lost before the crawl ended"
    )


async def test_after_its_reconnects_are_spent_it_says_to_poll_and_why() -> None:
    connections = 0

    async def always_drops(ws: ServerConnection) -> None:
        nonlocal connections
        connections += 1
        await ws.send(catchup("scraping", connections))
        ws.transport.abort()

    outcome, delivered, notes = await follow(always_drops, reconnects=QUICK, pace=0)
    assert connections == 4  # the first and three more
    assert outcome.mode == "polling" and outcome.reason is not None
    assert outcome.reason.startswith("the live connection was lost 4 times")
    assert [note.attempt for note in notes if note.mode == "reconnecting"] == [1, 2, 3]
    assert [status.completed for status in delivered] == [1, 2, 3, 4]
    assert outcome.describe(2).startswith("polling every 2 s · no live updates: the live connection was lost 4 times")


def test_a_lost_connection_is_opened_again_three_times_after_about_1_2_and_4_s() -> None:
    waits = [RECONNECTS.backoff.delay(attempt) for attempt in range(RECONNECTS.tries)]
    assert RECONNECTS.tries == 3
    for wait, full in zip(waits, (1, 2, 4), strict=True):
        assert 0.75 * full <= wait <= full  # less a quarter at most: dashboards refused together spread out


async def test_a_service_without_the_socket_is_polled_and_said_so() -> None:
    async with socket_server(_never_served, http_answer(404)) as server, WdsClient(server.base_url, KEY) as client:
        outcome = await follow_crawl(client, CRAWL_ID, deliver=lambda status: None)
    assert (outcome.mode, outcome.offered) == ("polling", False)
    said = outcome.describe(2)
    assert said == "polling every 2 s · no live updates: the WebSocket upgrade was answered with HTTP 404"


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_a_busy_or_failing_upgrade_falls_back_for_this_crawl_only(status: int) -> None:
    async with socket_server(_never_served, http_answer(status)) as server, WdsClient(server.base_url, KEY) as client:
        outcome = await follow_crawl(client, CRAWL_ID, deliver=lambda status: None)
    assert (outcome.mode, outcome.offered) == ("polling", True)  # may pass: other crawls still try
    assert outcome.reason == f"the WebSocket upgrade was answered with HTTP {status}"


async def test_a_socket_nobody_answers_falls_back_for_this_crawl_only() -> None:
    async with socket_server(_never_served) as server:
        base_url = server.base_url
    async with WdsClient(base_url, KEY) as client:  # the server is gone: the connection is refused
        outcome = await follow_crawl(client, CRAWL_ID, deliver=lambda status: None)
    assert (outcome.mode, outcome.offered) == ("polling", True)
    assert outcome.reason is not None and outcome.reason.startswith("no WebSocket could be opened")


@pytest.mark.parametrize("status", [405, 426])
async def test_an_upgrade_the_service_does_not_take_says_no_socket_here(status: int) -> None:
    async with socket_server(_never_served, http_answer(status)) as server, WdsClient(server.base_url, KEY) as client:
        outcome = await follow_crawl(client, CRAWL_ID, deliver=lambda status: None)
    assert (outcome.mode, outcome.offered) == ("polling", False)


async def test_a_message_that_cannot_be_read_is_not_tried_again() -> None:
    connections = 0

    async def garbles(ws: ServerConnection) -> None:
        nonlocal connections
        connections += 1
        await ws.send("<html>oops</html>")
        await ws.wait_closed()

    outcome, delivered, _ = await follow(garbles, reconnects=QUICK, pace=0)
    assert connections == 1 and delivered == [] and outcome.offered
    assert outcome.mode == "polling" and "not JSON" in (outcome.reason or "")


async def _never_served(ws: ServerConnection) -> None:
    raise AssertionError("the upgrade was answered with HTTP")


async def test_a_refusal_is_not_tried_again() -> None:
    connections = 0

    async def refuses(ws: ServerConnection) -> None:
        nonlocal connections
        connections += 1
        await ws.close(3000, json.dumps({"type": "error", "error": "Unauthorized: Invalid token"}))

    outcome, delivered, notes = await follow(refuses, reconnects=QUICK, pace=0)
    assert connections == 1 and delivered == []
    assert outcome == Following("polling", "the service refused live updates (close 3000): Unauthorized: Invalid token")


async def test_a_burst_of_pages_is_handed_on_paced_and_the_latest_is_never_held_back() -> None:
    async def burst(ws: ServerConnection) -> None:
        await ws.send(catchup("scraping", 0))
        for index in range(50):
            await ws.send(document(index))
        await asyncio.sleep(0.6)  # quiet, still running: what was held must come out meanwhile
        await ws.send(catchup("completed", 9))
        await ws.close(1000, DONE)

    outcome, delivered, _ = await follow(burst, pace=0.2)
    assert outcome == ENDED
    counts = [status.completed for status in delivered]
    assert len(counts) <= 6, counts  # not 52 redraws
    assert 50 in counts and counts[-1] == 9  # the last page of the burst, then the final status
