"""Many DevTools clients over one `--remote-debugging-pipe` connection to a browser.

Chromium started with `--remote-debugging-pipe` reads CDP messages from fd 3
and writes them to fd 4, each ended by a NUL byte; it opens no TCP port. The
pipe is one connection, but the emulator has several users of a browser at
once (site interception, live views, the CDP proxy, execute runners), each
speaking CDP as if it had the browser's root connection to itself.

The multiplexer gives each client a browser session of its own
(`Target.attachToBrowserTarget`, flat mode), which behaves like a root
connection: what a client sends without a `sessionId` goes to its browser
session S, and what arrives on S goes back without one. Message ids are
rewritten to ids unique on the pipe and restored in replies. Child sessions
(pages, workers) belong to the client whose session created them: the reply
to its `Target.attachToTarget` (any reply with a `sessionId` result) or an
`attachedToTarget` event on one of its sessions; their traffic is routed to it.
A client that leaves has its browser session detached, which detaches its
children and releases anything it held (paused targets, interception).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
from typing import Any

from websockets.exceptions import ConnectionClosed

log = logging.getLogger(__name__)

READ_LIMIT_BYTES = 1 << 30  # a full-page screenshot can be many MB in one message
ATTACH_TIMEOUT_SECONDS = 10.0


class MuxClosed(ConnectionClosed):
    """The client's connection to the browser has ended (client closed it, or the browser went).

    A websockets `ConnectionClosed`, so that code written for a websocket to the browser
    (the CDP proxy, site interception) handles the end of a client the same way.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(None, None)
        self.message = message

    def __str__(self) -> str:
        return self.message or "the connection to the browser is closed"


class CdpPipe:
    """The raw pipe: NUL-framed messages to and from the browser."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, read_fd: int, write_fd: int) -> CdpPipe:
        """Wrap the emulator's ends of the two pipes (the fds are owned from now on)."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=READ_LIMIT_BYTES)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb", 0))
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(write_fd, "wb", 0)
        )
        return cls(reader, asyncio.StreamWriter(transport, protocol, None, loop))

    async def receive(self) -> bytes | None:
        """The next message, None at the end (the browser closed its end: it exited)."""
        try:
            return (await self.reader.readuntil(b"\0"))[:-1]
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    async def send(self, message: bytes) -> None:
        self.writer.write(message + b"\0")
        await self.writer.drain()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


