"""The client's record of the calls on their way: what a dashboard names while its first answer is slow.

The slow service is the emulator with fault rules (a long latency holds every call; a 503 fails one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.api.mock_service import API_KEY
from tests.support.faulty_emulator import Faults, faulty_emulator
from tui.api import errors
from tui.api.client import WdsClient

pytestmark = pytest.mark.socket


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Faults]]:
    with faulty_emulator({"ops": [API_KEY]}) as served:
        yield served


@pytest.fixture
def base_url(served: tuple[str, Faults]) -> Iterator[str]:
    yield served[0]
    served[1].clear()


async def test_a_call_is_on_record_while_it_waits_and_gone_when_it_ends(
    base_url: str, served: tuple[str, Faults]
) -> None:
    served[1].add(path="/v2/*", latency=60_000)  # holds every call
    async with WdsClient(base_url, API_KEY, max_retries=0) as client:
        copy = client.with_options(max_retries=0)
        waiting = asyncio.create_task(client.team.activity())
        asked = asyncio.create_task(copy.crawl.active())
        for _ in range(200):
            if len(client.in_flight.now()) == 2:
                break
            await asyncio.sleep(0.01)
        # Oldest first, whichever copy of the client sent it.
        assert [str(call) for call in client.in_flight.now()] == ["GET /v2/team/activity", "GET /v2/crawl/active"]
        assert copy.in_flight.now() == client.in_flight.now()
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert [str(call) for call in client.in_flight.now()] == ["GET /v2/crawl/active"]
        asked.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asked
        assert client.in_flight.now() == []


async def test_a_failed_call_leaves_the_record(base_url: str, served: tuple[str, Faults]) -> None:
    served[1].add(path="/v2/crawl/active", status=503)
    async with WdsClient(base_url, API_KEY, max_retries=0) as client:
        with pytest.raises(errors.ServiceUnavailableError):
            await client.crawl.active()
        assert client.in_flight.now() == []
