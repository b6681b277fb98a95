"""The session's `cdpUrl`: a websocket proxy from `/cdp/{sessionId}?token=...` to Chromium.

The token (the session's cdp secret, see `access.py`) is checked before the
upgrade: a wrong or missing token, another of the session's secrets, or a session
that is unknown, gets the handshake refused (HTTP 403) and never reaches the
browser; the right token of a session that has ended (deleted, expired, its
browser died) gets HTTP 410 with the service's error body. Accepted connections relay frames both ways
unchanged; every frame counts as activity of the session (it resets its
`activityTtl`). When the session is destroyed, the client side is closed with
code 4410 and reason "session destroyed", which `tui.api.cdp.CdpClient` reads
as the end of the session rather than a reason to reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

import websockets
from starlette.responses import JSONResponse
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tui.emulator.browser.access import Access
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.sessions import SESSION_DESTROYED
from tui.emulator.core.background import run_until_first_ends

log = logging.getLogger(__name__)

SESSION_DESTROYED_CODE = 4410
SESSION_DESTROYED_REASON = "session destroyed"
BROWSER_LOST_CODE = 1011
POLICY_VIOLATION_CODE = 1008
LIVENESS_INTERVAL_SECONDS = 1.0


class CdpSessions(Protocol):
    """What the proxy (and the live view) need from the session manager."""

    def get_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> object | None:
        """The active session if `token` grants `access` to it (constant-time check), else None."""

    def touch(self, session_id: str) -> object:
        """Record activity now; returning False means the session is no longer active."""

    def handle(self, session_id: str) -> BrowserHandle | None:
        """The running browser of an active session, else None."""

    def ended_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> bool:
        """Whether `token` grants `access` to a session that has ended."""


async def refuse_handshake(websocket: WebSocket, sessions: CdpSessions, session_id: str, access: Access) -> None:
    """Refuse the upgrade: 410 with the error body for the right token of an ended session, else 403."""
    token = websocket.query_params.get("token")
    if token and sessions.ended_for_token(session_id, token, access):
        body = {"success": False, "error": SESSION_DESTROYED, "code": "GONE"}
        with contextlib.suppress(RuntimeError):  # a server without denial responses: 403 below
            await websocket.send_denial_response(JSONResponse(body, status_code=410))
            return
    await websocket.close(code=POLICY_VIOLATION_CODE)  # before accept(): the handshake gets 403


def authorized_handle(
    sessions: CdpSessions, session_id: str, token: str | None, access: Access = Access.CDP
) -> BrowserHandle | None:
    """The session's browser if `token` grants `access` to it, else None."""
    if not token or sessions.get_for_token(session_id, token, access) is None:
        return None
    return sessions.handle(session_id)


class _Relay:
    """One client connection relayed to one browser connection."""

    def __init__(self, sessions: CdpSessions, session_id: str, handle: BrowserHandle, client: WebSocket) -> None:
        self.sessions, self.session_id, self.handle, self.client = sessions, session_id, handle, client
        self.session_ended = False

    def _touch(self) -> None:
        if self.sessions.touch(self.session_id) is False:
            self.session_ended = True

    def _ended(self) -> bool:
        return (
            self.session_ended
            or self.handle.closed.is_set()
            or self.sessions.handle(self.session_id) is not self.handle
        )

    async def client_to_browser(self, upstream: Any) -> None:
        while not self.session_ended:
            message = await self.client.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes")
            if data is None:
                continue
            self._touch()
            await upstream.send(data)

    async def browser_to_client(self, upstream: Any) -> None:
        async for data in upstream:
            self._touch()
            if self.session_ended:
                return
            if isinstance(data, str):
                await self.client.send_text(data)
            else:
                await self.client.send_bytes(data)

    async def watch_session(self) -> None:
        """Return once the session ends: at once via the handle's event, else by polling the manager."""
        while not self._ended():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.handle.closed.wait(), LIVENESS_INTERVAL_SECONDS)

    async def run(self, upstream: Any) -> None:
        await run_until_first_ends(
            self.client_to_browser(upstream), self.browser_to_client(upstream), self.watch_session()
        )
        if self._ended():
            code, reason = SESSION_DESTROYED_CODE, SESSION_DESTROYED_REASON
        else:
            code, reason = BROWSER_LOST_CODE, "browser connection lost"
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await self.client.close(code=code, reason=reason)


def cdp_proxy_route(sessions: CdpSessions, path: str = "/cdp/{session_id}") -> WebSocketRoute:
    """The websocket route that serves every session's `cdpUrl`.

    Wiring: `routes.append(cdp_proxy_route(emulator.browser))` where
    `emulator.browser` is the session manager (see `CdpSessions`).
    """

    async def cdp_proxy(websocket: WebSocket) -> None:
        session_id = websocket.path_params["session_id"]
        handle = authorized_handle(sessions, session_id, websocket.query_params.get("token"))
        if handle is None or handle.closed.is_set():
            await refuse_handshake(websocket, sessions, session_id, Access.CDP)
            return
        try:
            if handle.open_cdp is not None:  # in-process: the browser's own multiplexer
                upstream = await asyncio.wait_for(handle.open_cdp(), 5)
            else:
                upstream = await websockets.connect(
                    handle.ws_endpoint, max_size=None, compression=None, ping_interval=None, open_timeout=5
                )
        except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed, RuntimeError) as exc:
            log.warning("CDP proxy: browser of session %s unreachable: %s", session_id, exc)
            await websocket.close(code=BROWSER_LOST_CODE)
            return
        async with upstream:
            await websocket.accept()
            sessions.touch(session_id)
            with contextlib.suppress(ConnectionClosed, WebSocketDisconnect):
                await _Relay(sessions, session_id, handle, websocket).run(upstream)

    return WebSocketRoute(path, cdp_proxy, name="cdp_proxy")
