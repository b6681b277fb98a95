"""A small HTTP server for webhooks, on asyncio and h11 (httpx's own HTTP parser): no web framework.

The dashboard installs without the emulator's Starlette and uvicorn, so the
listener speaks HTTP/1.1 itself through h11, which httpx already brings. It
takes `POST` deliveries of at most `MAX_BODY` bytes, answers 200 at once
(the service gives a receiver 10 s), and hands each to the `Inbox`. Anything
else gets the status a careful server would give: 405 for another method,
413 for a body too large, 400 for a request h11 cannot read, and a
connection whose request head does not arrive within `HEAD_SECONDS` is
closed. Loopback by default: over SSH an operator forwards a port to it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from datetime import UTC, datetime

import h11

from tui.inbox.store import Inbox, check_delivery

MAX_BODY = 1024 * 1024
"""Bytes a delivery may carry: a crawl page event with its document fits many times over."""
HEAD_SECONDS = 10.0
"""How long a request head (and then its body) may take to arrive."""
DEFAULT_HOST = "127.0.0.1"


def parse_listen_address(value: str) -> tuple[str, int]:
    """`[HOST:]PORT` (`8099`, `0.0.0.0:8099`, `[::1]:8099`) as (host, port); ValueError saying what is wrong."""
    text = value.strip()
    host, _, port_text = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"{value!r}: write an IPv6 address in brackets, e.g. [::1]:8099")
    host = host or DEFAULT_HOST
    if not port_text.isdigit():
        raise ValueError(f"{value!r}: expected [HOST:]PORT, e.g. 8099 or 127.0.0.1:8099")
    port = int(port_text)
    if not 0 <= port <= 65535:
        raise ValueError(f"{value!r}: a port is 0 to 65535")
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise ValueError(f"{value!r}: {host!r} is not an IP address (or localhost)") from None
    return host, port


def is_loopback(host: str) -> bool:
    """Whether `host` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebhookListener:
    """Accepts webhook deliveries on `host:port` into `inbox` (port 0: any free port, see `address`)."""

    def __init__(
        self,
        inbox: Inbox,
        host: str = DEFAULT_HOST,
        port: int = 0,
        *,
        head_seconds: float = HEAD_SECONDS,
        max_body: int = MAX_BODY,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.inbox = inbox
        self.host = host
        self.port = port
        self.head_seconds = head_seconds
        self.max_body = max_body
        self._now = now
        self._server: asyncio.Server | None = None

    @property
    def address(self) -> str:
        """`http://127.0.0.1:8099/`: what to give the service as the webhook URL (once started)."""
        if self._server is None:
            raise RuntimeError("the listener is not started")
        host, port = self._server.sockets[0].getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    async def start(self) -> str:
        """Listen; returns the address. OSError (port in use, not allowed) as the system says it."""
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        return self.address

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        peer_text = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "?"
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=16 * 1024)
        try:
            while True:
                handled = await asyncio.wait_for(self._one_request(connection, reader, writer, peer_text), self.head_seconds)
                if not handled or connection.our_state is not h11.DONE:
                    break
                connection.start_next_cycle()
        except (TimeoutError, ConnectionError, h11.ProtocolError):
            pass  # a slow, broken or closed client: nothing to answer any more
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except ConnectionError:
                pass

    async def _next_event(self, connection: h11.Connection, reader: asyncio.StreamReader) -> object:
        while True:
            event = connection.next_event()
            if event is not h11.NEED_DATA:
                return event
            connection.receive_data(await reader.read(65536))

    async def _one_request(
        self, connection: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer: str
    ) -> bool:
        """Read one request and answer it; False when the connection is over."""
        try:
            request = await self._next_event(connection, reader)
        except h11.RemoteProtocolError:
            await self._send(connection, writer, 400, {"error": "malformed request"})
            return False
        if not isinstance(request, h11.Request):
            return False  # the client closed the connection
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in request.headers}
        if request.method != b"POST":
            await self._send(connection, writer, 405, {"error": "this inbox takes POST only"}, allow=True)
            return False
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await self._send(connection, writer, 413, {"error": f"a delivery is at most {self.max_body} bytes"})
            return False
        body = bytearray()
        while True:
            event = await self._next_event(connection, reader)
            if isinstance(event, h11.Data):
                body += event.data
                if len(body) > self.max_body:
                    await self._send(connection, writer, 413, {"error": f"a delivery is at most {self.max_body} bytes"})
                    return False
            elif isinstance(event, h11.EndOfMessage):
                break
            else:
                return False
        delivery = check_delivery(bytes(body), headers, self.inbox.secret, peer=peer, now=self._now())
        self.inbox.add(delivery)
        await self._send(connection, writer, 200, {"received": True})
        return True

    async def _send(
        self, connection: h11.Connection, writer: asyncio.StreamWriter, status: int, body: dict, *, allow: bool = False
    ) -> None:
        payload = json.dumps(body).encode()
        headers = [("content-type", "application/json"), ("content-length", str(len(payload)))]
        if allow:
            headers.append(("allow", "POST"))
        if status != 200:
            headers.append(("connection", "close"))
        writer.write(connection.send(h11.Response(status_code=status, headers=headers)))
        writer.write(connection.send(h11.Data(data=payload)))
        writer.write(connection.send(h11.EndOfMessage()))
        await writer.drain()
