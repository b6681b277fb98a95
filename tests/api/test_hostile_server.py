"""The client keeps its promises against a hostile server on a real socket (issue 9, part 5).

A body can neither exhaust its memory (gzip bomb, endless body) nor its stack
(deep JSON), and a required field that is missing is a typed error: answers no
emulator gives, so a hand-written server gives them. Every failure is a
`WdsError`. The timeout against a trickling or failing service, which the
emulator's fault rules give: test_call_budget.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.mock_service import API_KEY
from tests.support.hostile_server import BIG_MAP_LINKS, SPACES_BYTES, HostileServer, big_map
from tui.api import errors
from tui.api.body_reader import ANSWER_MAX_BYTES, MAP_LINK_MAX_BYTES
from tui.api.client import WdsClient
from tui.contract.limits import MAP_LIMIT_DEFAULT, MAP_LIMIT_MAX

pytestmark = pytest.mark.socket

REPO = Path(__file__).resolve().parents[2]
# What a loaded 2-core box may add to a deadline before the error reaches the caller.
SLACK = 1.5


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    with HostileServer.start() as hostile:
        yield hostile


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


async def test_a_map_answer_is_capped_by_the_links_it_asked_for(server: HostileServer) -> None:
    # 6,000 links of 1 KB are fine for a map of 100,000, not for one of 10 (which gets the floor of any answer)
    async with WdsClient(server.base_url("bigmap"), API_KEY, timeout=20) as client:
        assert len((await client.map("https://example.com", limit=MAP_LIMIT_MAX)).links) == BIG_MAP_LINKS
        with pytest.raises(errors.ResponseTooLargeError) as caught:
            await client.map("https://example.com", limit=10)
    assert caught.value.limit == ANSWER_MAX_BYTES


async def test_a_compressed_answer_cut_short_is_a_decoding_error(server: HostileServer) -> None:
    # the JSON inflated is whole, but the gzip checksum that would vouch for it never came
    async with WdsClient(server.base_url("cutgzip"), API_KEY, timeout=10) as client:
        with pytest.raises(errors.InvalidResponseError, match="gzip data ends before its stream does"):
            await client.team.activity()


RSS_PROBE = """
import asyncio, json, resource, sys
from tests.support.hostile_server import HostileServer, deflate_bomb, gzip_bomb
from tui.api.client import WdsClient

behaviour, call, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])

async def main(url):
    async with WdsClient(url + "/ok", "wds-key", timeout=30) as client:
        await client.team.activity()  # everything imported and warmed up
        await client.map("https://example.com")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    error = {}
    async with WdsClient(url + "/" + behaviour, "wds-key", timeout=60) as client:
        try:
            await (client.map("https://example.com", limit=limit or None) if call == "map" else client.team.activity())
        except Exception as exc:
            error = {"error": type(exc).__name__, "limit": getattr(exc, "limit", None), "message": str(exc)}
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(json.dumps({**error, "growth": growth * 1024}))

{"bomb": gzip_bomb, "deflatebomb": deflate_bomb}.get(behaviour, list)()  # made before the count starts
with HostileServer.start() as server:
    asyncio.run(main(f"http://127.0.0.1:{server.port}"))
"""


def _probe(behaviour: str, call: str, limit: int = 0) -> dict[str, Any]:
    """Meet `behaviour` on `call` in a process of its own: the peak RSS (ru_maxrss) is the process's."""
    result = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, behaviour, call, str(limit)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        check=True,
    )
    return json.loads(result.stdout)


# A map asked for no `limit` lists the service's default 5,000 links at most.
DEFAULT_MAP_CAP = MAP_LIMIT_DEFAULT * MAP_LINK_MAX_BYTES


@pytest.mark.parametrize(
    ("behaviour", "call", "cap"),
    [
        ("bomb", "activity", ANSWER_MAX_BYTES),
        ("deflatebomb", "activity", ANSWER_MAX_BYTES),
        # before: the cap of every map was that of the largest (244 MiB); the gzip bomb
        # fit under it (+800 MiB, "an empty body"), the deflate bomb held +247 MiB
        ("bomb", "map", DEFAULT_MAP_CAP),
        ("deflatebomb", "map", DEFAULT_MAP_CAP),
    ],
)
def test_a_compression_bomb_is_refused_within_twice_the_cap(behaviour: str, call: str, cap: int) -> None:
    seen = _probe(behaviour, call)
    assert (seen.get("error"), seen.get("limit")) == ("ResponseTooLargeError", cap)
    assert seen["growth"] < 2 * cap, f"peak RSS grew by {seen['growth'] // 2**20} MiB"


def test_a_body_of_whitespace_under_the_cap_is_named_and_costs_under_twice_the_cap() -> None:
    # 40 MiB of spaces where a map of 20,000 links (cap 51.2 MB) was asked for: read, refused as
    # not JSON. Before: "an empty body", and +160 MiB (the body decoded again for the message).
    links = 20_000
    seen = _probe("spaces", "map", links)
    assert seen.get("error") == "ResponseNotJSONError"
    assert f"a body of {SPACES_BYTES:,} bytes of whitespace and nothing else" in seen["message"]
    assert seen["growth"] < 2 * links * MAP_LINK_MAX_BYTES, f"peak RSS grew by {seen['growth'] // 2**20} MiB"
