"""The backend's DevTools websocket endpoints: a token-checked loopback port, and a unix socket per run.

Browsers speak CDP over a pipe (`cdp_mux.py`) and open no port. What needs a
websocket URL gets one of two endpoints, each connection one client of the
browser's multiplexer:

- the handle's `ws_endpoint`, for the emulator's own users on the host:
  `ws://127.0.0.1:<port>/devtools/browser/<session id>?token=<secret>`. The
  secret is random per session and checked (constant time) before the upgrade;
  anything else (a wrong token, `/json/list`, plain HTTP) gets 403 and never
  reaches a browser. Runs that are not sandboxed use it too;
- for a sandboxed run, whose network namespace has no way to the host's
  loopback: a unix socket made for that run alone (`serve_run`), in a
  directory bound into its sandbox, serving only its session's browser at
  `/devtools/browser/<session id>` and closed when the run ends. The run's
  forwarder (`cdp_forward.py`) gives it a `ws://127.0.0.1` address inside.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import secrets
import socket
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve, unix_serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from tui.emulator.browser.cdp_mux import CdpMultiplexer, MuxClosed
from tui.emulator.core.background import run_until_first_ends

log = logging.getLogger(__name__)

_PATH_PREFIX = "/devtools/browser/"


def _bind_unix(path: Path) -> socket.socket:
    """A unix socket bound at `path`, however deep the temp root is: a socket's path is limited
    to 107 bytes, so it is bound through the directory's short /proc/self/fd alias."""
    directory = os.open(path.parent, os.O_PATH | os.O_DIRECTORY)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(f"/proc/self/fd/{directory}/{path.name}")
    except BaseException:
        sock.close()
        raise
    finally:
        os.close(directory)
    return sock


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
                self._relay,
                "127.0.0.1",
                0,
                process_request=self._check,
                max_size=None,
                compression=None,
                ping_interval=None,
            )
            self._port = self._server.sockets[0].getsockname()[1] if self._server.sockets else 0
        token = secrets.token_urlsafe(32)
        self._browsers[session_id] = (token, mux)
        return f"ws://127.0.0.1:{self._port}{_PATH_PREFIX}{session_id}?token={token}"

    def remove(self, session_id: str) -> None:
        self._browsers.pop(session_id, None)

    async def serve_run(self, session_id: str, path: Path) -> Server:
        """A unix socket at `path` serving `session_id`'s browser without a token, for one run
        (the socket is reachable only where `path` is bound); close it with `close_run`."""

        def check(connection: ServerConnection, request: Request) -> Response | None:
            if urlsplit(request.path).path != f"{_PATH_PREFIX}{session_id}" or session_id not in self._browsers:
                return connection.respond(HTTPStatus.FORBIDDEN, "Forbidden\n")
            return None

        async def relay(connection: ServerConnection) -> None:
            entry = self._browsers.get(session_id)
            if entry is not None:
                await self._relay_to(connection, entry[1])

        return await unix_serve(
            relay, sock=_bind_unix(path), process_request=check, max_size=None, compression=None, ping_interval=None
        )

    @staticmethod
    async def close_run(server: Server) -> None:
        """End a run's socket and every connection through it."""
        server.close()
        with contextlib.suppress(Exception):
            await server.wait_closed()

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
        entry = self._browsers.get(parts.path[len(_PATH_PREFIX) :])
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
        if mux is not None:
            await self._relay_to(connection, mux)

    @staticmethod
    async def _relay_to(connection: ServerConnection, mux: CdpMultiplexer) -> None:
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
