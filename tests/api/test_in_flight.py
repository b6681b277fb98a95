"""The client's record of the calls on their way: what a dashboard names while its first answer is slow."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.api.mock_service import API_KEY
from tests.support.hostile_server import HostileServer
from tui.api import errors
from tui.api.client import WdsClient

pytestmark = pytest.mark.socket


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    with HostileServer.start() as hostile:
        yield hostile


async def test_a_call_is_on_record_while_it_waits_and_gone_when_it_ends(server: HostileServer) -> None:
    async with WdsClient(server.base_url("stall"), API_KEY, max_retries=0) as client:
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


async def test_a_failed_call_leaves_the_record(server: HostileServer) -> None:
    async with WdsClient(server.base_url("unavailable"), API_KEY, max_retries=0) as client:
        with pytest.raises(errors.ServiceUnavailableError):
            await client.crawl.active()
        assert client.in_flight.now() == []
