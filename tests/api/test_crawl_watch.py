"""`client.crawl.watch`: a crawl followed over the WebSocket, on the real emulator and on hostile servers.

The emulator runs on uvicorn in the test's loop on a manual clock, so a page
is pushed only when the test moves the clock. Each status the watch yields is
compared with what `GET /v2/crawl/{id}` says of the same crawl. The hostile
servers (`tests.support.crawl_sockets`) send what the service never should:
no JSON, the wrong shape, too much, a cut connection.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.server import ServerConnection

from tests.support.crawl_sockets import http_answer, served_without_socket, socket_server
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, START, UNKNOWN_KEY
from tui.api import socket_errors
from tui.api.client import WdsClient
from tui.api.crawl_watch import CrawlWatch
from tui.contract.models import CrawlStatus
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import running
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

PAGES = 5  # two pages a second: the crawl ends 2.5 s of the manual clock after it starts
WAIT = 5.0  # real seconds for a status the emulator pushes within its 0.2 s tick
CRAWL_ID = "6f1c0d0e-8a4b-4c1e-9d7a-2b3c4d5e6f70"
CATCHUP = {"type": "catchup", "data": {"status": "scraping", "completed": 1, "total": 3, "data": []}}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    keys = {"alpha": [ALPHA_KEY], "beta": [BETA_KEY]}
    return Emulator.from_keys(keys, seed=7, clock=clock, history=False)  # type: ignore[arg-type]


@pytest.fixture
async def base_url(emulator: Emulator) -> AsyncIterator[str]:
    async with running(emulator) as url:
        yield url


@pytest.fixture
async def client(base_url: str) -> AsyncIterator[WdsClient]:
    async with WdsClient(base_url, ALPHA_KEY) as wds:
        yield wds


async def start(client: WdsClient, url: str = "https://example.com/") -> str:
    return (await client.crawl.start(url, limit=PAGES)).id


async def next_status(updates: CrawlWatch) -> CrawlStatus:
    return await asyncio.wait_for(anext(updates), WAIT)


# -- on the emulator ------------------------------------------------------------------


async def test_catchup_then_a_status_per_document_then_the_final_status(client: WdsClient, clock: ManualClock) -> None:
    crawl_id = await start(client)
    clock.advance(1)  # two pages scraped
    async with client.crawl.watch(crawl_id) as updates:
        first = await next_status(updates)
        assert first == await client.crawl.get(crawl_id)
        assert (first.status, first.completed, first.total, len(first.data)) == ("scraping", 2, PAGES, 2)

        clock.advance(0.5)
        third = await next_status(updates)
        assert (third.status, third.completed, len(third.data)) == ("scraping", 3, 3)
        assert third.data[2] == (await client.crawl.get(crawl_id)).data[2]

        clock.advance(10)
        rest = [await next_status(updates) for _ in range(3)]
        final = await client.crawl.get(crawl_id)
        assert [status.completed for status in rest] == [4, 5, 5]
        assert rest[-1] == final and final.status == "completed"
        with pytest.raises(StopAsyncIteration):
            await next_status(updates)


async def test_a_crawl_that_had_ended_is_one_final_status(client: WdsClient, clock: ManualClock) -> None:
    crawl_id = await start(client)
    clock.advance(60)
    statuses = [status async for status in client.crawl.watch(crawl_id)]
    assert statuses == [await client.crawl.get(crawl_id)]
    assert statuses[0].status == "completed" and len(statuses[0].data) == PAGES


async def test_documents_past_keep_documents_are_counted_not_kept(client: WdsClient, clock: ManualClock) -> None:
    crawl_id = await start(client)
    clock.advance(1)
    async with client.crawl.watch(crawl_id, keep_documents=1) as updates:
        first = await next_status(updates)
        assert (first.completed, len(first.data)) == (2, 1)
        assert first.next == f"{client.base_url}/v2/crawl/{crawl_id}?skip=1&limit=1"
        clock.advance(0.5)
        third = await next_status(updates)
        assert (third.completed, len(third.data)) == (3, 1)
        assert third.data == first.data


@pytest.mark.parametrize(
    ("key", "code", "status", "words"),
    [(UNKNOWN_KEY, 3000, 401, "Invalid token"), (BETA_KEY, 3003, 403, "not allowed")],
    ids=["unknown-key", "other-team"],
)
async def test_a_refused_key_is_a_refusal_with_its_http_meaning(
    client: WdsClient, base_url: str, key: str, code: int, status: int, words: str
) -> None:
    crawl_id = await start(client)
    async with WdsClient(base_url, key) as other:
        with pytest.raises(socket_errors.SocketRefusedError) as refused:
            await next_status(other.crawl.watch(crawl_id))
    assert (refused.value.close_code, refused.value.status) == (code, status)
    assert words in refused.value.message and key not in str(refused.value)


async def test_an_unexpected_error_close_is_a_refusal_meaning_500() -> None:
    reason = json.dumps({"type": "error", "error": "An unexpected error occurred: KeyError"})
    with pytest.raises(socket_errors.SocketRefusedError) as refused:
        await _watch_through(_closing(1011, reason))
    assert (refused.value.close_code, refused.value.status) == (1011, 500)
    assert refused.value.message.endswith("(close 1011): An unexpected error occurred: KeyError")


def test_a_message_is_read_up_to_the_32_mib_of_a_status_page(client: WdsClient) -> None:
    assert client.crawl.watch(CRAWL_ID).max_bytes == 32 * 1024 * 1024


async def test_an_unknown_crawl_is_refused_as_not_found(client: WdsClient) -> None:
    with pytest.raises(socket_errors.SocketRefusedError) as refused:
        await next_status(client.crawl.watch("00000000-0000-4000-8000-000000000000"))
    assert (refused.value.close_code, refused.value.status) == (1008, 404)
    assert "Job not found." in refused.value.message


# -- where the service offers no socket -----------------------------------------------------


async def test_a_service_without_the_socket_is_not_offered_and_still_polls(emulator: Emulator) -> None:
    async with served_without_socket(emulator) as url, WdsClient(url, ALPHA_KEY) as client:
        crawl_id = await start(client)
        with pytest.raises(socket_errors.SocketNotOfferedError) as not_offered:
            await next_status(client.crawl.watch(crawl_id))
        assert not_offered.value.status == 403
        assert (await client.crawl.get(crawl_id)).status == "scraping"


@pytest.mark.parametrize("status", [404, 400, 302])
async def test_an_upgrade_answered_with_http_is_not_offered(status: int) -> None:
    answer = http_answer(status, "no sockets here", {"Location": "http://127.0.0.1:9/elsewhere"})
    async with socket_server(_never_called, answer) as server, WdsClient(server.base_url, ALPHA_KEY) as client:
        with pytest.raises(socket_errors.SocketNotOfferedError) as not_offered:
            await next_status(client.crawl.watch(CRAWL_ID))
    assert not_offered.value.status == status
    assert len(server.seen) == 1  # a redirect is not followed: the key would go with it


async def test_nothing_listening_is_not_offered() -> None:
    async with socket_server(_never_called) as server:
        url = server.base_url  # closed once the block ends: nothing listens there any more
    async with WdsClient(url, ALPHA_KEY) as client:
        with pytest.raises(socket_errors.SocketNotOfferedError, match="no WebSocket could be opened"):
            await next_status(client.crawl.watch(CRAWL_ID))


async def test_a_client_on_a_passed_in_pool_opens_no_socket_unless_told() -> None:
    async with socket_server(_send_catchup_then_wait) as server, httpx.AsyncClient() as http:
        quiet = WdsClient(server.base_url, ALPHA_KEY, http_client=http)
        with pytest.raises(socket_errors.SocketNotOfferedError, match="live_sockets is off"):
            await next_status(quiet.crawl.watch(CRAWL_ID))
        assert server.seen == []
        told = WdsClient(server.base_url, ALPHA_KEY, http_client=http, live_sockets=True)
        async with told.crawl.watch(CRAWL_ID) as updates:
            assert (await next_status(updates)).completed == 1
    path, headers = server.seen[0]
    assert path == f"/v2/crawl/{CRAWL_ID}"
    assert headers["Authorization"] == f"Bearer {ALPHA_KEY}"  # the key as on every call, and as the SDKs send it


# -- hostile sockets ---------------------------------------------------------------------------


async def _never_called(ws: ServerConnection) -> None:
    raise AssertionError("the upgrade was answered with HTTP: no socket should be served")


async def _send_catchup_then_wait(ws: ServerConnection) -> None:
    await ws.send(json.dumps(CATCHUP))
    await ws.wait_closed()


def _sending(*messages: str | bytes, then: str = "wait") -> Any:
    async def handler(ws: ServerConnection) -> None:
        for message in messages:
            await ws.send(message)
        if then == "abort":
            ws.transport.abort()  # no close frame: the connection is cut
        elif then == "going-away":
            await ws.close(1001, "restarting")
        else:
            await ws.wait_closed()

    return handler


def _closing(code: int, reason: str) -> Any:
    async def handler(ws: ServerConnection) -> None:
        await ws.close(code, reason)

    return handler


async def _watch_through(handler: Any, seen: list[CrawlStatus] | None = None, **watch: Any) -> None:
    """Watch `handler`'s socket until the watch raises (the error propagates); statuses go to `seen`."""
    seen = [] if seen is None else seen
    async with socket_server(handler) as server, WdsClient(server.base_url, ALPHA_KEY) as client:
        updates = CrawlWatch(client, CRAWL_ID, lambda: client.crawl.get(CRAWL_ID), **watch)
        async with updates:
            while True:
                seen.append(await next_status(updates))


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("<html>502 Bad Gateway</html>", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"type": "catchup", "data": {"completed": "many"}}', "data.status: Field required"),
        ('{"type": "document", "data": {}}', "before its catch-up"),
        ("[" * 100_000 + "]" * 100_000, "not JSON"),
        (f'{{"type": "catchup", "data": {{"status": 7, "note": "{ALPHA_KEY}"}}}}', "not of the service's shape"),
    ],
    ids=["html", "array", "shape", "document-first", "deep", "echoes-key"],
)
async def test_a_message_not_of_the_service_ends_the_watch_with_a_clear_error(message: str, words: str) -> None:
    with pytest.raises(socket_errors.SocketMessageError) as unreadable:
        await _watch_through(_sending(message))
    assert words in unreadable.value.message
    assert ALPHA_KEY not in unreadable.value.message and len(unreadable.value.message) < 400


