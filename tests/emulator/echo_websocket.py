"""A websocket echo app on a real uvicorn server with our HTTP protocol, for the connection tests."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tui.emulator.header_deadline import HeaderDeadlineProtocol


async def _echo(ws: WebSocket) -> None:
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await ws.send_text(await ws.receive_text())


@contextlib.asynccontextmanager
async def echo_server(protocol: type[HeaderDeadlineProtocol]) -> AsyncIterator[str]:
    """Serve the echo app with `protocol` on a free loopback port; yields its `ws://.../echo` URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(
            Starlette(routes=[WebSocketRoute("/echo", _echo)]), log_level="warning", lifespan="off", http=protocol
        )
    )
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"ws://127.0.0.1:{sock.getsockname()[1]}/echo"
    finally:
        server.should_exit = True
        await task
