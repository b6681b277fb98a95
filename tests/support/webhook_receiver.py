"""A real webhook receiver for tests: a tiny HTTP/1.1 server on a loopback socket.

It records every POST (path, headers, raw body) and answers scripted statuses,
so tests see exactly the bytes a receiver of the service would. `Receiver`
runs on the test's event loop; `ThreadedReceiver` in a thread, for tests that
wait on a separate emulator process without an event loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    """One POST as the receiver got it."""

    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict[str, Any]:
        return dict(json.loads(self.body))


class Receiver:
    """A tiny HTTP/1.1 server on 127.0.0.1 that records POSTs and answers scripted statuses."""

    def __init__(self, statuses: list[int] | None = None, delay: float = 0.0) -> None:
        self.statuses = list(statuses or [200])
        self.delay = delay
        self.received: list[Received] = []
        self.url = ""
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> Receiver:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/hooks/crawl"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line = (await reader.readline()).decode()
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.received.append(Received(request_line.split()[1], headers, body))
        status = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        if self.delay:
            await asyncio.sleep(self.delay)
        writer.write(f"HTTP/1.1 {status} Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        writer.close()


class ThreadedReceiver:
    """A loopback receiver served from a thread; answers 200 to every POST."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hooks"

    def __enter__(self) -> ThreadedReceiver:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def wait_for(self, count: int = 1, seconds: float = 10.0) -> list[Received]:
        """The deliveries once `count` have arrived (or what came within `seconds`)."""
        deadline = time.monotonic() + seconds
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return list(self.received)
