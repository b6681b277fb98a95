"""A service whose every text is hostile: the real emulator behind a middleware that poisons its answers.

The emulator answers the whole contract with real state, but its texts are
its own (it refuses an ESC in a URL, it writes its own titles and answers).
`Poisoned` passes each request to it (and each message of its crawl
WebSocket) and appends `hostile_text.hostile(mark)`
to every string it sends under a key that names a text a person reads (a
title, a description, a URL, a target, an answer, an error, ...), the mark
naming the key (`XtitleX`): map titles and descriptions, docs results, the
support answer and every error body of the service carry the payload.
Ids, cursors, states and the browser's URLs are left alone, so the dashboard
can still follow them. Two calls fail on purpose with a hostile error body:
cancelling a crawl (500) and mapping a URL that holds "refused" (400). The
list of browser sessions names a hostile profile for each (the contract's list
has none; a service may add it, and the dashboard shows it).

`serve(app)` runs it on uvicorn on a loopback port, in a thread, for a test
whose app runs in another process.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import uvicorn

from tests.e2e.hostile_text import ESCAPES_FIRST, hostile

TEXT_KEYS = frozenset(
    {
        "target",
        "url",
        "sourceURL",
        "title",
        "description",
        "markdown",
        "summary",
        "error",
        "warning",
        "answer",
        "reason",
        "pathOrUrl",
        "blockedBy",
        "attempted",
        "evidence",
        "message",
    }
)
"""Keys whose strings are read by a person (and never sent back as an id)."""
PROFILE = "P" + ESCAPES_FIRST
"""The profile each listed browser session has."""


def mark_of(key: str) -> str:
    """The mark in front of the payload appended to a text under `key`."""
    return f"X{key}X"


def poison(value: Any, key: str | None = None) -> Any:
    """`value` with the payload appended to every text under a key of `TEXT_KEYS`, however deep."""
    if isinstance(value, dict):
        return {name: poison(item, name) for name, item in value.items()}
    if isinstance(value, list):
        return [poison(item, key) for item in value]
    if isinstance(value, str) and key in TEXT_KEYS:
        return value + hostile(mark_of(key))
    return value


def error_body(status: int, mark: str, *, field: str | None = None) -> tuple[int, bytes]:
    body: dict[str, Any] = {"success": False, "error": hostile(mark), "code": "HOSTILE"}
    if field is not None:
        body["details"] = [{"path": [field], "message": hostile(mark + "Detail")}]
    return status, json.dumps(body).encode()


class Poisoned:
    """ASGI middleware: the wrapped app's JSON answers poisoned (see the module docstring)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":  # the crawl socket: its messages carry the same texts
            await self.app(scope, receive, partial(self._poisoned_message, send))
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_body = b""
        more = True
        while more:
            message = await receive()
            request_body += message.get("body", b"")
            more = message.get("more_body", False)
        fault = self._fault(scope["method"], scope["path"], request_body)
        if fault is not None:
            await self._answer(send, *fault)
            return

        async def replay() -> dict[str, Any]:
            return {"type": "http.request", "body": request_body, "more_body": False}

        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def keep(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, replay, keep)
        body = b"".join(chunks)
        headers = [(name, value) for name, value in start.get("headers", []) if name.lower() != b"content-length"]
        if any(name.lower() == b"content-type" and b"json" in value for name, value in headers):
            answer = json.loads(body)
            if scope["path"] == "/v2/browser" and isinstance(answer, dict):
                for session in answer.get("sessions") or []:  # a service that lists each session's profile
                    session.setdefault("profile", {"name": PROFILE})
            body = json.dumps(poison(answer)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": start["status"],
                "headers": [*headers, (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _poisoned_message(send: Any, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send" and message.get("text"):
            message = {**message, "text": json.dumps(poison(json.loads(message["text"])))}
        await send(message)

    @staticmethod
    def _fault(method: str, path: str, body: bytes) -> tuple[int, bytes] | None:
        if method == "DELETE" and path.startswith("/v2/crawl/"):
            return error_body(500, "XcancelX")
        if method == "POST" and path == "/v2/map" and b"refused" in body:
            return error_body(400, "XmapRefusedX", field="url")
        return None

    @staticmethod
    async def _answer(send: Any, status: int, body: bytes) -> None:
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


@contextmanager
def serve(app: Any, closing: Callable[[], Awaitable[None]] | None = None) -> Iterator[str]:
    """Serve `app` on a free loopback port, in a thread with its own event loop; yields its base URL.

    `closing` runs in that loop once the server has stopped (an emulator's `aclose`,
    which ends the browsers it started there).
    """
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off"))

    async def run() -> None:
        try:
            await server.serve()
        finally:
            if closing is not None:
                await closing()

    thread = threading.Thread(target=asyncio.run, args=(run(),), name="poisoned-service", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the poisoned service did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
