"""The admin prefix opens with the emulator's admin token only: never a team's key, never without one."""

from __future__ import annotations

import httpx
import pytest

from tui.emulator.admin.guard import new_admin_token
from tui.emulator.cli import banner
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

TEAM_KEY = "wds-" + "ad" * 16
ADMIN = "emu-" + "0f" * 16


def emulator() -> Emulator:
    return Emulator.from_keys({"acme": [TEAM_KEY]}, admin_token=ADMIN, history=False)


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({}, "send the emulator's admin token"),
        ({"Authorization": f"Bearer {TEAM_KEY}"}, "takes the emulator's admin token"),
        ({"Authorization": "Bearer emu-wrong"}, "takes the emulator's admin token"),
        ({"Authorization": f"Basic {ADMIN}"}, "send the emulator's admin token"),
    ],
)
async def test_the_admin_prefix_refuses_team_keys_wrong_tokens_and_none(headers: dict[str, str], said: str) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(emulator())), base_url="http://e") as c:
        for path in ("/_emulator/", "/_emulator/faults", "/_emulator/anything/at/all"):
            answer = await c.get(path, headers=headers)
            assert answer.status_code == 401, path
            assert answer.json()["success"] is False and said in answer.json()["error"]
            assert answer.json()["code"] == "ADMIN_TOKEN_REQUIRED"


async def test_the_admin_token_opens_the_index_and_is_no_team_key() -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(emulator())), base_url="http://e") as c:
        index = await c.get("/_emulator/", headers={"Authorization": f"Bearer {ADMIN}"})
        assert index.status_code == 200 and index.json()["prefix"] == "/_emulator/"
        routes = index.json()["routes"]
        for route in (
            "GET /_emulator/faults",
            "GET /_emulator/state",
            "POST /_emulator/reset",
            "POST /_emulator/jobs/{jobId}/transition",
            "PUT /_emulator/teams/{team}/progression",
        ):
            assert route in routes
        for route, what in routes.items():  # each says its method, its path and what it is for
            method, _, path = route.partition(" ")
            assert method in {"GET", "POST", "PUT", "DELETE"} and path.startswith("/_emulator/") and what
        as_team = await c.get("/v2/team/activity", headers={"Authorization": f"Bearer {ADMIN}"})
        assert as_team.status_code == 401


def test_a_fresh_token_is_unguessable_and_the_banner_says_how_to_use_it() -> None:
    assert new_admin_token() != new_admin_token()
    assert Emulator(history=False).admin_token != Emulator(history=False).admin_token
    text = banner("http://127.0.0.1:3002", emulator(), live=False)
    assert f'curl -H "Authorization: Bearer {ADMIN}" "http://127.0.0.1:3002/_emulator/"' in text
    assert ADMIN not in banner("http://127.0.0.1:3002", emulator(), live=False, masked=frozenset({ADMIN}))
