"""Batches under the tester's control, and modes per team against modes per job, over a served emulator.

A held batch scrapes and bills nothing; completed, it bills what the same batch
on the clock bills. A job's own mode overrides its team's, and a held job let go
carries on from where it stood, later by the time it was held.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.emulator.job_control_service import SITE, admin, served
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tests.support.webhook_receiver import ThreadedReceiver

pytestmark = pytest.mark.socket  # a real emulator served on a loopback port

URLS = [SITE, SITE + "about", SITE + "products", SITE + "blog"]


async def read(http: httpx.AsyncClient, path: str, key: str) -> dict[str, Any]:
    answer = await http.get(path, headers=auth(key))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def remaining_credits(http: httpx.AsyncClient, key: str) -> int:
    return int((await read(http, "/v2/team/credit-usage", key))["data"]["remainingCredits"])


async def test_a_manual_batch_bills_nothing_until_completed_then_what_a_batch_on_the_clock_bills() -> None:
    with served() as service, ThreadedReceiver() as receiver:
        async with httpx.AsyncClient(base_url=service.base_url) as http:
            await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "manual"})
            body = {"urls": URLS, "webhook": {"url": receiver.url}}
            held = (await http.post("/v2/batch/scrape", json=body, headers=auth(ALPHA_KEY))).json()["id"]
            natural = (await http.post("/v2/batch/scrape", json={"urls": URLS}, headers=auth(BETA_KEY))).json()["id"]
            service.clock.advance(60)
            waiting = await read(http, f"/v2/batch/scrape/{held}", ALPHA_KEY)
            on_the_clock = await read(http, f"/v2/batch/scrape/{natural}", BETA_KEY)
            before = await remaining_credits(http, ALPHA_KEY)

            await admin(http, "POST", f"/_emulator/jobs/{held}/transition", {"to": "completed"})
            done = await read(http, f"/v2/batch/scrape/{held}", ALPHA_KEY)
            after = (await remaining_credits(http, ALPHA_KEY), await remaining_credits(http, BETA_KEY))
            events = [r.json["type"] for r in await asyncio.to_thread(receiver.wait_for, 6)]

    assert (waiting["status"], waiting["completed"], waiting["creditsUsed"], waiting["data"]) == ("scraping", 0, 0, [])
    assert on_the_clock["status"] == "completed" and on_the_clock["creditsUsed"] == len(URLS)
    assert before == after[1] + len(URLS), "nothing billed while held"
    assert (done["status"], done["completed"], done["total"]) == ("completed", 4, 4)
    assert done["creditsUsed"] == on_the_clock["creditsUsed"] and after[0] == after[1]
    assert [d["metadata"]["sourceURL"] for d in done["data"]] == [
        d["metadata"]["sourceURL"] for d in on_the_clock["data"]
    ]
    assert events == ["batch_scrape.started", *["batch_scrape.page"] * 4, "batch_scrape.completed"]


async def test_a_batch_moved_to_failed_or_cancelled_keeps_its_pages_and_sends_no_end() -> None:
    with served() as service, ThreadedReceiver() as receiver:
        async with httpx.AsyncClient(base_url=service.base_url) as http:
            body = {"urls": URLS, "webhook": {"url": receiver.url}}
            ids = [(await http.post("/v2/batch/scrape", json=body, headers=auth(ALPHA_KEY))).json()["id"] for _ in "ab"]
            service.clock.advance(1)  # two of four pages, on the clock
            failed = await admin(
                http, "POST", f"/_emulator/jobs/{ids[0]}/transition", {"to": "failed", "error": "Boom."}
            )
            cancelled = await admin(http, "POST", f"/_emulator/jobs/{ids[1]}/transition", {"to": "cancelled"})
            service.clock.advance(60)
            statuses = [await read(http, f"/v2/batch/scrape/{job}", ALPHA_KEY) for job in ids]
            errors = await read(http, f"/v2/batch/scrape/{ids[0]}/errors", ALPHA_KEY)
            await asyncio.to_thread(receiver.wait_for, 6)  # the pages and starts, however loaded the machine
            await asyncio.sleep(0.6)  # a delivery round more: no end event of either comes
    assert (failed["job"]["state"], cancelled["job"]["state"]) == ("failed", "cancelled")
    assert [(s["status"], s["completed"], s["creditsUsed"]) for s in statuses] == [
        ("failed", 2, 2),
        ("cancelled", 2, 2),
    ]
    assert [e["error"] for e in errors["errors"]] == ["Boom."]
    assert sorted(r.json["type"] for r in receiver.received) == ["batch_scrape.page"] * 4 + ["batch_scrape.started"] * 2


async def test_a_jobs_own_mode_overrides_its_teams_and_a_held_job_let_go_carries_on() -> None:
    with served() as service:
        async with httpx.AsyncClient(base_url=service.base_url) as http:
            await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "manual"})
            crawl = {"url": SITE, "limit": 5}
            held, let_go = [
                (await http.post("/v2/crawl", json=crawl, headers=auth(ALPHA_KEY))).json()["id"] for _ in "ab"
            ]
            beta_free, beta_held = [
                (await http.post("/v2/crawl", json=crawl, headers=auth(BETA_KEY))).json()["id"] for _ in "ab"
            ]
            view = await admin(http, "PUT", f"/_emulator/jobs/{beta_held}/progression", {"mode": "manual"})
            assert view["job"]["heldSince"] is not None and view["job"]["team"] == "beta"
            service.clock.advance(100)
            view = await admin(http, "PUT", f"/_emulator/jobs/{let_go}/progression", {"mode": "clock"})
            assert view["job"]["mode"] == {"mode": "clock"} and view["job"]["heldSince"] is None
            service.clock.advance(1)  # two pages a second, from where it stood

            async def progress(job: str, key: str) -> tuple[str, int]:
                status = await read(http, f"/v2/crawl/{job}", key)
                return status["status"], status["completed"]

            midway = await progress(let_go, ALPHA_KEY)
            service.clock.advance(2)
            later = [await progress(job, key) for job, key in ((let_go, ALPHA_KEY), (held, ALPHA_KEY))]
            betas = [await progress(job, BETA_KEY) for job in (beta_free, beta_held)]
            overview = await admin(http, "GET", "/_emulator/progression")
    assert midway == ("scraping", 2)
    assert later == [("completed", 5), ("scraping", 0)]
    assert betas == [("completed", 5), ("scraping", 0)]
    assert overview["teams"] == {"alpha": {"mode": "manual"}, "beta": {"mode": "clock"}}
    assert {job["id"] for job in overview["jobs"]} == {held, let_go, beta_held}
