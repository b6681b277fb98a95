"""Shared pieces of the dashboard's tests: a seeded emulator in-process, a frozen clock.

Every UI test runs on the real emulator through httpx's ASGI transport; a
switch makes the "service" answer 503 so failure paths can be shown without
mocks of the client itself.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import httpx
import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tui.api.client import WdsClient
from tui.api.redact import mask_key
from tui.app import Intervals, ServiceInfo, WdsApp
from tui.clock import frozen_clock
from tui.emulator.app import create_app
from tui.emulator.clock import ManualClock
from tui.emulator.state import Emulator

KEY = "wds-" + "5e" * 16
NOW = datetime(2025, 6, 15, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def utc_local_time() -> Iterator[None]:
    """The dashboard shows local time; tests pin it so pictures do not depend on the machine."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


class SwitchableTransport(httpx.AsyncBaseTransport):
    """The emulator in-process, with a switch that makes the service answer 503, and a request log."""

    def __init__(self, emulator: Emulator) -> None:
        self.inner = httpx.ASGITransport(app=create_app(emulator))
        self.failing = False
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        if self.failing:
            body = {"success": False, "error": "Service unavailable.", "code": "SERVICE_UNAVAILABLE"}
            return httpx.Response(503, json=body)
        return await self.inner.handle_async_request(request)


def client_on(transport: httpx.AsyncBaseTransport, key: str = KEY) -> WdsClient:
    """Our client on the in-process emulator, without retries (tests want the first answer)."""
    http = httpx.AsyncClient(transport=transport, base_url="http://emulator.test")
    return WdsClient("http://emulator.test", key, http_client=http, max_retries=0)


def seeded_emulator(seed: int = 11, **kw: object) -> Emulator:
    """The standard picture: one team with seeded history, on a frozen clock."""
    return Emulator.from_keys({"ops": [KEY]}, seed=seed, clock=ManualClock(NOW), **kw)  # type: ignore[arg-type]


def dashboard(
    emulator: Emulator, transport: httpx.AsyncBaseTransport | None = None, key: str = KEY
) -> WdsApp:
    """The whole dashboard on `emulator`, frozen in time, polling slowly (tests refresh by hand)."""
    client = client_on(transport or SwitchableTransport(emulator), key)
    slow = Intervals(crawls=3600, activity=3600, usage=3600, sessions=3600)
    service = ServiceInfo(host="127.0.0.1:3002", masked_key=mask_key(key), embedded=True)
    return WdsApp(client, service, clock=frozen_clock(NOW), intervals=slow)


async def wait_until(pilot: Pilot, predicate: Callable[[], bool], what: str, seconds: float = 5.0) -> None:
    """Poll the UI until `predicate` holds; fail naming `what` otherwise."""
    steps = int(seconds / 0.02)
    for _ in range(steps):
        if predicate():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def freeze_cursors(app: App) -> None:
    """Stop cursor blink so a picture does not depend on the instant it was taken."""
    for widget in app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False
