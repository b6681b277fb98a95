"""PUT `/_emulator/state`: a snapshot that would break a route, a save or the service later is refused now, 400."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.emulator.test_state_snapshot import AS_ADMIN, SITE, TEAM, client, emulator
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

Edit = Callable[[dict[str, Any]], None]


async def exported(service: Emulator, c: httpx.AsyncClient) -> tuple[dict[str, Any], str]:
    """A snapshot holding a running crawl, and the crawl's id."""
    crawl = (await c.post("/v2/crawl", headers=TEAM, json={"url": f"{SITE}/", "limit": 6})).json()
    return (await c.get("/_emulator/state", headers=AS_ADMIN)).json(), crawl["id"]


def crawl_row(snapshot: dict[str, Any], crawl_id: str) -> dict[str, Any]:
    row: dict[str, Any] = snapshot["parts"]["jobs"][f"job:{crawl_id}"]["v"]
    return row


def timeline_interval(value: Any) -> Callable[[dict[str, Any], str], None]:
    def edit(snapshot: dict[str, Any], crawl_id: str) -> None:
        crawl_row(snapshot, crawl_id)["timeline"]["v"]["interval"] = value

    return edit


def created_at(value: Any) -> Callable[[dict[str, Any], str], None]:
    def edit(snapshot: dict[str, Any], crawl_id: str) -> None:
        crawl_row(snapshot, crawl_id)["created_at"] = value

    return edit


def cache_limit(snapshot: dict[str, Any], crawl_id: str) -> None:
    snapshot["parts"]["cache"]["limits"]["max_entries"] = -1


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (timeline_interval(0), "interval"),
        (timeline_interval("x"), "interval"),
        (created_at("yesterday"), "created_at"),
        (cache_limit, "max_entries"),
    ],
)
async def test_a_snapshot_that_would_break_a_route_or_a_save_is_refused_and_changes_nothing(
    edit: Callable[[dict[str, Any], str], None], said: str
) -> None:
    service = emulator(ManualClock())
    async with client(service) as c:
        snapshot, crawl_id = await exported(service, c)
        bad = copy.deepcopy(snapshot)
        edit(bad, crawl_id)
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, content=json.dumps(bad))
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"] == "BAD_SNAPSHOT" and said in answer.json()["error"]
        # Nothing changed, and every route and the next snapshot still work.
        assert (await c.get(f"/v2/crawl/{crawl_id}", headers=TEAM)).status_code == 200
        assert (await c.get("/v2/crawl/active", headers=TEAM)).status_code == 200
        assert (await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/"})).status_code == 200
        assert (await c.get("/_emulator/state", headers=AS_ADMIN)).status_code == 200
