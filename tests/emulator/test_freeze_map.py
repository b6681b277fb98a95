"""Issue 9: map's `search` is bounded and cheap, so a long one cannot hold up other teams."""

from __future__ import annotations

import random
import string

import httpx
import pytest

from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.contract.limits import MAP_SEARCH_MAX
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = pytest.mark.serial

SITE = "https://lumen-labs.io/"


def random_words(chars: int, seed: int = 9) -> str:
    """Distinct made-up words: the costliest text to tokenize and rank."""
    rng = random.Random(seed)
    text = " ".join(
        "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(2, 9))) for _ in range(chars // 3)
    )
    return text[:chars]


async def test_a_search_past_the_bound_answers_400_in_the_error_shape(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/map", json={"url": SITE, "search": "x" * (MAP_SEARCH_MAX + 1)}, headers=auth(ALPHA_KEY)
    )
    body = response.json()
    assert response.status_code == 400 and body["success"] is False and body["code"] == "BAD_REQUEST"
    assert body["details"] == [
        {"path": ["search"], "message": f"String should have at most {MAP_SEARCH_MAX} characters"}
    ]
    # Refused before it costs anything: no map is billed or listed.
    activity = (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).json()
    assert activity["data"] == []


async def test_a_search_at_the_bound_still_ranks(client: httpx.AsyncClient) -> None:
    search = ("pricing " + random_words(MAP_SEARCH_MAX))[:MAP_SEARCH_MAX]
    response = await client.post("/v2/map", json={"url": SITE, "search": search}, headers=auth(ALPHA_KEY))
    assert response.status_code == 200
    assert "pricing" in response.json()["links"][0]["url"]


@pytest.mark.socket
def test_the_issues_200_kb_search_is_refused_at_once(emulator: Emulator) -> None:
    body = {"url": SITE, "search": random_words(200_000)}
    with ServerThread(emulator) as base_url:

        def bad() -> httpx.Response:
            return httpx.post(f"{base_url}/v2/map", json=body, headers=auth(ALPHA_KEY), timeout=30)

        latencies, search = activity_latencies_while(base_url, bad, lead_seconds=0.1)
        assert search.error is None and search.result.status_code == 400
        assert_loop_free(latencies)


@pytest.mark.socket
def test_searches_at_the_bound_back_to_back_leave_the_loop_free(emulator: Emulator) -> None:
    searches = [random_words(MAP_SEARCH_MAX, seed) for seed in range(20)]
    with ServerThread(emulator) as base_url:

        def bad() -> list[int]:
            with httpx.Client(base_url=base_url, headers=auth(ALPHA_KEY), timeout=30) as c:
                return [c.post("/v2/map", json={"url": SITE, "search": search}).status_code for search in searches]

        latencies, run = activity_latencies_while(base_url, bad, lead_seconds=0.05)
        assert run.error is None and run.result == [200] * 20
        assert_loop_free(latencies)
