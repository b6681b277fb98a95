"""The middleware that makes a request meet the fault rule it fires (`fault_rules`).

Just inside the body limit (`body_limit`, outermost), so that a fault shapes the whole answer as it
leaves, and so that a rule's team is known before anything else runs (read from the bearer key here, as the
auth middleware reads it). Never on the admin prefix, never on a websocket. Any other HTTP path
can meet a fault: the `/v2` API, `/openapi.json`, a live view's page.

In order: the rule's latency is slept (wall-clock seconds: it is a client's wait; the body that
arrives meanwhile is kept for the route, at most `MAX_BODY_BYTES` of it: past that the request is
answered 413 at once, as the body limit outside would); then a `reset`
ends the connection with a TCP RST before any byte of an answer, a `status` answers the
service's error body instead of the route, and `cut` and `slow` shape the body of whichever
answer goes out (`cut`: the head with its full Content-Length, then part of the body, then the
connection is closed; `slow`: the body in small pieces at the rule's bytes per second).

Over a socket (uvicorn, `header_deadline.HeaderDeadlineProtocol`) the request's transport is in
the scope's extensions (`TRANSPORT_EXTENSION`). In-process (httpx.ASGITransport) there is no
socket to reset or close: the middleware raises the error httpx raises for that failure on a
socket (`httpx.ReadError` for a reset, `httpx.RemoteProtocolError` for a cut body), which
ASGITransport hands to the caller. Every faulted answer carries `X-Emulator-Fault: <rule id>`.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from typing import Any

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tui.emulator.admin.guard import is_admin_path
from tui.emulator.core.teams import TeamDirectory
from tui.emulator.http.auth import bearer_token
from tui.emulator.http.body_limit import MAX_BODY_BYTES, body_too_large
from tui.emulator.http.errors import SUPPORT_PREFIX, ApiError
from tui.emulator.http.fault_rules import FaultRule, FaultRules

TRANSPORT_EXTENSION = "wds.transport"
"""The scope's `extensions` key under which the server hands the request's asyncio transport."""
FAULT_HEADER = b"x-emulator-fault"
# Pieces a slow body is sent in per second (each piece is the rate's tenth, at least a byte).
SLOW_PIECES_PER_SECOND = 10
FLUSH_SECONDS = 2.0

# What a status answers: the service's code and words (the contract: a 429 says how long to wait).
_STATUS_WORDS = {
    429: ("RATE_LIMITED", "Rate limit exceeded: too many requests. Please retry after {retry_after}s."),
    500: ("UNKNOWN_ERROR", "An unexpected error occurred. Please try again later."),
    502: ("BAD_GATEWAY", "Bad gateway: an upstream service did not answer properly."),
    503: ("SERVICE_UNAVAILABLE", "Service unavailable."),
    504: ("GATEWAY_TIMEOUT", "Gateway timeout: the request took too long to process."),
}


def fault_answer(rule: FaultRule, path: str) -> ApiError:
    """The error a rule's `status` answers, in the service's error body, with `Retry-After` when it has one."""
    assert rule.status is not None
    code, words = _STATUS_WORDS[rule.status]
    headers = {"Retry-After": str(rule.retry_after)} if rule.retry_after is not None else None
    message = words.format(retry_after=rule.retry_after)
    return ApiError(rule.status, message, code, headers=headers, support_style=path.startswith(SUPPORT_PREFIX))


class FaultInjectionMiddleware:
    """Apply the first fault rule a request fires; requests that fire none pass untouched."""

    def __init__(self, app: ASGIApp, rules: FaultRules, teams: TeamDirectory) -> None:
        self.app = app
        self.rules = rules
        self.teams = teams

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or not len(self.rules) or is_admin_path(path):
            await self.app(scope, receive, send)
            return
        token = bearer_token(scope)
        team = self.teams.by_key(token) if token is not None else None
        rule = self.rules.firing(scope["method"], path, team.name if team is not None else None)
        if rule is None:
            await self.app(scope, receive, send)
            return
        transport = scope.get("extensions", {}).get(TRANSPORT_EXTENSION)
        delay = self.rules.latency_seconds(rule)
        if delay > 0:
            still_there = await _wait_unless_gone(delay, receive, path)
            if still_there is None:
                return  # the client gave up waiting: nobody to answer
            receive = still_there
        if rule.reset:
            await _reset(transport, receive)
            return
        app = fault_answer(rule, path).response() if rule.status is not None else self.app
        shaper = _BodyShaper(rule, send, transport)
        await app(scope, receive, shaper.send)
        if shaper.was_cut:
            await _close_after_cut(transport, receive, shaper.sent)


class _BodyShaper:
    """The `send` of a faulted answer: marks its head, then cuts and paces its body as the rule says."""

    def __init__(self, rule: FaultRule, send: Send, transport: Any) -> None:
        self.rule = rule
        self.inner = send
        self.transport = transport  # None in-process
        self.keep: int | None = None  # body bytes still allowed out (a cut), None: all of them
        self.sent = 0
        self.was_cut = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", []), (FAULT_HEADER, str(self.rule.id).encode())]
            self.keep = self._bytes_kept(headers)
            await self.inner({**message, "headers": headers})
            return
        if message["type"] != "http.response.body":
            await self.inner(message)
            return
        if self.was_cut:
            return  # the rest of the body never leaves
        body: bytes = message.get("body", b"")
        more = bool(message.get("more_body", False))
        if self.keep is not None and (len(body) >= self.keep or not more):
            body, more, self.was_cut = body[: self.keep], True, True
        if self.keep is not None:
            self.keep -= len(body)
        await self._paced(body, more)
        self.sent += len(body)

    def _bytes_kept(self, headers: list[tuple[bytes, bytes]]) -> int | None:
        """How much of the body a cut lets out: never all of it, so the answer is always incomplete."""
        rule = self.rule
        if rule.cut is None:
            return None
        length = next((int(value) for name, value in headers if name.lower() == b"content-length"), None)
        if rule.cut_fraction is not None:
            kept = int((length or 0) * rule.cut_fraction)
        else:
            kept = rule.cut_bytes or 0
        return max(0, min(kept, length - 1)) if length else kept

    async def _paced(self, body: bytes, more: bool) -> None:
        rate = self.rule.slow
        if rate is None or not body:
            await self.inner({"type": "http.response.body", "body": body, "more_body": more})
            return
        piece = max(1, rate // SLOW_PIECES_PER_SECOND)
        for start in range(0, len(body), piece):
            last = start + piece >= len(body)
            chunk = body[start : start + piece]
            await self.inner({"type": "http.response.body", "body": chunk, "more_body": more or not last})
            if self.transport is not None and self.transport.is_closing():
                return  # the client gave up: the rest of a trickle would only hold the server
            if not last:
                await asyncio.sleep(len(chunk) / rate)


async def _wait_unless_gone(
    seconds: float, receive: Receive, path: str, max_kept: int = MAX_BODY_BYTES
) -> Receive | None:
    """Sleep `seconds`, or less if the client disconnects meanwhile (then None).

    A client that gives up on a long latency frees the server at once, as it would the real
    service. What the request's body sends meanwhile is kept, and the `receive` returned hands it
    to the app first; a body that grows past `max_kept` raises the 413 at once (the body limit
    outside counts it too: this cap holds whatever wraps the middleware).
    """
    kept: list[Message] = []
    kept_bytes = 0
    sleeping = asyncio.ensure_future(asyncio.sleep(seconds))
    try:
        while True:
            message = asyncio.ensure_future(receive())
            await asyncio.wait({sleeping, message}, return_when=asyncio.FIRST_COMPLETED)
            if not message.done():
                message.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await message
                break
            if message.result()["type"] == "http.disconnect":
                return None
            kept.append(message.result())
            kept_bytes += len(kept[-1].get("body", b""))
            if kept_bytes > max_kept:
                raise body_too_large(path, max_kept)
            if sleeping.done():
                break
    finally:
        sleeping.cancel()

    async def replaying() -> Message:
        return kept.pop(0) if kept else await receive()

    return replaying


async def _reset(transport: Any, receive: Receive) -> None:
    """End the connection with a TCP RST, before any answer."""
    if transport is None:
        raise httpx.ReadError(
            "[Errno 104] Connection reset by peer (a fault rule's reset, raised in-process: no socket to reset)"
        )
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            # Linger on, for 0 s: closing sends RST at once instead of FIN.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
    await _until_disconnected(receive)


async def _close_after_cut(transport: Any, receive: Receive, sent: int) -> None:
    """Close the connection once the part of the body that goes out has left."""
    if transport is None:
        raise httpx.RemoteProtocolError(
            f"peer closed connection without sending complete message body: received {sent} bytes "
            "(a fault rule's cut, raised in-process: no socket to close)"
        )
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(FLUSH_SECONDS):
            while transport.get_write_buffer_size() > 0 and not transport.is_closing():
                await asyncio.sleep(0.01)
    transport.close()
    await _until_disconnected(receive)


async def _until_disconnected(receive: Receive) -> None:
    """Wait for the server to see the connection gone, so it does not answer on it (or log a missing answer)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(FLUSH_SECONDS):
            while (await receive())["type"] != "http.disconnect":
                pass
