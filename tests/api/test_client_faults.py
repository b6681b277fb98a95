"""Our client (`WdsClient`) through the emulator's fault rules, over a real socket.

A 429 with `Retry-After` is waited out and sent again, whatever the method (nothing happened
on the service); a wait longer than `max_retry_wait` is not sat through: the `RateLimitError`
comes at once, carrying the wait asked for. The rule's `fired` count shows each attempt met.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.api.mock_service import API_KEY
from tests.support.faulty_emulator import Faults, faulty_emulator
from tui.api import errors
from tui.api.client import WdsClient

pytestmark = pytest.mark.socket


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Faults]]:
    with faulty_emulator({"ops": [API_KEY]}, seed=3) as served:
        yield served


@pytest.fixture
def faults(served: tuple[str, Faults]) -> Iterator[Faults]:
    yield served[1]
    served[1].clear()


@pytest.mark.parametrize("method", ["GET", "POST"])
async def test_a_429_is_waited_out_for_its_retry_after_then_sent_again(
    served: tuple[str, Faults], faults: Faults, method: str
) -> None:
    path = "/v2/team/activity" if method == "GET" else "/v2/map"
    rule = faults.add(method=method, path=path, status=429, retry_after=1, times=1)
    async with WdsClient(served[0], API_KEY, max_retries=2) as client:
        started = time.monotonic()
        if method == "GET":
            await client.team.activity()
        else:
            assert (await client.map("https://example.com", limit=3)).links
        elapsed = time.monotonic() - started
    assert faults.fired(rule) == 1
    assert 1.0 <= elapsed < 3.0, f"answered after {elapsed:.2f} s, not after the 1 s asked for"


async def test_a_wait_longer_than_the_client_sits_through_is_raised_at_once(
    served: tuple[str, Faults], faults: Faults
) -> None:
    rule = faults.add(method="GET", path="/v2/team/activity", status=429, retry_after=120)
    async with WdsClient(served[0], API_KEY, max_retries=2, max_retry_wait=60) as client:
        started = time.monotonic()
        with pytest.raises(errors.RateLimitError) as caught:
            await client.team.activity()
    assert time.monotonic() - started < 1
    assert caught.value.retry_after == 120 and faults.fired(rule) == 1
