"""The session's cdpUrl: token check before the upgrade, frames both ways, activity, end of session."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.browser.proxied_sessions import FakeSessions, Serve, proxied_session
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.http.cdp_proxy import SESSION_DESTROYED_CODE

pytestmark = pytest.mark.browser


async def call(ws: Any, message_id: int, method: str, params: dict | None = None) -> dict:
    await ws.send(json.dumps({"id": message_id, "method": method, "params": params or {}}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message.get("id") == message_id:
            return message


@pytest.mark.parametrize("query", ["?token=wrong", "", "?token="])
async def test_a_wrong_or_missing_token_is_refused_before_the_upgrade(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve, query: str
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-proxy")
    base = cdp_url.split("?")[0]
    with pytest.raises(InvalidStatus) as refused:
        await websockets.connect(base + query)
    assert refused.value.response.status_code == 403
    assert sessions.touches[handle.session_id] == 0


async def test_an_unknown_or_ended_session_is_refused(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-proxy")
    with pytest.raises(InvalidStatus):
        await websockets.connect(cdp_url.replace(handle.session_id, "no-such-session"))
    sessions.end(handle.session_id)
    with pytest.raises(InvalidStatus) as refused:
        await websockets.connect(cdp_url)
    assert refused.value.response.status_code == 410  # the right token of an ended session: gone
    with pytest.raises(InvalidStatus) as refused:
        await websockets.connect(cdp_url.split("?")[0] + "?token=wrong")
    assert refused.value.response.status_code == 403


async def test_commands_and_replies_pass_through_and_count_as_activity(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-proxy")
    async with websockets.connect(cdp_url) as ws:
        reply = await call(ws, 7, "Browser.getVersion")
        assert reply["id"] == 7 and "Chrome/" in reply["result"]["product"]
        error = await call(ws, 8, "No.suchMethod")
        assert error["error"]["message"] == "'No.suchMethod' wasn't found"
    assert sessions.touches[handle.session_id] >= 4  # the connect, two commands, two replies


async def test_events_of_executed_code_are_seen_through_the_proxy(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve, site: str
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-proxy")
    async with websockets.connect(cdp_url, max_size=None) as ws:
        await call(ws, 1, "Target.setDiscoverTargets", {"discover": True})
        target = f"{site}/title/Seen"
        outcome = await backend.execute(handle, f"await page.goto('{target}')", "python", 30)
        assert outcome.error is None, outcome.stderr
        urls = []
        while target not in urls:
            event = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if event.get("method") == "Target.targetInfoChanged":
                urls.append(event["params"]["targetInfo"]["url"])
        assert target in urls


async def test_the_client_is_closed_with_4410_when_the_session_is_destroyed(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-proxy")
    async with websockets.connect(cdp_url) as ws:
        await call(ws, 1, "Browser.getVersion")
        sessions.end(handle.session_id)
        await backend.close(handle, save_profile=False)
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == SESSION_DESTROYED_CODE
        assert ws.close_reason == "session destroyed"


async def test_a_session_ended_by_the_manager_alone_is_noticed(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    """A manager that ends a session without closing the browser yet: the proxy polls it."""
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-proxy")
    async with websockets.connect(cdp_url) as ws:
        sessions.end(handle.session_id)
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == SESSION_DESTROYED_CODE
