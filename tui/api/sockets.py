"""A WebSocket to the service, and how its failures read: the wire under `client.crawl.watch`.

The socket is reached at the base URL with `ws`/`wss` for `http`/`https`, the
key in the `Authorization: Bearer` header as on every call (as the SDKs'
watchers send it, and as the emulator checks it). What can go wrong becomes a
`tui.api.socket_errors` exception:

- the upgrade answered with an HTTP status (a service, proxy or emulator
  without the socket answers 403, 404, 400 ...), refused (nothing listens), or
  not answered in time: `SocketNotOfferedError`, so the caller polls instead.
  Redirects are not followed: the key would go with them.
- a close with a refusal code (`REFUSAL_STATUS`): `SocketRefusedError`;
- a close we sent for a message too long or not WebSocket: `SocketMessageError`;
- any other end before the crawl's (no close frame, 1001 going away, a ping
  not answered within `PING_SECONDS`): `SocketDroppedError`.

A message is at most `max_bytes` (inflated: a compressed message counts as it
unpacks) and at most `QUEUED_MESSAGES` wait unread, so the socket holds at
most a few messages' worth of memory whatever the server sends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Literal
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from tui.api.responses import excerpt
from tui.api.socket_errors import (
    SocketDroppedError,
    SocketError,
    SocketMessageError,
    SocketNotOfferedError,
    SocketRefusedError,
)
from tui.contract.loopback import is_loopback
from tui.contract.models.crawl_socket import REFUSAL_STATUS

Scrub = Callable[[str], str]

PING_SECONDS = 20.0
"""A ping every this many seconds, answered within as many, or the connection counts as lost."""
QUEUED_MESSAGES = 4
"""Messages received but not yet read that the socket keeps before it stops reading."""
CLOSE_SECONDS = 2.0
"""How long a close waits for the server's answer: leaving a screen must not wait on a silent server."""
_OURS_TOO_BIG = 1009  # the close code websockets sends for a message past max_size
_OURS_UNREADABLE = frozenset({1002, 1007})  # a protocol error, text that is not UTF-8


class _NoRedirects(connect):
    """`websockets.connect` that takes a redirect as the answer it is: no socket here."""

    def process_redirect(self, exc: Exception) -> Exception | str:
        return exc


def socket_url(base_url: str, path: str) -> str:
    """`ws://host/v2/...` for an `http://` base URL, `wss://` for `https://`."""
    scheme, rest = base_url.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}{path}"


async def open_socket(
    url: str, headers: Mapping[str, str], *, max_bytes: int, open_timeout: float | None, scrub: Scrub
) -> ClientConnection:
    """The connection, upgraded; `SocketNotOfferedError` when there is no socket to have there."""
    parts = urlsplit(url)
    # As the HTTP pool does (`client_setup.connection_pool`): this machine is reached directly.
    proxy: Literal[True] | None = None if parts.scheme == "ws" and is_loopback(parts.hostname or "") else True
    where = scrub(url)
    try:
        return await _NoRedirects(
            url,
            additional_headers=dict(headers),
            user_agent_header=headers.get("User-Agent"),
            proxy=proxy,
            open_timeout=open_timeout,
            ping_interval=PING_SECONDS,
            ping_timeout=PING_SECONDS,
            close_timeout=CLOSE_SECONDS,
            max_size=max_bytes,
            max_queue=QUEUED_MESSAGES,
        )
    except InvalidStatus as exc:
        status = exc.response.status_code
        message = f"the WebSocket upgrade was answered with HTTP {status}"
        raise SocketNotOfferedError(message, status=status, url=where) from None
    except TimeoutError:
        message = f"the WebSocket upgrade was not answered within {open_timeout:g} s"
        raise SocketNotOfferedError(message, url=where) from None
    except (InvalidHandshake, InvalidURI) as exc:
        message = f"the WebSocket upgrade failed ({scrub(excerpt(str(exc), 120))})"
        raise SocketNotOfferedError(message, url=where) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SocketNotOfferedError(f"no WebSocket could be opened: {scrub(reason)}", url=where) from None


def close_reason(text: str) -> str:
    """The words of a close reason: its JSON `error` (`{"type": "error", "error": ...}`) or the text itself."""
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return str(body["error"])
    return text


def closed_error(closed: ConnectionClosed, url: str, max_bytes: int, scrub: Scrub) -> SocketError:
    """What a close before the crawl's end means (the crawl's own end, 1000, is the caller's)."""
    sent = closed.sent
    if sent is not None and sent.code == _OURS_TOO_BIG:
        limit = f"{max_bytes / 1024 / 1024:g} MiB"
        return SocketMessageError(f"the service sent a live update longer than {limit}; not read", url=url)
    if sent is not None and sent.code in _OURS_UNREADABLE and closed.rcvd is None:
        message = f"the service broke the WebSocket protocol ({scrub(excerpt(sent.reason, 120))})"
        return SocketMessageError(message, url=url)
    if closed.rcvd is None:
        return SocketDroppedError("the live connection was lost before the crawl ended", url=url)
    code, said = closed.rcvd.code, scrub(excerpt(close_reason(closed.rcvd.reason), 200))
    status = REFUSAL_STATUS.get(code)
    if status is not None:
        message = f"the service refused live updates (close {code}): {said or 'no reason given'}"
        return SocketRefusedError(message, close_code=code, status=status, url=url)
    reason = f": {said}" if said else ""
    return SocketDroppedError(f"the service closed the live connection (code {code}){reason}", url=url)