class MuxClient:
    """One client's view: a connection to the browser of its own (see module doc)."""

    def __init__(self, mux: CdpMultiplexer, browser_session: str) -> None:
        self._mux = mux
        self.browser_session = browser_session
        self.sessions: set[str] = {browser_session}
        self._inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    async def send(self, text: str | bytes) -> None:
        """Send one CDP message (JSON text) as the client wrote it."""
        if self.closed:
            raise MuxClosed("the connection to the browser is closed")
        await self._mux.forward(self, json.loads(text))

    async def recv(self) -> str:
        """The next message for this client (`MuxClosed` once the connection has ended)."""
        if self.closed and self._inbox.empty():
            raise MuxClosed("the connection to the browser is closed")
        message = await self._inbox.get()
        if message is None:
            self.closed = True
            raise MuxClosed("the connection to the browser is closed")
        return message

    def __aiter__(self) -> MuxClient:
        return self

    async def __aenter__(self) -> MuxClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def __anext__(self) -> str:
        try:
            return await self.recv()
        except MuxClosed:
            raise StopAsyncIteration from None

    def deliver(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self._inbox.put_nowait(json.dumps(message))

    def end(self) -> None:
        self.closed = True
        self._inbox.put_nowait(None)

    async def close(self) -> None:
        """Leave: the browser session is detached (its children with it)."""
        if not self.closed:
            self.end()
        await self._mux.release(self)


class CdpMultiplexer:
    """Routes many `MuxClient`s over one `CdpPipe` (see module doc); `closed` is set at the pipe's end."""

    def __init__(self, pipe: CdpPipe, label: str = "") -> None:
        self._pipe = pipe
        self._label = label
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[MuxClient | asyncio.Future[dict[str, Any]], int]] = {}
        self._owners: dict[str, MuxClient] = {}
        self._clients: set[MuxClient] = set()
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read(), name=f"cdp-mux {label}")

    async def call(
        self, method: str, params: dict[str, Any] | None = None, timeout: float = ATTACH_TIMEOUT_SECONDS
    ) -> dict[str, Any]:
        """Send a command on the pipe's own root and return its result (RuntimeError on a CDP error)."""
        if self.closed.is_set():
            raise MuxClosed("the browser's pipe is closed")
        message_id = next(self._ids)
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[message_id] = (reply, message_id)
        await self._pipe.send(json.dumps({"id": message_id, "method": method, "params": params or {}}).encode())
        try:
            answer = await asyncio.wait_for(reply, timeout)
        finally:
            self._pending.pop(message_id, None)
        if "error" in answer:
            raise RuntimeError(f"{method} failed: {answer['error'].get('message')}")
        return answer.get("result", {})

    async def connect(self) -> MuxClient:
        """A new client with a browser session of its own."""
        result = await self.call("Target.attachToBrowserTarget")
        client = MuxClient(self, result["sessionId"])
        self._owners[client.browser_session] = client
        self._clients.add(client)
        return client

    async def forward(self, client: MuxClient, message: dict[str, Any]) -> None:
        session = message.get("sessionId")
        if session is None:
            message["sessionId"] = client.browser_session
        elif self._owners.get(session) is not client:  # not the client's: as if it did not exist
            error = {"code": -32001, "message": "Session with given id not found."}
            client.deliver({"id": message.get("id"), "error": error})
            return
        message_id = next(self._ids)
        self._pending[message_id] = (client, message.get("id", 0))
        message["id"] = message_id
        if self.closed.is_set():
            raise MuxClosed("the browser's pipe is closed")
        await self._pipe.send(json.dumps(message).encode())

    async def release(self, client: MuxClient) -> None:
        if client not in self._clients:
            return
        self._clients.discard(client)
        for session in client.sessions:
            self._owners.pop(session, None)
        for message_id, (owner, _) in list(self._pending.items()):
            if owner is client:
                del self._pending[message_id]
        if not self.closed.is_set():
            with contextlib.suppress(Exception):
                await self._pipe.send(
                    json.dumps(
                        {
                            "id": next(self._ids),
                            "method": "Target.detachFromTarget",
                            "params": {"sessionId": client.browser_session},
                        }
                    ).encode()
                )

    async def aclose(self) -> None:
        """Stop reading and end every client (the browser itself is the backend's to stop)."""
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        self._finish()

    # --- the reader ----------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            while (raw := await self._pipe.receive()) is not None:
                try:
                    self._route(json.loads(raw))
                except Exception:  # noqa: BLE001 - one odd message must not end every client
                    log.exception("cdp mux %s: could not route a message", self._label)
        finally:
            self._finish()

    def _finish(self) -> None:
        if self.closed.is_set():
            return
        self.closed.set()
        self._pipe.close()
        for owner, _ in self._pending.values():
            if isinstance(owner, asyncio.Future) and not owner.done():
                owner.set_exception(MuxClosed("the browser's pipe closed"))
        self._pending.clear()
        for client in list(self._clients):
            client.end()
        self._clients.clear()

    def _route(self, message: dict[str, Any]) -> None:
        if "id" in message:
            entry = self._pending.pop(message["id"], None)
            if entry is None:
                return  # a reply to a detach we did not wait for
            owner, original_id = entry
            if isinstance(owner, asyncio.Future):
                if not owner.done():
                    owner.set_result(message)
                return
            result = message.get("result")
            if isinstance(result, dict) and isinstance(result.get("sessionId"), str):
                self._adopt(owner, result["sessionId"])
            message["id"] = original_id
            self._deliver(owner, message)
            return
        session = message.get("sessionId")
        method = message.get("method")
        params = message.get("params") or {}
        if session is None:  # the pipe's own root: only our browser sessions' comings and goings
            if method == "Target.detachedFromTarget":
                client = self._owners.get(params.get("sessionId", ""))
                if client is not None and client.browser_session == params.get("sessionId"):
                    client.end()
            return
        client = self._owners.get(session)
        if client is None:
            return
        if method == "Target.attachedToTarget" and isinstance(params.get("sessionId"), str):
            self._adopt(client, params["sessionId"])
        elif method == "Target.detachedFromTarget" and params.get("sessionId") in client.sessions:
            if params["sessionId"] != client.browser_session:
                client.sessions.discard(params["sessionId"])
                self._owners.pop(params["sessionId"], None)
        self._deliver(client, message)

    def _adopt(self, client: MuxClient, session: str) -> None:
        client.sessions.add(session)
        self._owners[session] = client

    @staticmethod
    def _deliver(client: MuxClient, message: dict[str, Any]) -> None:
        if message.get("sessionId") == client.browser_session:
            del message["sessionId"]
        client.deliver(message)
