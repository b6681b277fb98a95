"""A short CDP conversation with a session's browser: one command at a time, each answer awaited.

The live view takes a screenshot or replays a click over one connection and
then closes it: no reconnecting, no page tracking, no events. That is all the
emulator needs of a CDP client, so it has this one of its own rather than
the client's (`tui.api.cdp.CdpClient`): the emulator depends on the contract,
not on the client.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # a screenshot arrives as base64 in one message
TIMEOUT_SECONDS = 10.0


class CdpCallError(Exception):
    """The browser could not be reached, closed the connection, did not answer in time, or answered an error."""


class CdpCall:
    """`async with CdpCall(ws_endpoint) as cdp: result = await cdp.send("Target.getTargets")`."""

    def __init__(self, endpoint: str, *, timeout: float = TIMEOUT_SECONDS) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._ws: Any = None

    async def __aenter__(self) -> CdpCall:
        try:
            self._ws = await websockets.connect(
                self.endpoint, open_timeout=self.timeout, max_size=MAX_MESSAGE_BYTES, compression=None
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
            raise CdpCallError(f"Could not connect to the browser: {exc}") from None
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._ws is not None:
            await self._ws.close()

    async def send(
        self, method: str, params: dict[str, Any] | None = None, *, session_id: str | None = None
    ) -> dict[str, Any]:
        """Send one command and return its `result` (events that arrive meanwhile are passed over)."""
        command_id = next(self._ids)
        message: dict[str, Any] = {"id": command_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        try:
            async with asyncio.timeout(self.timeout):
                await self._ws.send(json.dumps(message))
                async for raw in self._ws:
                    reply = json.loads(raw)
                    if reply.get("id") == command_id:
                        if "error" in reply:
                            error = reply["error"]
                            raise CdpCallError(f"{method} failed: {error.get('message')} ({error.get('code')})")
                        result: dict[str, Any] = reply.get("result", {})
                        return result
        except TimeoutError:
            raise CdpCallError(f"{method} got no reply within {self.timeout:g} s.") from None
        except ConnectionClosed:
            pass
        raise CdpCallError(f"The connection closed while sending {method}.")
