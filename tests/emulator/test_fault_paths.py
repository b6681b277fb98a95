"""`/_emulator/faults/` with no id is refused, never redirected to `/_emulator/faults` (issue 23 §1 review).

Starlette answered `DELETE /_emulator/faults/` with a 307 to `DELETE /_emulator/faults`, so a client
that follows redirects (curl -L, httpx with follow_redirects) cleared every rule while meaning one
whose id it failed to fill in. The path with the trailing slash and no id now answers 404, whatever
the method, and changes nothing; the admin guard still stands before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth, client_for
from tui.emulator.service import Emulator

ADMIN = "emu-" + "0f" * 16


@pytest.fixture
async def client(make_emulator: Callable[..., Emulator]) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(make_emulator(admin_token=ADMIN)) as c:
        c.follow_redirects = True
        yield c


async def rule_ids(client: httpx.AsyncClient) -> list[int]:
    return [rule["id"] for rule in (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"]]


@pytest.mark.parametrize("method", ["DELETE", "GET", "POST", "PUT"])
async def test_no_id_after_the_slash_changes_nothing_and_says_so(client: httpx.AsyncClient, method: str) -> None:
    for path in ("/v2/team/*", "/v2/crawl/*"):
        added = await client.post("/_emulator/faults", json={"path": path, "status": 503}, headers=auth(ADMIN))
        assert added.status_code == 201
    answer = await client.request(
        method, "/_emulator/faults/", json={"path": "/v2/x", "status": 500}, headers=auth(ADMIN)
    )
    assert answer.status_code == 404 and not answer.history  # answered here, not redirected
    assert answer.json()["code"] == "FAULT_RULE_NOT_FOUND"
    assert "no fault rule id" in answer.json()["error"].lower() and "nothing was changed" in answer.json()["error"]
    assert await rule_ids(client) == [1, 2]


async def test_the_guard_stands_before_it_and_the_real_routes_still_answer(client: httpx.AsyncClient) -> None:
    refused = await client.delete("/_emulator/faults/", headers=auth(ALPHA_KEY))
    assert refused.status_code == 401 and refused.json()["code"] == "ADMIN_TOKEN_REQUIRED"
    await client.post("/_emulator/faults", json={"path": "/v2/x", "status": 500}, headers=auth(ADMIN))
    await client.post("/_emulator/faults", json={"path": "/v2/y", "status": 500}, headers=auth(ADMIN))
    assert (await client.delete("/_emulator/faults/1", headers=auth(ADMIN))).json()["removed"]["id"] == 1
    assert (await client.get("/_emulator/", headers=auth(ADMIN))).status_code == 200
    assert (await client.delete("/_emulator/faults", headers=auth(ADMIN))).json()["removed"] == 1
