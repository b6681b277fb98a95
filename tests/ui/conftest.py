"""Fixtures of the dashboard's tests (the helpers they use are in tests/support/dashboard.py).

`clock` (a manual clock at NOW), `emulator` (the standard picture on that clock;
a test file overrides it for another seed or no history), `transport` (that
emulator behind the 503 switch), `client` (our client on it), `backend` (a
recording browser backend, no Chromium); every test runs with local time UTC.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from tests.support.dashboard import BASE_URL, NOW, SwitchableTransport, client_over, seeded_emulator
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


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


@pytest.fixture
def clock() -> ManualClock:
    """The emulator's clock: tests move it to make jobs progress or expire."""
    return ManualClock(NOW)


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    """The standard picture (see `seeded_emulator`) on `clock`."""
    return seeded_emulator(clock=clock)


@pytest.fixture
def transport(emulator: Emulator) -> SwitchableTransport:
    """The test's `emulator` in-process, behind the 503 switch, logging the paths asked for."""
    return SwitchableTransport(emulator)


@pytest.fixture
async def client(transport: SwitchableTransport) -> AsyncIterator[WdsClient]:
    """Our client (key KEY) on `transport`; its connections are closed after the test."""
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        yield client_over(http)


@pytest.fixture
def backend() -> RecordingBackend:
    """A browser backend that starts nothing and records what it was asked."""
    return RecordingBackend()
