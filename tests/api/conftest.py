"""Fixtures of the client's unit tests: a WdsClient over an httpx.MockTransport.

Mock transports are used only here, to drive the client's error handling
through answers a real server rarely gives (HTML error pages, broken JSON,
every status code). Behaviour against a real server is the contract tests' job.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tui.api.client import WdsClient

API_KEY = "wds-0123456789abcdef0123456789abcdef"
BASE_URL = "http://wds.test"
JOB_ID = "7f3e4b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
SESSION_ID = "5d0c3a1e-9b8f-4c7d-a6e5-f4d3c2b1a098"

Handler = Callable[[httpx.Request], httpx.Response]


@dataclass
class Recorder:
    """A mock transport that answers from a queue or a handler and keeps every request."""

    handler: Handler | None = None
    queue: list[httpx.Response | Exception] = field(default_factory=list)
    requests: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        if self.queue:
            item = self.queue.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        if self.handler is not None:
            return self.handler(request)
        raise AssertionError(f"unexpected request {request.method} {request.url}")

    @property
    def last(self) -> httpx.Request:
        assert self.requests, "no request was sent"
        return self.requests[-1]

    def last_json(self) -> Any:
        return json.loads(self.last.content)


@dataclass
class SleepRecorder:
    """Stands in for asyncio.sleep: records each wait, sleeps not at all."""

    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=body, headers=headers)


def error_body(message: str, code: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"success": False, "error": message, "code": code}
    if details is not None:
        body["details"] = details
    return body


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def sleeper() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
async def client(recorder: Recorder, sleeper: SleepRecorder) -> Any:
    http = httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    async with WdsClient(BASE_URL, API_KEY, http_client=http, sleep=sleeper) as wds:
        yield wds
    await http.aclose()
