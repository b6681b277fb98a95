"""A small HTTP server for webhooks, on asyncio and h11 (httpx's own HTTP parser): no web framework.

The dashboard installs without the emulator's Starlette and uvicorn, so the
listener speaks HTTP/1.1 itself through h11, which httpx already brings. It
takes `POST` deliveries of at most `MAX_BODY` bytes, answers at once (the
service gives a receiver 10 s), and hands each to the `Inbox`: 200 when it
is an event (verified or not), 400 when it is not one (kept as a row all the
same). Anything else gets the status a careful server would give: 405 for
another method, 413 for a body too large, 400 for a request h11 cannot read,
and a connection whose request head does not arrive within `HEAD_SECONDS` is
closed. Loopback by default: over SSH an operator forwards a port to it.

It runs on a thread and an event loop of its own: reading, parsing,
checking and answering a burst of deliveries (a thousand a second) is work
the dashboard's loop would otherwise do in front of every key press. Only
the checked deliveries cross over (`tui.dashboard.features.inbox.handoff`). And it runs behind
a Textual screen, so nothing a sender does may escape it: every failure,
ours included, is an answer (500 for our own) and a row, never an exception
for asyncio or the thread to print onto the terminal.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime

import h11

from tui.dashboard.features.inbox.handoff import Handoff
from tui.dashboard.features.inbox.store import PROBLEM_LIMIT, Delivery, Inbox, check_delivery
from tui.dashboard.kit.formatting import clip

MAX_BODY = 1024 * 1024
"""Bytes a delivery may carry: a crawl page event with its document fits many times over."""
HEAD_SECONDS = 10.0
"""How long a request head (and then its body) may take to arrive."""
BACKLOG = 1024
"""Connections the kernel queues before accepting: a burst of senders must not be refused (asyncio's default is 100)."""
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
    """Accepts webhook deliveries on `host:port` into `inbox` (port 0: any free port, see `address`).

    It serves on a thread and an event loop of its own, started by `start`
    from the loop the inbox belongs to (the dashboard's), where the checked
    deliveries are stored (`tui.dashboard.features.inbox.handoff`).
    """

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
        self._address: str | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the listener's own
        self._stop: asyncio.Event | None = None
        self._handoff: Handoff | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self.loop_errors = 0  # what asyncio would have logged onto the terminal, counted instead

    @property
    def address(self) -> str:
        """`http://127.0.0.1:8099/`: what to give the service as the webhook URL (once started)."""
        if self._address is None:
            raise RuntimeError("the listener is not started")
        return self._address

    async def start(self) -> str:
        """Listen; returns the address. OSError (port in use, not allowed) as the system says it."""
        loop = asyncio.get_running_loop()
        self._handoff = Handoff(self.inbox, loop)
        started: asyncio.Future[str] = loop.create_future()
        self._thread = threading.Thread(target=self._run, args=(loop, started), name="webhook-listener", daemon=True)
        self._thread.start()
        try:
            self._address = await started
        except BaseException:
            await asyncio.to_thread(self._thread.join)
            self._thread = None
            raise
        return self._address

    async def close(self) -> None:
        """Stop listening and end the connections still open; returns once the listener's thread has ended."""
        thread, loop, stop = self._thread, self._loop, self._stop
        if thread is None:
            return
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass  # its loop has ended already
        await asyncio.to_thread(thread.join, 5)  # a daemon thread: an app that quits never waits longer
        self._thread = self._loop = self._stop = None
        self._address = None

    # --- the listener's thread ---------------------------------------------------------

    def _run(self, owner: asyncio.AbstractEventLoop, started: asyncio.Future[str]) -> None:
        try:
            asyncio.run(self._listen(owner, started))
        except BaseException as exc:  # noqa: BLE001 - a thread's exception would be printed over the dashboard
            _settle(owner, started, exc)

    async def _listen(self, owner: asyncio.AbstractEventLoop, started: asyncio.Future[str]) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        self._loop, self._stop = loop, asyncio.Event()
        server = await asyncio.start_server(self._serve, self.host, self.port, backlog=BACKLOG)
        host, port = server.sockets[0].getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        _settle(owner, started, f"http://{shown}:{port}/")
        async with server:
            await self._stop.wait()
            server.close()
            for task in list(self._connections):
                task.cancel()
            await asyncio.gather(*self._connections, return_exceptions=True)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        self.loop_errors += 1

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        peer = writer.get_extra_info("peername")
        peer_text = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "?"
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=16 * 1024)
        try:
            while True:
                async with asyncio.timeout(self.head_seconds):
                    handled = await self._one_request(connection, reader, writer, peer_text)
                if not handled or connection.our_state is not h11.DONE:
                    break
                connection.start_next_cycle()
        except (TimeoutError, OSError, h11.ProtocolError):
            pass  # a slow, broken or closed client: nothing to answer any more
        except Exception as exc:  # noqa: BLE001 - our own bug: the sender still gets an answer
            await self._answer_failure(connection, writer, exc)
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass
            _break_transport_cycle(writer.transport)
            if task is not None:
                self._connections.discard(task)

    async def _answer_failure(self, connection: h11.Connection, writer: asyncio.StreamWriter, exc: Exception) -> None:
        if connection.our_state is not h11.SEND_RESPONSE or writer.is_closing():
            return
        try:
            await self._send(
                connection, writer, 500, {"error": f"the inbox failed on this request ({type(exc).__name__})"}
            )
        except (OSError, h11.ProtocolError):
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
        delivery, status, answer = self._check(bytes(body), headers, peer)
        assert self._handoff is not None
        await self._handoff.put(delivery)  # before the answer: a sender that has its 200 finds its row
        await self._send(connection, writer, status, answer)
        return status == 200

    def _check(self, body: bytes, headers: dict[str, str], peer: str) -> tuple[Delivery, int, dict]:
        """The delivery to keep and the answer: 200 for an event, 400 for what is not one, 500 when we fail."""
        now = self._now()
        try:
            delivery = check_delivery(body, headers, self.inbox.secret, peer=peer, now=now)
        except Exception as exc:  # noqa: BLE001 - ours to fix; the delivery is still shown, and answered
            problem = f"the inbox could not read this delivery ({type(exc).__name__}: {exc})"
            return (
                Delivery(now, peer, len(body), None, None, clip(problem, PROBLEM_LIMIT), body),
                500,
                {"error": "the inbox failed to read this delivery"},
            )
        if delivery.event is None:
            return delivery, 400, {"error": delivery.problem or "not a webhook event"}
        return delivery, 200, {"received": True}

    async def _send(
        self, connection: h11.Connection, writer: asyncio.StreamWriter, status: int, body: dict, *, allow: bool = False
    ) -> None:
        payload = json.dumps(body).encode()
        headers = [("content-type", "application/json"), ("content-length", str(len(payload)))]
        if allow:
            headers.append(("allow", "POST"))
        if status != 200:
            headers.append(("connection", "close"))
        writer.write(
            connection.send(h11.Response(status_code=status, headers=headers))
            + connection.send(h11.Data(data=payload))
            + connection.send(h11.EndOfMessage())
        )
        await writer.drain()


def _break_transport_cycle(transport: asyncio.BaseTransport) -> None:
    """Drop the bound method of itself that CPython 3.11's socket transport keeps once closed.

    A reference cycle per connection, which only the cyclic collector frees:
    a burst's thousands of them (seven objects each) made its collections,
    which stop every thread of the dashboard, take up to 30 ms. Private, on
    purpose, and only here; `tests/inbox/test_listener_garbage.py` pins it.
    """
    if getattr(transport, "_read_ready_cb", None) is not None and transport.is_closing():
        transport._read_ready_cb = None  # type: ignore[attr-defined]


def _settle(loop: asyncio.AbstractEventLoop, future: asyncio.Future[str], outcome: str | BaseException) -> None:
    """Resolve `future` (of `loop`, another thread's) with an address or an exception, once."""

    def settle() -> None:
        if future.done():
            return
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    try:
        loop.call_soon_threadsafe(settle)
    except RuntimeError:
        pass  # the loop that started the listener has ended
