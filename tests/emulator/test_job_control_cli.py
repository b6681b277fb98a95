"""Job control on `wds-tui emulator` as a person runs it: its own process, its clock, its admin token from the environment."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.support.processes import emulator_with_banner
from tests.support.webhook_receiver import ThreadedReceiver

pytestmark = pytest.mark.socket  # a real emulator served on a loopback port

KEY = "wds-" + "7c" * 16
ADMIN_TOKEN = "emu-" + "7d" * 16
SITE = "https://acme-outdoor.com/"


def test_a_held_crawl_of_the_served_emulator_waits_while_its_clock_runs_then_fails_when_told() -> None:
    env = {"WDS_EMULATOR_API_KEYS": f"alpha={KEY}", "WDS_EMULATOR_ADMIN_TOKEN": ADMIN_TOKEN}
    with (
        emulator_with_banner("--no-traffic", "--clock-speed", "20", env=env) as (base_url, _, _),
        ThreadedReceiver() as receiver,
        httpx.Client(base_url=base_url) as http,
    ):
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        team = {"Authorization": f"Bearer {KEY}"}
        assert http.put("/_emulator/teams/alpha/progression", json={"mode": "manual"}, headers=admin).is_success
        body = {"url": SITE, "limit": 3, "webhook": {"url": receiver.url, "events": ["completed", "failed"]}}
        crawl = http.post("/v2/crawl", json=body, headers=team).json()["id"]
        time.sleep(0.5)  # ten seconds of its clock: on the clock, 3 pages take 1.5 s
        held = http.get(f"/v2/crawl/{crawl}", headers=team).json()
        moved = http.post(f"/_emulator/jobs/{crawl}/transition", json={"to": "failed", "error": "Boom."}, headers=admin)
        final = http.get(f"/v2/crawl/{crawl}", headers=team).json()
        [event] = receiver.wait_for(1)
    assert (held["status"], held["completed"]) == ("scraping", 0)
    assert moved.status_code == 200 and final["status"] == "failed"
    assert (event.json["type"], event.json["id"], event.json["error"]) == ("crawl.failed", crawl, "Boom.")
