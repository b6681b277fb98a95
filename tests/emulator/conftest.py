"""Fixtures for the emulator's tests: a seeded emulator on a manual clock, driven over ASGI.

Tests talk plain HTTP with httpx (not our client) so they check the wire as any
caller would see it. Teams: `alpha` (two keys) and `beta` (one key).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

import httpx
import pytest

from tests.support.recording_backend import RecordingBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

ALPHA_KEY = "wds-" + "a1" * 16
ALPHA_KEY_2 = "wds-" + "a2" * 16
BETA_KEY = "wds-" + "b1" * 16
UNKNOWN_KEY = "wds-" + "ff" * 16
START = datetime(2025, 6, 15, 12, 0, tzinfo=UTC)


def auth(key: str) -> dict[str, str]:
    """The bearer header for `key`."""
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def backend() -> RecordingBackend:
    return RecordingBackend()


@pytest.fixture
def make_emulator(clock: ManualClock) -> Callable[..., Emulator]:
    """Build an emulator with the standard teams; keyword arguments override the defaults."""

    def make(**kw: object) -> Emulator:
        options: dict[str, object] = {"seed": 7, "clock": clock, "history": False}
        options.update(kw)
        return Emulator.from_keys({"alpha": [ALPHA_KEY, ALPHA_KEY_2], "beta": [BETA_KEY]}, **options)  # type: ignore[arg-type]

    return make


@pytest.fixture
def emulator(make_emulator: Callable[..., Emulator]) -> Emulator:
    """No seeded history (tests count entries), no browser."""
    return make_emulator()


@pytest.fixture
def browser_emulator(make_emulator: Callable[..., Emulator], backend: RecordingBackend) -> Emulator:
    """Like `emulator`, with the recording browser backend."""
    return make_emulator(browser_backend=backend)


def client_for(emulator: Emulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(emulator)), base_url="http://emulator.test")


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(emulator) as c:
        yield c
    await emulator.aclose()


@pytest.fixture
async def browser_client(browser_emulator: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(browser_emulator) as c:
        yield c
    await browser_emulator.aclose()
