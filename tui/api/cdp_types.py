"""What the CDP client (`tui.api.cdp`) hands out: connection states, value types, updates, errors.

Plain data and exceptions, apart from the client, so that widgets showing a
browser's state can name them without the websocket machinery, and so the
client module stays one job: the connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tui.api.errors import WdsError


class ConnectionState(StrEnum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"
    DESTROYED = "destroyed"

    @property
    def final(self) -> bool:
        return self in (ConnectionState.CLOSED, ConnectionState.DESTROYED)


@dataclass(frozen=True)
class BrowserVersion:
    """`Browser.getVersion`: product is e.g. `Chrome/156.0.8078.79`."""

    product: str
    protocol_version: str
    revision: str
    user_agent: str
    js_version: str

    @classmethod
    def from_result(cls, result: dict[str, Any]) -> BrowserVersion:
        return cls(
            product=str(result.get("product", "")),
            protocol_version=str(result.get("protocolVersion", "")),
            revision=str(result.get("revision", "")),
            user_agent=str(result.get("userAgent", "")),
            js_version=str(result.get("jsVersion", "")),
        )


@dataclass(frozen=True)
class PageTarget:
    """A page of the session (CDP targets of `type == "page"` only)."""

    target_id: str
    url: str
    title: str
    loading: bool = False


@dataclass(frozen=True)
class CdpEvent:
    """A protocol event as Chromium sent it."""

    method: str
    params: dict[str, Any]
    session_id: str | None = None


@dataclass(frozen=True)
class StateChanged:
    state: ConnectionState
    reason: str | None = None


@dataclass(frozen=True)
class PagesChanged:
    pages: tuple[PageTarget, ...]


ClientUpdate = CdpEvent | StateChanged | PagesChanged


class CdpError(WdsError):
    """Base of the CDP client's errors."""

    title = "Browser connection error"


class CdpCommandError(CdpError):
    """Chromium answered a command with an error."""

    title = "Browser command failed"

    def __init__(self, method: str, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{method} failed: {message} ({code})")
        self.method, self.code, self.data = method, code, data


class CdpTimeoutError(CdpError):
    title = "Browser did not answer"


class CdpDisconnectedError(CdpError):
    title = "Browser not connected"


class CdpSessionDestroyedError(CdpDisconnectedError):
    title = "Browser session ended"


class Subscription:
    """An async iterator over a client's updates; ends after the final state."""

    def __init__(self, unsubscribe: Callable[[Callable[[ClientUpdate], None]], None], maxsize: int) -> None:
        self._unsubscribe = unsubscribe
        self._queue: asyncio.Queue[ClientUpdate] = asyncio.Queue(maxsize)

    def put(self, update: ClientUpdate) -> None:
        if self._queue.full():  # a slow reader loses the oldest updates, never blocks the client
            self._queue.get_nowait()
        self._queue.put_nowait(update)

    def close(self) -> None:
        self._unsubscribe(self.put)

    def __aiter__(self) -> AsyncIterator[ClientUpdate]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[ClientUpdate]:
        try:
            while True:
                update = await self._queue.get()
                yield update
                if isinstance(update, StateChanged) and update.state.final:
                    return
        finally:
            self.close()
