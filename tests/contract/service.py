"""The contract tests' service: one emulator in-process, its clock and browser backend, and the ways to call it.

`Service.client` is our client on it (retry waits recorded, never slept), `Service.raw`
a plain HTTP call that bypasses the client's validation, and `Service.sent` counts
the requests that reached the emulator (to prove a refused call sent nothing).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.support.emulator_teams import ALPHA_KEY, auth
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.contract.requests import ScrapeRequest
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller, Team
from tui.emulator.service import Emulator

BASE_URL = "http://emulator.test"
SITE = "https://acme-outdoor.com"
UNKNOWN_ID = "0d7c8e9f-1111-4222-8333-444455556666"
WEBHOOK_SECRET = "whsec-contract-secret"


class CountingTransport(httpx.AsyncBaseTransport):
    """The ASGI transport, keeping every request that reached it (to prove a call sent nothing)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass
class Service:
    """One emulator, its clock and browser backend, and the ways to call it."""

    emulator: Emulator
    clock: ManualClock
    backend: RecordingBackend
    transport: CountingTransport
    http: httpx.AsyncClient
    sleeps: list[float] = field(default_factory=list)

    def client(self, key: str = ALPHA_KEY, **options: Any) -> WdsClient:
        """Our client on this emulator; retry waits are recorded in `sleeps`, never slept."""
        return WdsClient(BASE_URL, key, http_client=self.http, sleep=self._sleep, **options)

    async def _sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    @property
    def sent(self) -> int:
        """How many requests have reached the emulator so far."""
        return len(self.transport.requests)

    async def raw(
        self, method: str, path: str, *, json: Any = None, params: Any = None, key: str | None = ALPHA_KEY
    ) -> httpx.Response:
        """A plain HTTP call, bypassing the client's validation (GET bodies go in the query)."""
        headers = auth(key) if key is not None else {}
        if method == "GET":
            return await self.http.request(method, path, params=params if params is not None else json, headers=headers)
        return await self.http.request(method, path, json=json, params=params, headers=headers)

    def team(self, key: str = ALPHA_KEY) -> Team:
        found = self.emulator.team_by_key(key)
        assert found is not None
        return found

    def caller(self, key: str = ALPHA_KEY) -> Caller:
        return Caller(self.team(key), key)

    def scrape_job(self, key: str = ALPHA_KEY, url: str = f"{SITE}/about", **options: Any) -> str:
        """A scrape job of the key's team, made by the emulator's own store (no HTTP)."""
        request = ScrapeRequest.model_validate({"url": url, **options})
        return str(self.emulator.jobs.create_scrape(self.caller(key), request).id)


MakeService = Callable[..., Awaitable[Service]]
