"""Issue 21: the crawl status WebSocket (`ws {base}/v2/crawl/{id}`), over a real uvicorn socket.

The emulator is served in the test's own event loop (`running`) on a
`ManualClock`, and a plain `websockets` client watches: the catch-up holds the
documents scraped so far, each later page arrives as the clock reaches it (and
not before), the end is the close with 1000 `{"type": "done"}`, and refusals are
closes with the service's codes and `{"type": "error"}` reasons. The same
crawl's `GET /v2/crawl/{id}` is the reference for every document and status.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, UNKNOWN_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import running
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

HOME = "https://example.com/"
PAGES = 5  # at two pages a second, the crawl ends 2.5 s (of the manual clock) after it starts
WAIT = 5.0  # real seconds to wait for a message the emulator should push within its 0.2 s tick


@pytest.fixture
async def served(emulator: Emulator) -> AsyncIterator[tuple[str, httpx.AsyncClient]]:
    async with running(emulator) as base_url, httpx.AsyncClient(base_url=base_url) as http:
        yield base_url, http


async def start_crawl(http: httpx.AsyncClient, url: str = HOME, key: str = ALPHA_KEY) -> str:
    response = await http.post("/v2/crawl", json={"url": url, "limit": PAGES}, headers=auth(key))
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


async def http_status(http: httpx.AsyncClient, crawl_id: str) -> dict[str, Any]:
    response = await http.get(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
    assert response.status_code == 200, response.text
    return dict(response.json())


def watch(base_url: str, crawl_id: str, key: str | None = ALPHA_KEY) -> websockets.connect:
    url = base_url.replace("http://", "ws://") + f"/v2/crawl/{crawl_id}"
    return websockets.connect(url, additional_headers=auth(key) if key else None, max_size=None)


async def next_message(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), WAIT)))


async def closing(ws: ClientConnection) -> tuple[int, dict[str, Any]]:
    """The close code and JSON reason the emulator ends the socket with (no message may come first)."""
    with pytest.raises(ConnectionClosed) as closed:
        message = await asyncio.wait_for(ws.recv(), WAIT)
        pytest.fail(f"a message came before the close: {message[:200]!r}")
    assert closed.value.rcvd is not None, "the emulator dropped the connection without a close frame"
    return closed.value.rcvd.code, json.loads(closed.value.rcvd.reason)


async def test_catchup_then_each_document_as_its_page_is_scraped_then_done(
    served: tuple[str, httpx.AsyncClient], clock: ManualClock
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http)
    clock.advance(1)  # two pages scraped
    async with watch(base_url, crawl_id) as ws:
        catchup = await next_message(ws)
        assert catchup["type"] == "catchup"
        expected = await http_status(http, crawl_id)
        assert catchup["data"] == expected
        assert catchup["data"]["status"] == "scraping" and len(catchup["data"]["data"]) == 2
        assert catchup["data"]["completed"] == 2 and catchup["data"]["total"] == PAGES

        # Nothing more is pushed until the clock reaches the next page.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ws.recv(), 0.6)
        clock.advance(0.5)
        third = await next_message(ws)
        assert third == {"type": "document", "data": (await http_status(http, crawl_id))["data"][2]}

        clock.advance(10)  # past the end: the last pages, then the close
        rest = [await next_message(ws), await next_message(ws)]
        final = await http_status(http, crawl_id)
        assert final["status"] == "completed"
        assert [message["type"] for message in rest] == ["document", "document"]
        assert [message["data"] for message in rest] == final["data"][3:]
        assert await closing(ws) == (1000, {"type": "done"})


async def test_a_crawl_that_had_ended_is_one_catchup_with_its_final_status_then_done(
    served: tuple[str, httpx.AsyncClient], clock: ManualClock
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http)
    clock.advance(60)
    async with watch(base_url, crawl_id, ALPHA_KEY_2) as ws:  # any key of the team
        catchup = await next_message(ws)
        assert catchup == {"type": "catchup", "data": await http_status(http, crawl_id)}
        assert catchup["data"]["status"] == "completed" and len(catchup["data"]["data"]) == PAGES
        assert await closing(ws) == (1000, {"type": "done"})


async def test_a_cancelled_crawl_closes_the_socket_done_and_its_status_says_cancelled(
    served: tuple[str, httpx.AsyncClient], clock: ManualClock
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http)
    async with watch(base_url, crawl_id) as ws:
        assert (await next_message(ws))["data"]["status"] == "scraping"
        clock.advance(0.5)
        assert (await next_message(ws))["type"] == "document"
        cancelled = await http.delete(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
        assert cancelled.json() == {"success": True, "status": "cancelled"}
        assert await closing(ws) == (1000, {"type": "done"})
    # A watcher that comes later hears the same in its catch-up.
    async with watch(base_url, crawl_id) as ws:
        catchup = await next_message(ws)
        assert catchup["data"]["status"] == "cancelled" and len(catchup["data"]["data"]) == 1
        assert await closing(ws) == (1000, {"type": "done"})


async def test_a_crawl_refused_at_its_start_ends_done_and_its_catchup_says_why(
    served: tuple[str, httpx.AsyncClient], clock: ManualClock
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http, "https://example.com/admin")  # robots.txt disallows it
    async with watch(base_url, crawl_id) as ws:
        assert (await next_message(ws))["data"]["status"] == "scraping"
        clock.advance(1)
        assert await closing(ws) == (1000, {"type": "done"})
    assert (await http_status(http, crawl_id))["status"] == "failed"
    async with watch(base_url, crawl_id) as ws:
        catchup = await next_message(ws)
        data = catchup["data"]
        assert (data["success"], data["status"], data["error"]) == (False, "failed", "URL blocked by robots.txt.")
        assert (data["total"], data["completed"], data["data"]) == (0, 0, [])
        assert await closing(ws) == (1000, {"type": "done"})


@pytest.mark.parametrize(
    ("key", "reason"), [(None, "Unauthorized"), (UNKNOWN_KEY, "Unauthorized: Invalid token")], ids=["none", "unknown"]
)
async def test_a_refused_key_closes_with_3000_and_the_http_words(
    served: tuple[str, httpx.AsyncClient], key: str | None, reason: str
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http)
    async with watch(base_url, crawl_id, key) as ws:
        assert await closing(ws) == (3000, {"type": "error", "error": reason})
    assert (await http.get(f"/v2/crawl/{crawl_id}", headers=auth(key) if key else {})).json()["error"] == reason


async def test_another_teams_expired_and_unknown_crawls_are_refused(
    served: tuple[str, httpx.AsyncClient], clock: ManualClock
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http)
    async with watch(base_url, crawl_id, BETA_KEY) as ws:
        forbidden = "You are not allowed to access this resource."
        assert await closing(ws) == (3003, {"type": "error", "error": forbidden})
    clock.advance(25 * 3600)  # past the 24 hours a crawl's results are kept
    async with watch(base_url, crawl_id) as ws:
        assert await closing(ws) == (1008, {"type": "error", "error": "Job expired."})
    async with watch(base_url, "00000000-0000-4000-8000-000000000000") as ws:
        assert await closing(ws) == (1008, {"type": "error", "error": "Job not found."})
    async with watch(base_url, "not-a-uuid") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), WAIT)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "Invalid job ID")


async def test_a_watcher_that_leaves_early_leaves_the_others_served(
    served: tuple[str, httpx.AsyncClient], clock: ManualClock
) -> None:
    base_url, http = served
    crawl_id = await start_crawl(http)
    async with watch(base_url, crawl_id) as leaving, watch(base_url, crawl_id) as staying:
        await next_message(leaving)
        await next_message(staying)
        await leaving.close()
        clock.advance(60)
        assert len([await next_message(staying) for _ in range(PAGES)]) == PAGES
        assert await closing(staying) == (1000, {"type": "done"})
