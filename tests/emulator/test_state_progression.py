"""A tester's job modes are part of the state: a held crawl is still held after an export and import, and a reset clears them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

KEY = "wds-" + "6b" * 16
ADMIN = "emu-" + "4d" * 16
TEAM = {"Authorization": f"Bearer {KEY}"}
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}


@asynccontextmanager
async def served(clock: ManualClock) -> AsyncIterator[httpx.AsyncClient]:
    service = Emulator.from_keys({"acme": [KEY]}, admin_token=ADMIN, clock=clock, history=False)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(service)), base_url="http://e") as c:
        yield c


async def test_a_held_crawl_and_a_team_mode_survive_an_export_and_import_and_a_reset_clears_them() -> None:
    clock = ManualClock()
    async with served(clock) as first:
        mode = {"mode": "after_polls", "polls": 2, "outcome": "failed", "error": "told to fail"}
        assert (await first.put("/_emulator/teams/acme/progression", headers=AS_ADMIN, json=mode)).status_code == 200
        crawl = await first.post("/v2/crawl", headers=TEAM, json={"url": "https://acme-outdoor.com/", "limit": 6})
        crawl_id = crawl.json()["id"]
        held = await first.put(f"/_emulator/jobs/{crawl_id}/progression", headers=AS_ADMIN, json={"mode": "manual"})
        assert held.status_code == 200
        clock.advance(600)
        snapshot = (await first.get("/_emulator/state", headers=AS_ADMIN)).json()
        assert snapshot["parts"]["progression"]["modes"]["teams"] == {"acme": mode}
    async with served(clock) as second:
        imported = await second.put("/_emulator/state", headers=AS_ADMIN, json=snapshot)
        assert imported.status_code == 200, imported.text
        clock.advance(600)
        status = (await second.get(f"/v2/crawl/{crawl_id}", headers=TEAM)).json()
        assert status["status"] == "scraping" and status["completed"] == 0  # still held, the clock notwithstanding
        job = (await second.get(f"/_emulator/jobs/{crawl_id}", headers=AS_ADMIN)).json()["job"]
        assert job["mode"] == {"mode": "manual"}
        listing = (await second.get("/_emulator/progression", headers=AS_ADMIN)).json()
        assert listing["teams"] == {"acme": mode}
        moved = await second.post(f"/_emulator/jobs/{crawl_id}/transition", headers=AS_ADMIN, json={"to": "failed"})
        assert moved.status_code == 200
        assert (await second.get(f"/v2/crawl/{crawl_id}", headers=TEAM)).json()["status"] == "failed"

        assert (await second.post("/_emulator/reset", headers=AS_ADMIN)).status_code == 200
        assert (await second.get("/_emulator/progression", headers=AS_ADMIN)).json()["teams"] == {
            "acme": {"mode": "clock"}
        }


async def test_a_snapshot_with_a_bad_mode_is_refused_and_changes_nothing() -> None:
    clock = ManualClock()
    async with served(clock) as c:
        snapshot = (await c.get("/_emulator/state", headers=AS_ADMIN)).json()
        snapshot["parts"]["progression"] = {"modes": {"teams": {"acme": {"mode": "sometimes"}}, "jobs": {}}}
        refused = await c.put("/_emulator/state", headers=AS_ADMIN, json=snapshot)
        assert refused.status_code == 400
        assert "parts.progression" in refused.json()["error"] and "sometimes" in refused.json()["error"]
        assert (await c.get("/_emulator/progression", headers=AS_ADMIN)).json()["teams"] == {"acme": {"mode": "clock"}}
