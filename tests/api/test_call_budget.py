"""The client's timeout bounds the whole call against a faulty service on a real socket (issue 9, part 5).

The service is the emulator with fault rules: a body sent at a trickle (2 bytes a second, a
byte every 0.5 s: httpx's timeouts are per read, so each byte restarts them) cannot hold a call
past its budget, and retries of a 503 with their waits stay inside it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from tests.api.mock_service import API_KEY
from tests.support.faulty_emulator import Faults, faulty_emulator
from tui.api import errors
from tui.api.client import WdsClient
from tui.api.resources import map as map_resource

pytestmark = pytest.mark.socket

# What a loaded 2-core box may add to a deadline before the error reaches the caller.
SLACK = 1.5


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Faults]]:
    with faulty_emulator({"ops": [API_KEY]}) as served:
        yield served


@pytest.fixture
def faults(served: tuple[str, Faults]) -> Iterator[Faults]:
    yield served[1]
    served[1].clear()


async def _timed(call: object) -> tuple[BaseException, float]:
    started = time.monotonic()
    with pytest.raises(errors.WdsError) as caught:
        # the guard only turns a hang into a failure; the client must give up long before
        await asyncio.wait_for(call, 30)  # type: ignore[arg-type]
    return caught.value, time.monotonic() - started


@pytest.mark.serial  # a deadline on the wall clock
async def test_a_trickling_server_cannot_hold_activity_past_the_timeout(
    served: tuple[str, Faults], faults: Faults
) -> None:
    faults.add(method="GET", path="/v2/team/activity", slow=2)
    async with WdsClient(served[0], API_KEY, timeout=2) as client:
        error, elapsed = await _timed(client.team.activity())
    assert isinstance(error, errors.APITimeoutError)
    assert "within the call's 2 s" in error.message
    assert 2 <= elapsed < 2 + SLACK, f"gave up after {elapsed:.2f} s"


@pytest.mark.serial  # a deadline on the wall clock
async def test_a_trickling_server_cannot_hold_map_past_its_budget(
    served: tuple[str, Faults], faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a map's budget is its own (60 s when the call sets no timeout): shortened to keep the test short
    monkeypatch.setattr(map_resource, "MAP_READ_TIMEOUT", 2.0)
    faults.add(method="POST", path="/v2/map", slow=2)
    async with WdsClient(served[0], API_KEY, timeout=1) as client:
        error, elapsed = await _timed(client.map("https://example.com"))
    assert isinstance(error, errors.APITimeoutError)
    assert "within the call's 2 s" in error.message
    assert 2 <= elapsed < 2 + SLACK, f"gave up after {elapsed:.2f} s"


@pytest.mark.serial  # a deadline on the wall clock
async def test_retries_and_their_waits_stay_inside_the_budget(served: tuple[str, Faults], faults: Faults) -> None:
    # five retries of a 503 would wait 0.5 + 1 + 2 + 4 + 8 s (less jitter); the budget is 1.5 s
    rule = faults.add(method="GET", path="/v2/crawl/active", status=503)
    async with WdsClient(served[0], API_KEY, timeout=1.5, max_retries=5) as client:
        error, elapsed = await _timed(client.crawl.active())
    assert isinstance(error, errors.ServiceUnavailableError)  # the last answer, not a timeout of our making
    assert faults.fired(rule) >= 2, "retried while there was time"
    assert elapsed < 1.5 + SLACK, f"gave up after {elapsed:.2f} s"
