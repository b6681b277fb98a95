"""`tui.api.cdp.CdpClient` against the emulator's proxy and a real browser."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Awaitable, Callable

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from tests.browser.proxied_sessions import FakeSessions, Serve, proxied_session
from tui.api.cdp import CdpClient
from tui.api.cdp_types import (
    CdpCommandError,
    CdpDisconnectedError,
    CdpSessionDestroyedError,
    CdpTimeoutError,
    ConnectionState,
    PagesChanged,
    StateChanged,
)
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.chromium import ChromiumBackend

pytestmark = pytest.mark.browser


async def wait_for_state(client: CdpClient, state: ConnectionState, timeout: float = 10) -> None:
    async def reached() -> None:
        while client.state is not state:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(reached(), timeout)


async def test_version_latency_and_page_tracking(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve, site: str
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-client")
    async with CdpClient(cdp_url, poll_interval=0.2) as client:
        updates = client.updates()
        version = await client.version()
        assert version.product.startswith("Chrome/") and version.protocol_version == "1.3"
        assert 0 < await client.ping() < 1000
        outcome = await backend.execute(handle, f"await page.goto('{site}/title/Tracked%20Page')", "node", 30)
        assert outcome.error is None, outcome.stderr
        async for update in updates:
            if isinstance(update, PagesChanged) and any(p.title == "Tracked Page" for p in update.pages):
                break
        page = next(p for p in client.pages if p.title == "Tracked Page")
        assert page.url == f"{site}/title/Tracked%20Page"
        await wait_until(lambda: not client.pages[0].loading)
        assert [p.target_id for p in client.pages] == [page.target_id]  # browser_ui targets are not pages
        assert client.latency_ms is not None


async def test_a_page_still_loading_is_flagged(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve, site: str
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-client")
    async with CdpClient(cdp_url, poll_interval=0.1) as client:
        code = f"await page.goto('{site}/still-loading', {{ waitUntil: 'domcontentloaded' }})"
        assert (await backend.execute(handle, code, "node", 30)).error is None
        await wait_until(lambda: any(p.loading and p.title == "still loading" for p in client.pages))


async def wait_until(condition: Callable[[], bool], timeout: float = 10) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


async def test_error_replies_and_timeouts_are_typed(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    _, cdp_url = await proxied_session(backend, sessions, serve, "s-client")
    async with CdpClient(cdp_url, track_pages=False) as client:
        with pytest.raises(CdpCommandError) as failed:
            await client.send("No.suchMethod")
        assert failed.value.code == -32601 and failed.value.method == "No.suchMethod"
        targets = await client.send("Target.getTargets")
        page = next(t for t in targets["targetInfos"] if t["type"] == "page")
        attached = await client.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})
        never = {"expression": "new Promise(() => {})", "awaitPromise": True}
        with pytest.raises(CdpTimeoutError, match="Runtime.evaluate got no reply within 0.2 s"):
            await client.send("Runtime.evaluate", never, session_id=attached["sessionId"], timeout=0.2)
        assert (await client.send("Browser.getVersion"))["product"].startswith("Chrome/")


async def test_destroying_the_session_ends_the_client_as_destroyed(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-client")
    client = CdpClient(cdp_url)
    await client.connect()
    states = [u.state async for u in _states_until_final(client, after=lambda: _destroy(backend, sessions, handle))]
    assert states[-1] is ConnectionState.DESTROYED
    assert ConnectionState.RECONNECTING not in states
    assert client.state_reason == "session destroyed"
    with pytest.raises(CdpSessionDestroyedError):
        await client.send("Browser.getVersion")
    await client.close()
    assert client.state is ConnectionState.DESTROYED


async def _destroy(backend: ChromiumBackend, sessions: FakeSessions, handle: BrowserHandle) -> None:
    sessions.end(handle.session_id)
    await backend.close(handle, save_profile=False)


async def _states_until_final(client: CdpClient, after: Callable[[], Awaitable[None]]):  # noqa: ANN202
    updates = client.updates()
    await after()
    async for update in updates:
        if isinstance(update, StateChanged):
            yield update


async def test_a_browser_that_goes_away_ends_as_destroyed(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve
) -> None:
    handle, cdp_url = await proxied_session(backend, sessions, serve, "s-client")
    client = CdpClient(cdp_url, backoff_initial=0.05)
    await client.connect()

    async def crash() -> None:
        os.killpg(handle.pid, signal.SIGKILL)

    states = [u.state async for u in _states_until_final(client, after=crash)]
    # The backend notices the browser's end and the proxy closes with "session destroyed" (4410):
    # no reconnect attempt is needed to learn that the session is gone.
    assert states == [ConnectionState.DESTROYED]
    await client.close()


async def test_nothing_listening_ends_as_closed_after_capped_attempts() -> None:
    client = CdpClient("ws://127.0.0.1:9/cdp/x?token=t", max_attempts=3, backoff_initial=0.01)
    with pytest.raises(CdpDisconnectedError, match="Could not connect"):
        await client.connect()
    assert client.state is ConnectionState.CLOSED
    assert "cannot connect" in (client.state_reason or "")
    assert "token=t" not in (client.state_reason or "")
    assert [u async for u in client.updates()] == [StateChanged(ConnectionState.CLOSED, client.state_reason)]


async def test_a_dropped_connection_is_reconnected(serve: Serve) -> None:
    """The server drops the first connection (as a restarting proxy would); the client comes back."""
    connections = 0

    async def flaky(websocket: WebSocket) -> None:
        nonlocal connections
        connections += 1
        await websocket.accept()
        if connections == 1:
            await websocket.close(code=1012, reason="restarting")
            return
        while True:
            message = json.loads(await websocket.receive_text())
            await websocket.send_text(json.dumps({"id": message["id"], "result": {"product": "Fake/1"}}))

    host = await serve(Starlette(routes=[WebSocketRoute("/flaky", flaky)]))
    client = CdpClient(f"ws://{host}/flaky", track_pages=False, backoff_initial=0.05)
    seen: list[ConnectionState] = []
    client.add_listener(lambda u: seen.append(u.state) if isinstance(u, StateChanged) else None)
    client.start()
    await wait_for_state(client, ConnectionState.RECONNECTING)
    await wait_for_state(client, ConnectionState.CONNECTED)
    assert (await client.version()).product == "Fake/1"
    await client.close()
    assert seen == [
        ConnectionState.CONNECTED,
        ConnectionState.RECONNECTING,
        ConnectionState.CONNECTED,
        ConnectionState.CLOSED,
    ]
