"""Services for tests of following a crawl live: one without the crawl WebSocket, and hostile socket servers.

- `served_without_socket(emulator)`: the emulator on uvicorn in the test's
  loop, every HTTP route as usual but no crawl WebSocket: its upgrade is
  answered 403, as Starlette answers a WebSocket to a path it has no socket
  for. A service that polls fine and offers no live updates (or, with
  `close_with`, one whose socket is lost as soon as it opens).
- `socket_server(handler)`: a loopback WebSocket server whose `handler` is the
  test's own (it may send anything, close with any code, or cut the
  connection); `process_request` may answer the upgrade with HTTP instead.
  The upgrade requests it saw are in `seen` (their path and headers).
- `recorded_client(base_url, key)`: our client, sockets on, whose every HTTP
  request is kept (`Recorded.count("GET /v2/crawl/...")`): a live view is told
  from a polling one by what it asked.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from starlette.routing import WebSocketRoute
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from tui.api.client import WdsClient
from tui.emulator.http.app import create_app
from tui.emulator.server import base_url_of, bind_socket
from tui.emulator.service import Emulator

Handler = Callable[[ServerConnection], Awaitable[None]]


@contextlib.asynccontextmanager
async def served_without_socket(
    emulator: Emulator, upgrades: list[str] | None = None, *, close_with: int | None = None
) -> AsyncIterator[str]:
    """Serve `emulator` without its crawl WebSocket while the block runs; yields the base URL.

    The path of each WebSocket upgrade asked for goes to `upgrades`. `close_with`:
    accept each upgrade, then close at once with this code (a socket that keeps
    being lost) rather than refuse it.
    """
    app = create_app(emulator)
    app.router.routes = [route for route in app.router.routes if not isinstance(route, WebSocketRoute)]

    async def counted(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and upgrades is not None:
            upgrades.append(scope["path"])
        if scope["type"] == "websocket" and close_with is not None:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": close_with, "reason": "restarting"})
            return
        await app(scope, receive, send)

    sock = bind_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(counted, log_level="warning", lifespan="off", access_log=False))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(10):
            while not server.started:
                await asyncio.sleep(0.01)
        emulator.start_background()
        yield base_url_of(sock)
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, SystemExit):
            await task
        await emulator.aclose()
        sock.close()


class Recorded:
    """The method and path of every request a client sent, in order."""

    def __init__(self) -> None:
        self.requests: list[str] = []

    async def hook(self, request: httpx.Request) -> None:
        self.requests.append(f"{request.method} {request.url.path}")

    def count(self, line: str) -> int:
        return self.requests.count(line)


@contextlib.asynccontextmanager
async def recorded_client(base_url: str, key: str) -> AsyncIterator[tuple[WdsClient, Recorded]]:
    """Our client on `base_url` with WebSockets on, and what it sent over HTTP."""
    recorded = Recorded()
    async with httpx.AsyncClient(event_hooks={"request": [recorded.hook]}) as http:
        # A pool passed in opens no sockets unless told: this one reaches the server for real.
        yield WdsClient(base_url, key, http_client=http, live_sockets=True), recorded


@dataclass
class SocketServer:
    """A running loopback WebSocket server: its base URL and the upgrade requests it saw."""

    base_url: str
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)


@contextlib.asynccontextmanager
async def socket_server(
    handler: Handler, process_request: Callable[[Request], Response | None] | None = None
) -> AsyncIterator[SocketServer]:
    """Serve `handler` on a loopback WebSocket (see the module doc)."""
    seen: list[tuple[str, dict[str, str]]] = []

    def record(connection: ServerConnection, request: Request) -> Response | None:
        seen.append((request.path, dict(request.headers.raw_items())))
        return process_request(request) if process_request is not None else None

    async with serve(handler, "127.0.0.1", 0, process_request=record, max_size=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        running = SocketServer(f"http://127.0.0.1:{port}", seen)
        yield running


def http_answer(status: int, body: str = "", headers: dict[str, str] | None = None) -> Callable[[Any], Response]:
    """A `process_request` that answers every upgrade with this HTTP status instead."""

    def answer(request: Any) -> Response:
        all_headers = Headers({"Content-Type": "text/plain", **(headers or {})})
        return Response(status, "Refused", all_headers, body.encode())

    return answer
