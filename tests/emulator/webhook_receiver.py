"""A real webhook receiver for tests: a tiny HTTP/1.1 server on a loopback socket.

It records every POST (path, headers, raw body) and answers scripted statuses,
so tests see exactly the bytes a receiver of the service would.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
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
