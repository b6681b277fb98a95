"""Shared pieces of the docs search tests: the emulator behind an ASGI wrapper that can hold or fail a question.

Errors come from the emulator itself behind `DocsSearchFaults` (hold a
question's request, answer a chosen status) and `DroppingTransport` (lose the
connection): our client is never mocked. The fixtures here replace conftest's
`emulator`, `transport` and `client` in the test files that import them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from starlette.responses import JSONResponse
from textual.pilot import Pilot
from textual.widgets import Static

from tests.support.dashboard import BASE_URL, PaneHost, client_over, seeded_emulator, wait_until
from tui.api.client import WdsClient
from tui.dashboard.features.support.docs_search import DocsSearchScreen
from tui.dashboard.shell.intents import OpenDocsSearch
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

SEARCH_PATH = "/v2/support/docs-search"


class DocsSearchFaults:
    """An ASGI wrapper around the emulator: logs each docs-search question, and can hold or fail them."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.asked: list[str] = []
        self.held: dict[str, asyncio.Event] = {}
        self.answer: tuple[int, Any, dict[str, str]] | None = None  # (status, body, headers) instead of the emulator's

    def hold(self, question: str) -> asyncio.Event:
        """Keep the request for `question` waiting until the returned event is set."""
        self.held[question] = asyncio.Event()
        return self.held[question]

    def fail(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        """Answer every docs search with `status` and the support endpoints' error body."""
        self.answer = (status, {"error": message}, headers or {})

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != SEARCH_PATH:
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        question = json.loads(body)["question"]
        self.asked.append(question)
        if question in self.held:
            await self.held[question].wait()
        if self.answer is not None:
            status, payload, headers = self.answer
            await JSONResponse(payload, status_code=status, headers=headers)(scope, receive, send)
            return

        async def replay() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class DroppingTransport(httpx.AsyncBaseTransport):
    """The ASGI app in-process; with `dropped`, the connection is lost instead."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.dropped = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.dropped:
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    return seeded_emulator(clock=clock, history=False)


@pytest.fixture
def faults(emulator: Emulator) -> DocsSearchFaults:
    return DocsSearchFaults(create_app(emulator))


@pytest.fixture
def transport(faults: DocsSearchFaults) -> DroppingTransport:  # type: ignore[override]
    return DroppingTransport(faults)


@pytest.fixture
async def client(transport: DroppingTransport) -> AsyncIterator[WdsClient]:
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        yield client_over(http)


def host(client: WdsClient) -> PaneHost:
    return PaneHost(lambda: Static("dashboard"), navigator=Navigator(client))


async def open_search(pilot: Pilot[Any], query: str = "") -> DocsSearchScreen:
    pilot.app.post_message(OpenDocsSearch(query))
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DocsSearchScreen), "the docs search screen")
    await pilot.pause()
    return pilot.app.screen  # type: ignore[return-value]


def status(screen: DocsSearchScreen) -> str:
    return str(screen.query_one("#docs-status", Static).content)


def shown_titles(screen: DocsSearchScreen) -> list[str]:
    return [result.title for result in screen.results]


async def searched(pilot: Pilot[Any], screen: DocsSearchScreen, question: str) -> None:
    """Wait until the results on show answer `question`."""
    await wait_until(
        pilot, lambda: screen.memory.answered == question and screen.searching is None, f"results for {question!r}"
    )
    await pilot.pause()
