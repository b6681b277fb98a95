"""Fixtures for the emulator's tests: a seeded emulator on a manual clock, driven over ASGI.

Tests talk plain HTTP with httpx (not our client) so they check the wire as any
caller would see it. Teams: `alpha` (two keys) and `beta` (one key), from
tests/support/emulator_teams.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, START, client_for
from tests.support.recording_backend import RecordingBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


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
