"""`GET /metrics` over HTTP on the event loop `watch` runs on, from a Prometheus registry.

An asyncio server rather than `prometheus_client.start_http_server`'s thread: the
collector then reads the monitors' counters on the loop that changes them, never
halfway through a change. It answers `GET` and `HEAD` of `/metrics` (OpenMetrics
when the scraper asks for it, as `prometheus_client` chooses), 404 elsewhere, 405
for other methods; one request per connection, its head read within a size and
time limit, so a slow or hostile client costs one small task for a few seconds.

Imports `prometheus_client`: only `watch --metrics` loads this module.
"""

from __future__ import annotations

import asyncio
import contextlib

from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

HEAD_LIMIT = 8 * 1024
"""Bytes of a request's line and headers read at most."""
READ_SECONDS = 10.0
PATH = "/metrics"


def _response(
    status: str, body: bytes, content_type: str = "text/plain; charset=utf-8", *, head: bool = False
) -> bytes:
    lines = [f"HTTP/1.1 {status}", f"Content-Type: {content_type}", f"Content-Length: {len(body)}", "Connection: close"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + (b"" if head else body)


class MetricsServer:
    """Serves `registry` at `http://host:port/metrics` from `start()` until `close()`."""

    def __init__(self, registry: Collector, host: str, port: int) -> None:
        self._registry = registry
        self._host = host
        self._port = port
        self._server: asyncio.Server | None = None
        self.scrapes = 0

    async def start(self) -> tuple[str, int]:
        """Listen; the address bound (the port chosen when 0 was given). OSError when it cannot."""
        self._server = await asyncio.start_server(self._serve, self._host.strip("[]"), self._port, limit=HEAD_LIMIT)
        host, port = self._server.sockets[0].getsockname()[:2]
        return str(host), int(port)

    async def close(self) -> None:
        """Stop listening (a request being answered ends on its own, within `READ_SECONDS`)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(READ_SECONDS):
                head = await reader.readuntil(b"\r\n\r\n")
            writer.write(self._answer(head))
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass  # a client that went away or sent too much: nothing to answer
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    def _answer(self, head: bytes) -> bytes:
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        parts = request_line.split(" ")
        if len(parts) != 3:
            return _response("400 Bad Request", b"bad request line\n")
        method, target, _ = parts
        if target.split("?", 1)[0] != PATH:
            return _response("404 Not Found", b"metrics are at /metrics\n")
        if method not in ("GET", "HEAD"):
            return _response("405 Method Not Allowed", b"GET /metrics\n")
        accept = ""
        for line in header_lines:
            name, _, value = line.partition(":")
            if name.strip().lower() == "accept":
                accept = value.strip()
        encode, content_type = choose_encoder(accept)
        self.scrapes += 1
        return _response("200 OK", encode(self._registry), content_type, head=method == "HEAD")