async def test_a_socket_that_sends_no_catchup_is_no_live_feed() -> None:
    async def silent(ws: ServerConnection) -> None:
        await ws.wait_closed()

    with pytest.raises(socket_errors.SocketNotOfferedError, match="no catch-up within 0.3 s"):
        await _watch_through(silent, catchup_seconds=0.3)


async def test_a_done_message_ends_the_watch_and_it_closes_the_socket() -> None:
    final = {"type": "catchup", "data": {"status": "completed", "completed": 3, "total": 3, "data": []}}
    closed = asyncio.Event()

    async def done_then_wait(ws: ServerConnection) -> None:
        await ws.send(json.dumps(final))
        await ws.send('{"type": "done"}')
        await ws.wait_closed()  # the service would close; this one waits for the watcher to
        closed.set()

    async with socket_server(done_then_wait) as server, WdsClient(server.base_url, ALPHA_KEY) as client:
        statuses = [status async for status in client.crawl.watch(CRAWL_ID)]
        await asyncio.wait_for(closed.wait(), WAIT)
    assert [(status.status, status.completed) for status in statuses] == [("completed", 3)]


async def test_a_message_past_the_cap_is_not_read() -> None:
    huge = json.dumps({"type": "document", "data": {"markdown": "x" * 4096}})
    with pytest.raises(socket_errors.SocketMessageError, match="longer than"):
        await _watch_through(_sending(json.dumps(CATCHUP), huge), max_bytes=2048)


async def test_messages_of_an_unknown_kind_are_passed_over_and_an_error_message_is_a_refusal() -> None:
    error = json.dumps({"type": "error", "error": "Job expired."})
    handler = _sending(json.dumps(CATCHUP), '{"type": "heartbeat"}', json.dumps(CATCHUP), error)
    seen: list[CrawlStatus] = []
    with pytest.raises(socket_errors.SocketRefusedError, match="Job expired"):
        async with socket_server(handler) as server, WdsClient(server.base_url, ALPHA_KEY) as client:
            async for status in client.crawl.watch(CRAWL_ID):
                seen.append(status)
    assert len(seen) == 2


@pytest.mark.parametrize(("then", "words"), [("abort", "lost"), ("going-away", "(code 1001): restarting")])
async def test_a_connection_that_ends_before_the_crawl_is_dropped(then: str, words: str) -> None:
    seen: list[CrawlStatus] = []
    with pytest.raises(socket_errors.SocketDroppedError) as dropped:
        await _watch_through(_sending(json.dumps(CATCHUP), then=then), seen)
    assert words in dropped.value.message
    assert [status.completed for status in seen] == [1]
