"""uvicorn's HTTP/1.1 protocol with a deadline for a request's headers.

uvicorn has no header-read timeout: its keep-alive timer runs only between
requests and any byte received cancels it, so a client trickling one header
byte at a time held its connection for as long as it liked (500 were held
30 s in issue 9). Here a connection that is waiting for a request must
deliver the request's whole head within `header_timeout` seconds, counted from
the connection's opening or from the first byte of the next request on a
kept-alive connection, or it is closed. The same deadline bounds a client
still sending a body the app has already answered (a 413, say), which uvicorn
reads and discards.

Idle kept-alive connections (nothing sent since the last answer) stay under
uvicorn's own `timeout_keep_alive`; requests being answered are not timed here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_SECONDS = 10.0
# h11's own default, stated here: a request head still incomplete past this many bytes
# answers 400 (a complete head that arrives in one piece is parsed whatever its size).
HEADER_MAX_BYTES = 16 * 1024

logger = logging.getLogger("tui.emulator")


class HeaderDeadlineProtocol(H11Protocol):
    """`H11Protocol` closing connections whose request head does not arrive within `header_timeout`."""

    header_timeout = HEADER_TIMEOUT_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeaderDeadlineProtocol]:
        """This protocol with a header deadline of `seconds` (uvicorn takes a class, not an instance)."""
        return type(cls.__name__, (cls,), {"header_timeout": seconds})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._awaiting_request():
            self._arm()  # the first byte of a request (or of a body nobody waits for) starts the clock
        super().data_received(data)
        if not self._awaiting_request() or self.transport.get_protocol() is not self:
            self._disarm()  # the head is complete: the app has the request, or a websocket took over

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

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
        if self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            # A discarded body ended in time and nothing new has come: an idle
            # kept-alive connection, which uvicorn's keep-alive timer governs again.
            if self.timeout_keep_alive_task is None:
                self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive,
                                                                    self.timeout_keep_alive_handler)
            return
        logger.debug("closing %s: no complete request head within %s s", self.client, self.header_timeout)
        self.transport.close()
