"""`/_emulator/state` and `/_emulator/reset`: a snapshot taken from one emulator makes another answer the same."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import httpx
import pytest

from tui.emulator.browser.access import SessionSecrets
from tui.emulator.browser.model import BrowserSession
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator
from tui.emulator.state.snapshot import SnapshotReader, restore

KEY = "wds-" + "5a" * 16
ADMIN = "emu-" + "3c" * 16
TEAM = {"Authorization": f"Bearer {KEY}"}
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}
SITE = "https://acme-outdoor.com"


def emulator(clock: ManualClock, *, history: bool = True) -> Emulator:
    return Emulator.from_keys({"acme": [KEY]}, admin_token=ADMIN, clock=clock, history=history)


@asynccontextmanager
async def client(service: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(service)), base_url="http://e") as c:
        yield c


async def make_work(c: httpx.AsyncClient) -> dict[str, str]:
    """A scrape, a crawl and a batch (both still running), and a cached page a lockdown scrape hits."""
    scrape = (await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/"})).json()
    crawl = (await c.post("/v2/crawl", headers=TEAM, json={"url": f"{SITE}/", "limit": 6})).json()
    urls = [f"{SITE}/", f"{SITE}/about", f"{SITE}/missing-page"]
    batch = (await c.post("/v2/batch/scrape", headers=TEAM, json={"urls": urls})).json()
    await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/", "lockdown": True})
    return {"scrape": scrape["data"]["metadata"]["scrapeId"], "crawl": crawl["id"], "batch": batch["id"]}


async def answers(c: httpx.AsyncClient, ids: dict[str, str]) -> dict[str, Any]:
    """What a caller sees: activity pages (walked by cursor), job statuses, usage, credits."""
    pages, cursor = [], None
    for _ in range(3):
        params = {"limit": "40", **({"cursor": cursor} if cursor else {})}
        page = (await c.get("/v2/team/activity", headers=TEAM, params=params)).json()
        pages.append(page)
        cursor = page.get("cursor")
    return {
        "activity": pages,
        "scrape": (await c.get(f"/v2/scrape/{ids['scrape']}", headers=TEAM)).json(),
        "crawl": (await c.get(f"/v2/crawl/{ids['crawl']}", headers=TEAM)).json(),
        "crawl_errors": (await c.get(f"/v2/crawl/{ids['crawl']}/errors", headers=TEAM)).json(),
        "batch": (await c.get(f"/v2/batch/scrape/{ids['batch']}", headers=TEAM)).json(),
        "usage": (await c.get("/v2/team/token-usage/historical?byApiKey=true", headers=TEAM)).json(),
        "credits": (await c.get("/v2/team/credit-usage", headers=TEAM)).json(),
    }


async def test_a_snapshot_put_into_another_emulator_gives_the_same_answers_and_new_ids_do_not_collide() -> None:
    clock = ManualClock()
    first = emulator(clock)
    async with client(first) as c:
        ids = await make_work(c)
        clock.advance(1.5)  # the crawl and the batch are part way
        exported = await c.get("/_emulator/state", headers=AS_ADMIN)
        assert exported.status_code == 200
        before = await answers(c, ids)
        after_first = (await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/about"})).json()
    snapshot = exported.json()
    assert snapshot["format"] == "wds-emulator-state" and snapshot["version"] == 1
    assert before["crawl"]["status"] == "scraping" and 0 < before["crawl"]["completed"] < before["crawl"]["total"]

    second = emulator(clock, history=False)
    async with client(second) as c:
        put = await c.put("/_emulator/state", headers=AS_ADMIN, content=exported.content)
        assert put.status_code == 200, put.text
        assert put.json()["jobs"] == len(snapshot["parts"]["jobs"]["order"])
        assert await answers(c, ids) == before
        # The id generator goes on where the first emulator was: the next job gets the next id.
        after_second = (await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/about"})).json()
        assert after_second["data"]["metadata"]["scrapeId"] == after_first["data"]["metadata"]["scrapeId"]
        clock.advance(30)
        crawl = (await c.get(f"/v2/crawl/{ids['crawl']}", headers=TEAM)).json()
        assert crawl["status"] == "completed" and crawl["completed"] == crawl["total"]


async def test_a_cursor_taken_before_the_import_pages_the_same_after_it() -> None:
    clock = ManualClock()
    first = emulator(clock)
    async with client(first) as c:
        page = (await c.get("/v2/team/activity", headers=TEAM, params={"limit": "5"})).json()
        following = (await c.get("/v2/team/activity", headers=TEAM, params={"cursor": page["cursor"]})).json()
        exported = (await c.get("/_emulator/state", headers=AS_ADMIN)).content
    second = emulator(clock, history=False)
    async with client(second) as c:
        assert (await c.put("/_emulator/state", headers=AS_ADMIN, content=exported)).status_code == 200
        again = (await c.get("/v2/team/activity", headers=TEAM, params={"cursor": page["cursor"]})).json()
    assert again == following and following["data"]


def test_sessions_are_not_reopened_they_list_destroyed_with_the_reason() -> None:
    clock = ManualClock()
    first = emulator(clock, history=False)
    team = first.teams.by_name("acme")
    assert team is not None
    running = BrowserSession(
        id="6a1e0000-0000-4000-8000-000000000001",
        team_id=team.id,
        api_key=KEY,
        secrets=SessionSecrets.new(),
        base_url="http://127.0.0.1:1",
        created_at=clock.now() - timedelta(seconds=90),
        last_activity=clock.now(),
        ttl=600,
        activity_ttl=300,
        stream_web_view=True,
    )
    first.browser._sessions[running.id] = running  # a session with a live browser, as far as the record says
    snapshot = json.loads(json.dumps(SnapshotReader(first).snapshot()))
    assert snapshot["parts"]["browser"][f"session:{running.id}"]["v"]["handle"] is None

    later = ManualClock(clock.now() + timedelta(minutes=10))
    second = emulator(later, history=False)
    restore(second, snapshot)
    [listed] = second.browser.list(team.id)
    assert listed.id == running.id and listed.status == "destroyed"
    assert listed.end_reason == "the emulator restarted"
    assert listed.destroyed_at == clock.now()  # when it was last known alive, not when the emulator came back
    assert listed.to_wire()["endReason"] == "the emulator restarted"
    assert second.usage.credits_in_month(team.id, clock.now(), KEY) == listed.credits_billed == 4


async def test_reset_keeps_teams_and_keys_and_clears_the_rest() -> None:
    clock = ManualClock()
    service = emulator(clock)
    async with client(service) as c:
        ids = await make_work(c)
        reset = await c.post("/_emulator/reset", headers=AS_ADMIN)
        assert reset.status_code == 200 and reset.json() == {"success": True, "teams": 1}
        activity = (await c.get("/v2/team/activity", headers=TEAM)).json()
        assert activity["data"] == [] and activity["has_more"] is False
        assert (await c.get(f"/v2/crawl/{ids['crawl']}", headers=TEAM)).status_code == 404
        assert (await c.get("/v2/team/token-usage/historical", headers=TEAM)).json()["periods"] == []
        assert (await c.get("/v2/team/credit-usage", headers=TEAM)).json()["data"]["remainingCredits"] == 100_000
        # The cache is gone: a lockdown scrape of a page scraped before misses.
        miss = await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/", "lockdown": True})
        assert miss.status_code == 404 and miss.json()["code"] == "SCRAPE_LOCKDOWN_CACHE_MISS"
        again = (await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/"})).json()
        assert again["success"] is True and again["data"]["metadata"]["scrapeId"] != ids["scrape"]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"{not json", "Invalid JSON in request body"),
        (b"[]", "Request body must be a JSON object"),
        (b'{"format": "other", "version": 1}', "format: expected 'wds-emulator-state'"),
        (b'{"format": "wds-emulator-state", "version": 7}', "this emulator reads version 1, the snapshot is version 7"),
    ],
)
async def test_a_bad_put_is_refused_with_what_is_wrong_and_changes_nothing(body: bytes, said: str) -> None:
    service = emulator(ManualClock())
    async with client(service) as c:
        before = (await c.get("/_emulator/state", headers=AS_ADMIN)).json()
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, content=body)
        assert answer.status_code == 400 and said in answer.json()["error"], answer.text
        assert (await c.get("/_emulator/state", headers=AS_ADMIN)).json() == before


async def test_a_snapshot_broken_deep_inside_is_refused_naming_the_place_and_changes_nothing() -> None:
    service = emulator(ManualClock())
    async with client(service) as c:
        before = (await c.get("/_emulator/state", headers=AS_ADMIN)).json()
        broken = json.loads(json.dumps(before))
        job_id = broken["parts"]["jobs"]["order"][-1]
        broken["parts"]["jobs"][f"job:{job_id}"]["cls"] = "os:system"  # only the emulator's own classes are built
        broken["parts"]["teams"] = {"t": {"name": "x", "api_keys": ["wds-x"]}}  # read first, never applied
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, json=broken)
        assert answer.status_code == 400
        assert f"jobs[{job_id!r}]" in answer.json()["error"] and "not one of the emulator's" in answer.json()["error"]
        assert (await c.get("/_emulator/state", headers=AS_ADMIN)).json() == before
        assert (await c.get("/v2/team/activity", headers=TEAM)).status_code == 200  # the old key still works


async def test_webhook_deliveries_not_yet_done_keep_their_retry_time_and_bytes_across_a_restore() -> None:
    clock = ManualClock()
    first = emulator(clock, history=False)
    first.webhooks.use_transport(httpx.MockTransport(lambda request: httpx.Response(503)))
    hook = {"url": "https://receiver.test/hooks"}
    async with client(first) as c:
        await c.post("/v2/crawl", headers=TEAM, json={"url": f"{SITE}/", "limit": 2, "webhook": hook})
        batch_urls = [f"{SITE}/", f"{SITE}/about"]
        await c.post("/v2/batch/scrape", headers=TEAM, json={"urls": batch_urls, "webhook": hook})
    attempted = await first.webhooks.run_due()
    assert {d.event for d in attempted} == {"crawl.started", "batch_scrape.started"}
    [failed] = [d for d in attempted if d.event == "crawl.started"]
    assert failed.state == "pending" and failed.due_at == clock.now() + timedelta(minutes=1)
    snapshot = json.loads(json.dumps(SnapshotReader(first).snapshot()))

    second = emulator(clock, history=False)
    received: list[httpx.Request] = []

    def receive(request: httpx.Request) -> httpx.Response:
        received.append(request)
        return httpx.Response(200)

    second.webhooks.use_transport(httpx.MockTransport(receive))
    restore(second, snapshot)
    clock.advance(30)  # every page and end done; the failed `started` events wait for their retry
    await second.webhooks.run_due()
    events = [json.loads(request.content)["type"] for request in received]
    assert "crawl.started" not in events and "batch_scrape.started" not in events
    assert {"crawl.completed", "batch_scrape.completed"} <= set(events)
    assert events.count("batch_scrape.page") == 2
    clock.advance(31)
    await second.webhooks.run_due()
    assert "batch_scrape.started" in [json.loads(request.content)["type"] for request in received]
    [retried] = [request for request in received if json.loads(request.content)["type"] == "crawl.started"]
    assert retried.content == failed.body  # the same bytes, the same webhookId
    [again] = [d for d in second.webhooks.log if d.webhook_id == failed.webhook_id]
    assert [attempt.status_code for attempt in again.attempts] == [503, 200] and again.state == "delivered"
