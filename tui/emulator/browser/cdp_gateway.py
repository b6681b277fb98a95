"""The backend's DevTools websocket endpoint: one loopback port for every browser, with a token each.

Browsers speak CDP over a pipe (`cdp_mux.py`) and open no port. What needs a
websocket URL (runners' Playwright `connect_over_cdp`, `agent-browser`, the
emulator's CDP proxy, live view and site interception) gets the handle's
`ws_endpoint`: `ws://127.0.0.1:<port>/devtools/browser/<session id>?token=<secret>`.
The secret is random per session and checked (constant time) before the
upgrade; anything else (a wrong token, `/json/list`, plain HTTP) gets 403 or
404 and never reaches a browser. Each accepted connection is one client of
that browser's multiplexer.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import secrets
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from tui.emulator.browser.cdp_mux import CdpMultiplexer, MuxClosed
from tui.emulator.core.background import run_until_first_ends

log = logging.getLogger(__name__)

_PATH_PREFIX = "/devtools/browser/"


class CdpGateway:
    """Serves `ws_endpoint`s for the multiplexers registered with `add` (see module doc)."""

    def __init__(self) -> None:
        self._server: Server | None = None
        self._port = 0
        self._browsers: dict[str, tuple[str, CdpMultiplexer]] = {}

    async def add(self, session_id: str, mux: CdpMultiplexer) -> str:
        """Serve `mux` for `session_id`; returns its endpoint URL (with its secret)."""
        if self._server is None:
            self._server = await serve(
                self._relay, "127.0.0.1", 0, process_request=self._check, max_size=None,
                compression=None, ping_interval=None,
            )
            self._port = self._server.sockets[0].getsockname()[1] if self._server.sockets else 0
        token = secrets.token_urlsafe(32)
        self._browsers[session_id] = (token, mux)
        return f"ws://127.0.0.1:{self._port}{_PATH_PREFIX}{session_id}?token={token}"

    def remove(self, session_id: str) -> None:
        self._browsers.pop(session_id, None)

    async def aclose(self) -> None:
        self._browsers.clear()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    def _lookup(self, path: str) -> CdpMultiplexer | None:
        parts = urlsplit(path)
        if not parts.path.startswith(_PATH_PREFIX):
            return None
        entry = self._browsers.get(parts.path[len(_PATH_PREFIX):])
        given = (parse_qs(parts.query).get("token") or [""])[0]
        if entry is None or not hmac.compare_digest(given.encode(), entry[0].encode()):
            return None
        return entry[1]

    def _check(self, connection: ServerConnection, request: Request) -> Response | None:
        if self._lookup(request.path) is None:
            return connection.respond(HTTPStatus.FORBIDDEN, "Forbidden\n")
        return None

    async def _relay(self, connection: ServerConnection) -> None:
        mux = self._lookup(connection.request.path if connection.request else "")
        if mux is None:
            return
        try:
            client = await mux.connect()
        except Exception as exc:  # noqa: BLE001 - the browser is gone or not answering
            log.info("DevTools gateway: browser unavailable: %s", exc)
            await connection.close(1011, "browser unavailable")
            return

        async def to_browser() -> None:
            with contextlib.suppress(ConnectionClosed, MuxClosed):
                async for message in connection:
                    await client.send(message)

        async def to_client() -> None:
            with contextlib.suppress(ConnectionClosed, MuxClosed):
                async for message in client:
                    await connection.send(message)

        try:
            await run_until_first_ends(to_browser(), to_client())
        finally:
            await client.close()
            with contextlib.suppress(Exception):
                await connection.close(1011 if mux.closed.is_set() else 1000)
