"""uvicorn's HTTP/1.1 protocol with a deadline for a request's head and a cap per client address.

uvicorn has no header-read timeout: its keep-alive timer runs only between
requests and any byte received cancels it, so a client trickling one header
byte at a time held its connection for as long as it liked (500 were held
30 s in issue 9). Here a connection that is waiting for a request must
deliver the request's whole head within `header_timeout` seconds, counted from
the connection's opening or from the first byte of the next request on a
kept-alive connection, or it is closed. A connection that never sends a byte
is closed at that deadline too (issue 18: 19,600 of them were all still open
after 60 s, because a silent new connection looked like an idle kept-alive
one and was handed to the 75 s keep-alive timer). The same deadline bounds a
client still sending a body the app has already answered (a 413, say), which
uvicorn reads and discards.

Idle kept-alive connections (nothing sent since the last answer) stay under
uvicorn's own `timeout_keep_alive`; requests being answered are not timed here.

At most `max_per_client` HTTP connections per client address are open at once
(`MAX_CONNECTIONS_PER_CLIENT`), so one address cannot take every file
descriptor. One more is answered 503 at once and closed. Every loopback client
shares 127.0.0.1, so the cap is far above what dashboards, `serve` and the
50-client load benchmark open. A connection upgraded to a websocket (CDP,
live view) leaves the count: it has authenticated and is not waiting.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from typing import Any, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from tui.emulator.http.fault_injection import TRANSPORT_EXTENSION

HEADER_TIMEOUT_SECONDS = 10.0
# h11's own default, stated here: a request head still incomplete past this many bytes
# answers 400 (a complete head that arrives in one piece is parsed whatever its size).
HEADER_MAX_BYTES = 16 * 1024
# Open HTTP connections per client address. Not stated by the contract: a quarter of the
# common limit of 1,024 file descriptors, five times the load benchmark's 50 clients.
MAX_CONNECTIONS_PER_CLIENT = 256
# An over-cap connection is answered at once; it is closed when its request arrives (so the
# answer is read, not reset), or after this many seconds.
REFUSED_GRACE_SECONDS = 1.0


def over_cap_answer(limit: int) -> bytes:
    """The 503 an over-cap connection gets, in the service's error shape."""
    body = json.dumps(
        {
            "success": False,
            "code": "SERVICE_UNAVAILABLE",
            "error": (
                f"Too many connections from your address: at most {limit} may be open at once. "
                "Close idle connections, or retry in a second."
            ),
        }
    ).encode()
    return (
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


logger = logging.getLogger("tui.emulator")


class HeaderDeadlineProtocol(H11Protocol):
    """`H11Protocol` closing connections whose request head does not arrive within `header_timeout`,
    and refusing more than `max_per_client` open connections from one address."""

    header_timeout = HEADER_TIMEOUT_SECONDS
    max_per_client: int | None = MAX_CONNECTIONS_PER_CLIENT
    # Open connections by client address: one count per server (each `configured` class has its own).
    open_by_client: Counter[str] = Counter()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._counted_as: str | None = None  # the address this connection is counted under
        self._refused: asyncio.TimerHandle | None = None

    @classmethod
    def configured(
        cls, header_timeout: float = HEADER_TIMEOUT_SECONDS, max_per_client: int | None = MAX_CONNECTIONS_PER_CLIENT
    ) -> type[HeaderDeadlineProtocol]:
        """This protocol with its limits, for one server (uvicorn takes a class, not an instance)."""
        return type(
            cls.__name__,
            (cls,),
            {"header_timeout": header_timeout, "max_per_client": max_per_client, "open_by_client": Counter()},
        )

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeaderDeadlineProtocol]:
        """This protocol with a header deadline of `seconds` and the default cap."""
        return cls.configured(header_timeout=seconds)

    # Narrower than asyncio.Protocol's BaseTransport, as uvicorn's own override is: a stream gets a Transport.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        if address is not None and self.max_per_client is not None:
            if self.open_by_client[address] >= self.max_per_client:
                logger.debug("refusing %s: %d connections open already", self.client, self.max_per_client)
                transport.write(over_cap_answer(self.max_per_client))
                self._refused = self.loop.call_later(REFUSED_GRACE_SECONDS, transport.close)
                return
            self.open_by_client[address] += 1
            self._counted_as = address
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:
            self.transport.close()  # answered already; the request read, so the client reads the answer
            return
        if self._awaiting_request():
            self._arm()  # the first byte of a request (or of a body nobody waits for) starts the clock
        super().data_received(data)
        if self.transport.get_protocol() is not self:
            self._release()  # a websocket took over: it is no longer an HTTP connection waiting
        if not self._awaiting_request() or self.transport.get_protocol() is not self:
            self._disarm()  # the head is complete: the app has the request, or a websocket took over

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            # The app's fault rules reset or close this very connection (`http.fault_injection`).
            extensions = cast(dict[str, Any], cycle.scope).setdefault("extensions", {})
            extensions[TRANSPORT_EXTENSION] = self.transport

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        if self._refused is not None:
            self._refused.cancel()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._counted_as is not None:
            self.open_by_client[self._counted_as] -= 1
            if self.open_by_client[self._counted_as] <= 0:
                del self.open_by_client[self._counted_as]
            self._counted_as = None

    def _awaiting_request(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.header_timeout, self._deadline_passed)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _deadline_passed(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing() or not self._awaiting_request():
            return
        if self.cycle is not None and self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            # A request was answered, its discarded body ended in time and nothing new has
            # come: an idle kept-alive connection, which uvicorn's keep-alive timer governs
            # again. A connection that never sent a request (no cycle) is closed below.
            if self.timeout_keep_alive_task is None:
                self.timeout_keep_alive_task = self.loop.call_later(
                    self.timeout_keep_alive, self.timeout_keep_alive_handler
                )
            return
        logger.debug("closing %s: no complete request head within %s s", self.client, self.header_timeout)
        self.transport.close()
