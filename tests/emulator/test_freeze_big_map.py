"""Issue 11: maps of 100,000 links are answered without holding up other teams' requests."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from starlette.responses import JSONResponse

from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tui.contract.requests import MapRequest
from tui.emulator.http.big_json import encode_json
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator
from tui.emulator.sites.sizes import BIGGEST_HOST

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = pytest.mark.serial


@pytest.mark.socket
def test_maps_of_the_biggest_site_back_to_back_leave_the_loop_free(emulator: Emulator) -> None:
    body = {"url": f"https://{BIGGEST_HOST}/", "limit": 100_000}
    with ServerThread(emulator) as base_url:

        def bad() -> list[int]:
            with httpx.Client(base_url=base_url, headers=auth(ALPHA_KEY), timeout=60) as c:
                # Counted, not parsed: parsing 21 MiB here would hold this process's GIL, the server's too.
                return [c.post("/v2/map", json=body).content.count(b'"url":') for _ in range(4)]

        latencies, run = activity_latencies_while(base_url, bad, lead_seconds=0.05)
        assert run.error is None and run.result == [100_000] * 4
        assert_loop_free(latencies)


def test_a_sliced_encoding_writes_the_bytes_jsonresponse_writes() -> None:
    links = [{"url": f"https://example.com/{i}", "title": f"Pâge {i}", "description": 'd"q'} for i in range(4500)]
    for payload in (
        {"success": True, "links": links},
        {"success": True, "links": []},
        {"success": True, "status": "completed", "next": "https://x/?skip=2", "data": links[:3]},
    ):
        key = "links" if "links" in payload else "data"
        assert encode_json(payload, key) == JSONResponse(payload).body


async def test_other_requests_are_answered_while_a_big_map_is_built(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    """In one process, one event loop: activity calls made during a 100,000-link map are answered at once.

    Encoding the map in one go holds the loop for as long as `one_go` takes (about 0.15 s
    here); a probe waiting that long means the map froze everyone else.
    """
    body = {"url": f"https://{BIGGEST_HOST}/", "limit": 100_000}
    links = emulator.jobs.list_map(MapRequest.model_validate(body))
    started = time.perf_counter()
    JSONResponse({"success": True, "links": links})
    one_go = time.perf_counter() - started

    big = asyncio.create_task(client.post("/v2/map", json=body, headers=auth(ALPHA_KEY)))
    await asyncio.sleep(0)  # the map is under way
    # When each probe was answered: a frozen loop shows as a gap between two of them
    # (or before the loop sees the map done), whether a probe or a pause was waiting.
    answered = [time.perf_counter()]
    while not big.done():
        assert (await client.get("/v2/team/activity", headers=auth(BETA_KEY))).status_code == 200
        answered.append(time.perf_counter())
        await asyncio.sleep(0.005)
    answered.append(time.perf_counter())
    response = await big
    assert response.status_code == 200 and response.content.count(b'"url":') == 100_000
    assert len(answered) >= 7, "the map answered before anyone else could ask"
    gaps = [later - earlier for earlier, later in zip(answered, answered[1:], strict=False)]
    assert max(gaps) < one_go / 2, (round(one_go, 3), [round(s, 3) for s in sorted(gaps)[-5:]])
