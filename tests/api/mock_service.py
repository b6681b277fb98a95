"""The client's unit tests' mock service: what answers behind an httpx.MockTransport.

`Recorder` answers from a queue or a handler and keeps every request; `SleepRecorder`
stands in for asyncio.sleep; `json_response` and `error_body` build answers in the
service's shapes; API_KEY, BASE_URL, JOB_ID and SESSION_ID are the tests' fixed values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

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
