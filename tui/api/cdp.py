"""A Chrome DevTools Protocol client for a browser session's `cdpUrl`.

What the dashboard needs from a session's websocket: commands with ids and
awaited replies (`send`), the event stream (`updates()` / `add_listener`),
the session's page targets with url, title and loading state (`pages`),
the browser's version and the round-trip latency, and a connection state
that ends in `closed` or `destroyed` instead of reconnecting forever.

Reconnecting follows the shape of websockets' `async for ws in connect(url)`
loop, written out because two things it does not do matter here: a 403, 404
or 410 on reconnect (or the server's close code 4410) means the session is
gone, so the client stops as `destroyed`; and attempts are capped, so a dead
address ends as `closed`. Chromium announces neither title changes of pages
nobody is attached to nor loading state, so both are polled every
`poll_interval` seconds (`Target.getTargets`, `document.readyState`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from tui.api.backoff import Backoff
from tui.api.cdp_pages import PageTracker
from tui.api.cdp_types import (
    BrowserVersion,
    CdpCommandError,
    CdpDisconnectedError,
    CdpError,
    CdpEvent,
    CdpSessionDestroyedError,
    CdpTimeoutError,
    ClientUpdate,
    ConnectionState,
    PagesChanged,
    PageTarget,
    StateChanged,
    Subscription,
)
from tui.api.polling import PollLoop

__all__ = [  # the client, and what callers name with it (kept importable from here)
    "BrowserVersion",
    "CdpClient",
    "CdpCommandError",
    "CdpDisconnectedError",
    "CdpError",
    "CdpEvent",
    "CdpSessionDestroyedError",
    "CdpTimeoutError",
    "ClientUpdate",
    "ConnectionState",
    "PageTarget",
    "PagesChanged",
    "StateChanged",
    "Subscription",
]

DESTROYED_CLOSE_CODE = 4410  # the emulator's "session destroyed" close code
_GONE_STATUSES = frozenset({403, 404, 410})
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # screenshots arrive as base64 in one message


class CdpClient:
    """One connection to a CDP websocket (see the module doc). Use as `async with`."""

    def __init__(
        self,
        cdp_url: str,
        *,
        command_timeout: float = 10.0,
        open_timeout: float = 10.0,
        reconnect: bool = True,
        max_attempts: int | None = 6,
        backoff_initial: float = 0.25,
        backoff_max: float = 8.0,
        track_pages: bool = True,
        track_loading: bool = True,
        poll_interval: float = 1.0,
    ) -> None:
        self.cdp_url = cdp_url
        self.command_timeout = command_timeout
        self.open_timeout = open_timeout
        self.reconnect = reconnect
        self.max_attempts = max_attempts
        self.backoff_initial, self.backoff_max = backoff_initial, backoff_max
        self.track_pages, self.track_loading = track_pages, track_loading
        self.poll_interval = poll_interval
        self.state = ConnectionState.CONNECTING
        self.state_reason: str | None = None
        self.browser_version: BrowserVersion | None = None
        self.latency_ms: float | None = None
        self._page_tracker = PageTracker(self.send, self._emit)
        self._ws: Any = None
        self._next_id = 0
        self._pending: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._listeners: list[Callable[[ClientUpdate], None]] = []
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._state_changed = asyncio.Event()

    # --- lifecycle -------------------------------------------------------------------

    async def __aenter__(self) -> CdpClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def start(self) -> None:
        """Start connecting in the background (idempotent)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="cdp-client")

    async def connect(self) -> None:
        """Start and wait until connected; raises `CdpDisconnectedError` if the client ends first."""
        self.start()
        while self.state is not ConnectionState.CONNECTED:
            if self.state.final:
                error = CdpSessionDestroyedError if self.state is ConnectionState.DESTROYED else CdpDisconnectedError
                raise error(f"Could not connect to the browser: {self.state_reason}")
            self._state_changed.clear()
            await self._state_changed.wait()

    async def close(self) -> None:
        """Disconnect for good (state `closed` unless the session was already destroyed)."""
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        elif self._task is not None:
            self._task.cancel()  # connecting or backing off: nothing to close cleanly
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if not self.state.final:
            self._set_state(ConnectionState.CLOSED, "closed by the client")

    # --- commands ----------------------------------------------------------------------

    async def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send a command and return its `result`; `CdpCommandError` on an error reply."""
        ws = self._ws
        if ws is None or self.state is not ConnectionState.CONNECTED:
            error = CdpSessionDestroyedError if self.state is ConnectionState.DESTROYED else CdpDisconnectedError
            raise error(f"Cannot send {method}: the browser connection is {self.state.value}.")
        self._next_id += 1
        command_id = self._next_id
        message: dict[str, Any] = {"id": command_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = (method, reply)
        wait = self.command_timeout if timeout is None else timeout
        try:
            await ws.send(json.dumps(message))
            return await asyncio.wait_for(reply, wait)
        except TimeoutError:
            raise CdpTimeoutError(f"{method} got no reply within {wait:g} s.") from None
        except ConnectionClosed:
            raise CdpDisconnectedError(f"The connection closed while sending {method}.") from None
        finally:
            self._pending.pop(command_id, None)

    async def version(self) -> BrowserVersion:
        """The browser's product and protocol version (also kept in `browser_version`)."""
        self.browser_version = BrowserVersion.from_result(await self.send("Browser.getVersion"))
        return self.browser_version

    async def ping(self) -> float:
        """Measure one command round trip in milliseconds (also kept in `latency_ms`)."""
        started = time.perf_counter()
        await self.send("Browser.getVersion")
        self.latency_ms = (time.perf_counter() - started) * 1000
        return self.latency_ms

    @property
    def pages(self) -> tuple[PageTarget, ...]:
        return self._page_tracker.pages

    # --- updates -----------------------------------------------------------------------

    def add_listener(self, callback: Callable[[ClientUpdate], None]) -> None:
        """Call `callback` with every update (events, state and page changes), in order."""
        self._listeners.append(callback)

    def remove_listener(self, callback: Callable[[ClientUpdate], None]) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(callback)

    def updates(self, maxsize: int = 1000) -> Subscription:
        """An async iterator over updates from now on; ends after `closed`/`destroyed`."""
        subscription = Subscription(self.remove_listener, maxsize)
        if self.state.final:  # nothing more will come: end at once instead of waiting forever
            subscription.put(StateChanged(self.state, self.state_reason))
        else:
            self.add_listener(subscription.put)
        return subscription

    def _emit(self, update: ClientUpdate) -> None:
        for listener in list(self._listeners):
            listener(update)

    def _set_state(self, state: ConnectionState, reason: str | None = None) -> None:
        if self.state is state and self.state_reason == reason:
            return
        self.state, self.state_reason = state, reason
        self._state_changed.set()
        self._emit(StateChanged(state, reason))

    # --- the connection loop -----------------------------------------------------------

    def _backoff(self, failures: int) -> float:
        # Exact waits: one client per session, nobody to desynchronise from.
        return Backoff(self.backoff_initial, self.backoff_max, jitter=0).delay(failures - 1)

    async def _run(self) -> None:
        failures = 0
        connected_once = False
        while not self._closing:
            try:
                ws = await websockets.connect(
                    self.cdp_url,
                    open_timeout=self.open_timeout,
                    max_size=MAX_MESSAGE_BYTES,
                    compression=None,
                    ping_interval=20,
                    ping_timeout=20,
                )
            except InvalidURI as exc:
                self._set_state(ConnectionState.CLOSED, f"invalid CDP URL: {exc.msg}")
                return
            except InvalidStatus as exc:
                status = exc.response.status_code
                if status in _GONE_STATUSES:
                    self._set_state(ConnectionState.DESTROYED, f"the server refused the connection (HTTP {status})")
                    return
                reason = f"the server answered HTTP {status}"
            except (OSError, TimeoutError, InvalidHandshake) as exc:
                reason = f"cannot connect: {exc}"
            else:
                failures, connected_once = 0, True
                code, close_reason = await self._serve(ws)
                if self._closing:
                    break
                if code == DESTROYED_CLOSE_CODE:
                    self._set_state(ConnectionState.DESTROYED, close_reason or "session destroyed")
                    return
                if not self.reconnect:
                    self._set_state(ConnectionState.CLOSED, f"connection closed ({code})")
                    return
                self._set_state(ConnectionState.RECONNECTING, f"connection lost ({code})")
                await asyncio.sleep(self.backoff_initial)
                continue
            failures += 1
            if not self.reconnect or (self.max_attempts is not None and failures >= self.max_attempts):
                self._set_state(ConnectionState.CLOSED, reason)
                return
            self._set_state(ConnectionState.RECONNECTING if connected_once else ConnectionState.CONNECTING, reason)
            await asyncio.sleep(self._backoff(failures))
        if not self.state.final:
            self._set_state(ConnectionState.CLOSED, "closed by the client")

    async def _serve(self, ws: Any) -> tuple[int | None, str]:
        """Read one connection until it closes; returns the close code and reason received."""
        self._ws = ws
        self._set_state(ConnectionState.CONNECTED)
        helper = asyncio.create_task(self._watch_pages()) if self.track_pages else None
        try:
            async for raw in ws:
                self._dispatch(raw)
        except ConnectionClosed:
            pass
        finally:
            self._ws = None
            if helper is not None:
                helper.cancel()
                with contextlib.suppress(asyncio.CancelledError, CdpError):
                    await helper
            for method, reply in self._pending.values():
                if not reply.done():
                    reply.set_exception(CdpDisconnectedError(f"The connection closed before {method} was answered."))
            self._page_tracker.clear()
        return ws.close_code, ws.close_reason or ""

    def _dispatch(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return  # not protocol traffic: nothing to route
        if "id" in message:
            method, reply = self._pending.get(message["id"], ("", None))
            if reply is None or reply.done():
                return
            if "error" in message:
                error = message["error"]
                reply.set_exception(
                    CdpCommandError(method, int(error.get("code", 0)), str(error.get("message", "")), error.get("data"))
                )
            else:
                reply.set_result(message.get("result", {}))
            return
        event = CdpEvent(str(message.get("method", "")), message.get("params") or {}, message.get("sessionId"))
        self._page_tracker.track(event)
        self._emit(event)

    # --- page tracking (`cdp_pages.PageTracker`) ----------------------------------------

    async def _watch_pages(self) -> None:
        with contextlib.suppress(CdpCommandError, CdpTimeoutError):
            await self.version()
        await self.send("Target.setDiscoverTargets", {"discover": True})
        pages = PollLoop(self._poll_pages, deliver=_ignore, fail=_page_poll_failed, interval=self.poll_interval)
        await pages.run()

    async def _poll_pages(self) -> None:
        """One look at the page targets (and the round trip it took), and at what is still loading."""
        started = time.perf_counter()
        result = await self.send("Target.getTargets")
        self.latency_ms = (time.perf_counter() - started) * 1000
        self._page_tracker.apply(result.get("targetInfos", []), complete=True)
        if self.track_loading:
            await self._page_tracker.refresh_loading(self.command_timeout)


def _ignore(_answer: object, _same: bool) -> None:
    """The page poll applies what it finds itself (`PageTracker.apply` tells listeners of changes)."""


def _page_poll_failed(error: Exception) -> None:
    if isinstance(error, CdpCommandError | CdpTimeoutError):
        return  # a slow or failing poll is retried on the next tick
    raise error  # disconnected (or a bug): the connection loop decides what comes next
