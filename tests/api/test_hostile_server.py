"""The client keeps its promises against a hostile server on a real socket (issue 9, part 5).

Its timeout bounds the whole call, a body can neither exhaust its memory
(gzip bomb, endless body) nor its stack (deep JSON), and a required field
that is missing is a typed error. Every failure is a `WdsError`.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.api import errors
from tui.api.body_reader import ANSWER_MAX_BYTES
from tui.api.client import WdsClient
from tui.api.resources import map as map_resource

from .conftest import API_KEY
from .hostile_server import BIG_MAP_LINKS, HostileServer, big_map

pytestmark = pytest.mark.socket

REPO = Path(__file__).resolve().parents[2]
# What a loaded 2-core box may add to a deadline before the error reaches the caller.
SLACK = 1.5


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    with HostileServer.start(trickle_interval=0.5) as hostile:
        yield hostile


async def _timed(call: object) -> tuple[BaseException, float]:
    started = time.monotonic()
    with pytest.raises(errors.WdsError) as caught:
        # the guard only turns a hang into a failure; the client must give up long before
        await asyncio.wait_for(call, 30)  # type: ignore[arg-type]
    return caught.value, time.monotonic() - started


async def test_a_trickling_server_cannot_hold_activity_past_the_timeout(server: HostileServer) -> None:
    async with WdsClient(server.base_url("trickle"), API_KEY, timeout=2) as client:
        error, elapsed = await _timed(client.team.activity())
    assert isinstance(error, errors.APITimeoutError)
    assert "within the call's 2 s" in error.message
    assert 2 <= elapsed < 2 + SLACK, f"gave up after {elapsed:.2f} s"


async def test_a_trickling_server_cannot_hold_map_past_its_budget(
    server: HostileServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a map's budget is its own (60 s when the call sets no timeout): shortened to keep the test short
    monkeypatch.setattr(map_resource, "MAP_READ_TIMEOUT", 2.0)
    async with WdsClient(server.base_url("trickle"), API_KEY, timeout=1) as client:
        error, elapsed = await _timed(client.map("https://example.com"))
    assert isinstance(error, errors.APITimeoutError)
    assert "within the call's 2 s" in error.message
    assert 2 <= elapsed < 2 + SLACK, f"gave up after {elapsed:.2f} s"


async def test_retries_and_their_waits_stay_inside_the_budget(server: HostileServer) -> None:
    # five retries of a 503 would wait 0.5 + 1 + 2 + 4 + 8 s (less jitter); the budget is 1.5 s
    async with WdsClient(server.base_url("unavailable"), API_KEY, timeout=1.5, max_retries=5) as client:
        before = len(server.requests)
        error, elapsed = await _timed(client.crawl.active())
    assert isinstance(error, errors.ServiceUnavailableError)  # the last answer, not a timeout of our making
    assert len(server.requests) - before >= 2, "retried while there was time"
    assert elapsed < 1.5 + SLACK, f"gave up after {elapsed:.2f} s"


@pytest.mark.parametrize("call", ["activity", "map"])
async def test_deeply_nested_json_is_a_shape_error(server: HostileServer, call: str) -> None:
    async with WdsClient(server.base_url("deep"), API_KEY, timeout=10) as client:
        with pytest.raises(errors.ResponseShapeError, match="nested too deeply"):
            await (client.team.activity() if call == "activity" else client.map("https://example.com"))


@pytest.mark.parametrize("behaviour", ["bomb", "huge"])
async def test_an_answer_over_the_cap_is_refused_while_streaming(server: HostileServer, behaviour: str) -> None:
    async with WdsClient(server.base_url(behaviour), API_KEY, timeout=20) as client:
        with pytest.raises(errors.ResponseTooLargeError) as caught:
            await client.team.activity()
    assert caught.value.limit == ANSWER_MAX_BYTES
    assert f"longer than the {ANSWER_MAX_BYTES:,} bytes" in caught.value.message


async def test_a_map_may_be_longer_than_other_answers(server: HostileServer) -> None:
    assert len(big_map()) > ANSWER_MAX_BYTES
    async with WdsClient(server.base_url("bigmap"), API_KEY, timeout=20) as client:
        assert len((await client.map("https://example.com")).links) == BIG_MAP_LINKS
        with pytest.raises(errors.ResponseTooLargeError):
            await client.team.activity()


async def test_a_map_answer_without_links_is_a_shape_error(server: HostileServer) -> None:
    async with WdsClient(server.base_url("nolinks"), API_KEY, timeout=10) as client:
        with pytest.raises(errors.ResponseShapeError, match="links: Field required"):
            await client.map("https://example.com")


async def test_a_page_without_its_list_is_a_shape_error(server: HostileServer) -> None:
    async with WdsClient(server.base_url("nolinks"), API_KEY, timeout=10) as client:
        with pytest.raises(errors.ResponseShapeError, match="data: Field required"):
            await client.team.activity()
        with pytest.raises(errors.ResponseShapeError, match="crawls: Field required"):
            await client.crawl.active()


@pytest.mark.parametrize("behaviour", ["ok", "gzip", "deflate", "rawdeflate"])
async def test_the_same_server_answering_well_is_read(server: HostileServer, behaviour: str) -> None:
    async with WdsClient(server.base_url(behaviour), API_KEY, timeout=10) as client:
        assert (await client.map("https://example.com")).links == []
        assert (await client.team.activity()).entries == []


RSS_PROBE = """
import asyncio, resource, sys
from tests.api.hostile_server import HostileServer, gzip_bomb
from tui.api.client import WdsClient

async def main(url):
    async with WdsClient(url + "/ok", "wds-key", timeout=30) as client:
        await client.team.activity()  # everything imported and warmed up
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    async with WdsClient(url + "/bomb", "wds-key", timeout=30) as client:
        try:
            await client.team.activity()
        except Exception as exc:
            print(type(exc).__name__)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)

gzip_bomb()
with HostileServer.start() as server:
    asyncio.run(main(f"http://127.0.0.1:{server.port}"))
"""


def test_a_gzip_bomb_does_not_raise_the_clients_memory_by_hundreds_of_mb() -> None:
    # in a process of its own: the peak RSS (ru_maxrss) is the process's, not this test's
    result = subprocess.run(
        [sys.executable, "-c", RSS_PROBE], capture_output=True, text=True, timeout=120, cwd=REPO, check=True
    )
    error, growth_kib = result.stdout.split()
    assert error == "ResponseTooLargeError"
    # the cap (4 MiB) and a step of inflating; before the fix: +814 MiB
    assert int(growth_kib) < 32 * 1024, f"peak RSS grew by {int(growth_kib) // 1024} MiB"
