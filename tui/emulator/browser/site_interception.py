"""Answering a session's web requests from the emulator's synthetic sites instead of the network.

The emulator makes up a web site for any host (`tui.emulator.sites.site`), and a
scrape job's URL is usually on such a host, which neither resolves nor is
reachable here. So that a session's browser sees those sites (the replay of a
scrape in interact, or `page.goto("https://northwind.dev/blog")` in executed
code), the backend keeps one browser-level CDP connection per browser with
the Fetch domain enabled for every http(s) request of every target (pages,
popups, new contexts, workers). Each paused request:

- to a loopback host (127.0.0.0/8, ::1, localhost, 0.0.0.0) is continued
  untouched, so pages served on this machine (tests' pages, the emulator
  itself) load for real;
- to any other host is fulfilled from the resolver: status, headers, body.
  Nothing reaches DNS, TLS or the network, so https works without certificates.
  A resolver answer of None fails the request as `NameNotResolved`.

Browser-level Fetch (rather than per-target auto-attach) covers targets
created later without pausing them at start, and leaves Playwright's own
interception (`page.route`) in front: a route handled by user code never
reaches this one. When the connection drops while the browser lives, requests
go to the network as they would without interception, so it is logged.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import itertools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import websockets
from websockets.exceptions import ConnectionClosed

from tui.emulator.browser.backend import SiteResolver, SiteResponse

log = logging.getLogger(__name__)

ENABLE_TIMEOUT_SECONDS = 5.0
_PATTERNS = [
    {"urlPattern": "http://*", "requestStage": "Request"},
    {"urlPattern": "https://*", "requestStage": "Request"},
]
_ENABLE_ID = 1


class InterceptionFailed(RuntimeError):
    """The browser did not accept request interception."""


def is_local_url(url: str) -> bool:
    """True for URLs on this machine (loopback, localhost, the unspecified address)."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


class SiteInterceptor:
    """One browser's request interception, answering from a `SiteResolver` (see module doc).

    Use `await SiteInterceptor.start(ws_endpoint, resolver)`; `aclose()` ends it.
    """

    def __init__(self, connection: Any, resolver: SiteResolver, label: str) -> None:
        self._ws = connection
        self._resolver = resolver
        self._label = label
        self._ids = itertools.count(_ENABLE_ID + 1)
        self._held: set[asyncio.Task[None]] = set()
        self._closing = False
        self._reader = asyncio.create_task(self._read(), name=f"site-interception {label}")

    @classmethod
    async def start(
        cls, endpoint: str | Callable[[], Awaitable[Any]], resolver: SiteResolver, label: str = ""
    ) -> SiteInterceptor:
        """Connect to the browser (its DevTools websocket URL, or an opener of an in-process
        connection such as the backend's multiplexer) and turn interception on before returning."""
        try:
            if callable(endpoint):
                connection = await asyncio.wait_for(endpoint(), ENABLE_TIMEOUT_SECONDS)
            else:
                connection = await websockets.connect(
                    endpoint, max_size=None, compression=None, ping_interval=None, open_timeout=ENABLE_TIMEOUT_SECONDS
                )
        except (OSError, TimeoutError, RuntimeError, ConnectionClosed, websockets.InvalidHandshake) as exc:
            raise InterceptionFailed(f"cannot reach the browser's DevTools endpoint: {exc}") from exc
        try:
            await connection.send(
                json.dumps({"id": _ENABLE_ID, "method": "Fetch.enable", "params": {"patterns": _PATTERNS}})
            )
            # Nothing is intercepted before this reply, so it is the first message.
            reply = json.loads(await asyncio.wait_for(connection.recv(), ENABLE_TIMEOUT_SECONDS))
            if "error" in reply:
                raise InterceptionFailed(f"Fetch.enable refused: {reply['error'].get('message')}")
        except BaseException as exc:
            await connection.close()
            if isinstance(exc, (TimeoutError, ConnectionClosed)):
                raise InterceptionFailed(f"the browser did not enable request interception: {exc!r}") from exc
            raise
        return cls(connection, resolver, label)

    async def aclose(self) -> None:
        """Stop answering: cancel held answers, end the reader, close the connection."""
        self._closing = True
        tasks = [self._reader, *self._held]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(OSError, ConnectionClosed):
            await self._ws.close()

    # --- internals -------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                message = json.loads(raw)
                if message.get("method") == "Fetch.requestPaused":
                    await self._answer(message["params"])
                elif "error" in message:
                    # e.g. a request the page cancelled while its answer was held back
                    log.debug("site interception %s: %s", self._label, message["error"])
        except ConnectionClosed:
            pass
        if not self._closing:
            log.info("site interception of browser %s ended with its connection", self._label)

    async def _answer(self, paused: dict[str, Any]) -> None:
        request_id = paused["requestId"]
        url = paused["request"]["url"]
        if is_local_url(url):
            await self._send("Fetch.continueRequest", {"requestId": request_id})
            return
        try:
            response = self._resolver(url)
        except Exception:
            log.exception("site resolver failed for %s", url)
            await self._send("Fetch.failRequest", {"requestId": request_id, "errorReason": "Failed"})
            return
        if response is None:
            await self._send("Fetch.failRequest", {"requestId": request_id, "errorReason": "NameNotResolved"})
        elif response.delay > 0:
            task = asyncio.create_task(self._fulfil_later(request_id, response))
            self._held.add(task)
            task.add_done_callback(self._held.discard)
        else:
            await self._fulfil(request_id, response)

    async def _fulfil_later(self, request_id: str, response: SiteResponse) -> None:
        await asyncio.sleep(response.delay)
        with contextlib.suppress(ConnectionClosed):
            await self._fulfil(request_id, response)

    async def _fulfil(self, request_id: str, response: SiteResponse) -> None:
        await self._send(
            "Fetch.fulfillRequest",
            {
                "requestId": request_id,
                "responseCode": response.status,
                "responseHeaders": [{"name": name, "value": value} for name, value in response.headers.items()],
                "body": base64.b64encode(response.body).decode("ascii"),
            },
        )

    async def _send(self, method: str, params: dict[str, Any]) -> None:
        # Replies are not awaited: a failure (a cancelled request) is only logged by the reader.
        await self._ws.send(json.dumps({"id": next(self._ids), "method": method, "params": params}))
