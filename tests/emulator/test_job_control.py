"""Job states under the tester's control, driven from outside over a served emulator.

A crawl held by its team's `manual` mode stays `scraping` while the clock runs, and
moved to `failed` it reads as a natural failure does: its status, its errors, its
activity entry, and its webhook (compared with a crawl that fails at its start by
itself). `after_polls` moves a job on the Nth status read by its team; a watcher on
the crawl socket sees a move as it sees the clock.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.emulator.job_control_service import SITE, admin, served
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tests.support.webhook_receiver import Received, ThreadedReceiver
from tui.api.client import WdsClient

pytestmark = pytest.mark.socket  # a real emulator served on a loopback port

ERROR = "Upstream proxy pool exhausted while crawling."


async def deliveries(receiver: ThreadedReceiver, count: int) -> list[Received]:
    return await asyncio.to_thread(receiver.wait_for, count)


async def test_a_manual_crawl_holds_then_fails_as_a_natural_failure_reads() -> None:
    with served() as service, ThreadedReceiver() as receiver:
        async with httpx.AsyncClient(base_url=service.base_url) as http, WdsClient(service.base_url, ALPHA_KEY) as c:
            set_mode = await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "manual"})
            assert set_mode == {"success": True, "team": "alpha", "mode": {"mode": "manual"}}
            crawl = await c.crawl.start(SITE, limit=5, webhook={"url": receiver.url})
            service.clock.advance(600)  # on the clock, 5 pages take 2.5 s
            held = await c.crawl.get(crawl.id)
            assert (held.status, held.completed, held.total, held.data) == ("scraping", 0, 5, [])
            assert crawl.id in [active.id for active in (await c.crawl.active()).crawls]

            moved = await admin(
                http, "POST", f"/_emulator/jobs/{crawl.id}/transition", {"to": "failed", "error": ERROR}
            )
            assert moved["job"]["state"] == "failed" and moved["job"]["heldSince"] is None

            final = await c.crawl.get(crawl.id)
            assert (final.status, final.completed, final.total) == ("failed", 0, 5)
            errors = (await http.get(f"/v2/crawl/{crawl.id}/errors", headers=auth(ALPHA_KEY))).json()["errors"]
            assert [(e["id"], e["url"], e["error"]) for e in errors] == [(crawl.id, SITE, ERROR)]
            assert crawl.id not in [active.id for active in (await c.crawl.active()).crawls]
            activity = await c.team.activity(endpoint="crawl")
            assert [(entry.id, entry.target) for entry in activity.data] == [(crawl.id, SITE)]
            told = [r.json for r in await deliveries(receiver, 2)]

        async with WdsClient(service.base_url, BETA_KEY) as beta:  # beta's crawls follow the clock
            natural = await beta.crawl.start(SITE + "admin", limit=5, webhook={"url": receiver.url})
            service.clock.advance(5)
            assert (await beta.crawl.get(natural.id)).status == "failed"
            by_itself = (await deliveries(receiver, 4))[-1].json
            await asyncio.sleep(0.6)  # a delivery round more: nothing else of the moved crawl comes
            of_moved = [r.json["type"] for r in receiver.received if r.json["id"] == crawl.id]

    assert [event["type"] for event in told] == of_moved == ["crawl.started", "crawl.failed"]
    failed = told[1]
    assert failed["id"] == crawl.id and failed["error"] == ERROR and failed["success"] is False and failed["data"] == []
    assert by_itself["type"] == "crawl.failed" and by_itself["error"] == "URL blocked by robots.txt."
    assert set(failed) == set(by_itself), "a moved failure carries the fields a natural one does"


async def test_after_three_polls_a_crawl_completes_with_every_page_and_its_webhooks() -> None:
    with served() as service, ThreadedReceiver() as receiver:
        async with httpx.AsyncClient(base_url=service.base_url) as http, WdsClient(service.base_url, ALPHA_KEY) as c:
            mode = {"mode": "after_polls", "polls": 3}
            answer = await admin(http, "PUT", "/_emulator/teams/alpha/progression", mode)
            assert answer["mode"] == {**mode, "outcome": "completed"}
            crawl = await c.crawl.start(SITE, limit=4, webhook={"url": receiver.url})
            service.clock.advance(60)
            await http.get(f"/v2/crawl/{crawl.id}/errors", headers=auth(ALPHA_KEY))  # not a status poll
            seen = []
            for _ in range(3):
                status = await c.crawl.get(crawl.id)
                seen.append((status.status, status.completed, len(status.data)))
            view = (await admin(http, "GET", f"/_emulator/jobs/{crawl.id}"))["job"]
            events = [r.json for r in await deliveries(receiver, 6)]

    assert seen == [("scraping", 0, 0), ("scraping", 0, 0), ("completed", 4, 4)]
    assert view["polls"] == 3 and view["state"] == "completed" and view["mode"]["mode"] == "after_polls"
    assert [e["type"] for e in events] == ["crawl.started", *["crawl.page"] * 4, "crawl.completed"]
    assert all(len(e["data"]) == 1 and e["data"][0]["metadata"]["sourceURL"] for e in events[1:5])


async def test_a_job_set_to_fail_on_its_second_poll_fails_then_with_the_error() -> None:
    with served() as service:
        async with httpx.AsyncClient(base_url=service.base_url) as http:
            started = await http.post("/v2/crawl", json={"url": SITE, "limit": 3}, headers=auth(BETA_KEY))
            crawl_id = started.json()["id"]
            mode = {"mode": "after_polls", "polls": 2, "outcome": "failed", "error": ERROR}
            answer = await admin(http, "PUT", f"/_emulator/jobs/{crawl_id}/progression", mode)
            assert answer["job"]["mode"] == mode and answer["job"]["polls"] == 0
            service.clock.advance(60)
            other_team = await http.get(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
            assert other_team.status_code == 403  # not a poll of its team: not counted
            head = await http.head(f"/v2/crawl/{crawl_id}", headers=auth(BETA_KEY))
            assert head.status_code == 200  # a HEAD is no poll either
            first = await http.get(f"/v2/crawl/{crawl_id}", headers=auth(BETA_KEY))
            second = await http.get(f"/v2/crawl/{crawl_id}", headers=auth(BETA_KEY))
            errors = await http.get(f"/v2/crawl/{crawl_id}/errors", headers=auth(BETA_KEY))
    assert first.json()["status"] == "scraping" and second.json()["status"] == "failed"
    assert [e["error"] for e in errors.json()["errors"]] == [ERROR]


async def test_a_watcher_on_the_crawl_socket_sees_a_held_crawl_completed_when_told() -> None:
    with served() as service:
        async with httpx.AsyncClient(base_url=service.base_url) as http, WdsClient(service.base_url, ALPHA_KEY) as c:
            await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "manual"})
            crawl = await c.crawl.start(SITE, limit=3)
            service.clock.advance(60)
            async with c.crawl.watch(crawl.id) as updates:
                caught_up = await anext(aiter(updates))
                await admin(http, "POST", f"/_emulator/jobs/{crawl.id}/transition", {"to": "completed"})
                statuses = [status async for status in updates]
    assert (caught_up.status, caught_up.completed) == ("scraping", 0)
    assert (statuses[-1].status, statuses[-1].completed, len(statuses[-1].data)) == ("completed", 3, 3)


async def test_a_held_crawl_let_go_sends_the_rest_of_its_events_at_their_new_times() -> None:
    with served() as service, ThreadedReceiver() as receiver:
        async with httpx.AsyncClient(base_url=service.base_url) as http, WdsClient(service.base_url, ALPHA_KEY) as c:
            await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "manual"})
            crawl = await c.crawl.start(SITE, limit=3, webhook={"url": receiver.url})
            let_go_at = service.clock.advance(100)
            await admin(http, "PUT", f"/_emulator/jobs/{crawl.id}/progression", {"mode": "clock"})
            service.clock.advance(2)
            events = [r.json["type"] for r in await deliveries(receiver, 5)]
            status = await c.crawl.get(crawl.id)
    sent = [(d.event, d.due_at) for d in service.emulator.webhooks.deliveries_for(crawl.id) if d.state == "delivered"]
    assert events == ["crawl.started", "crawl.page", "crawl.page", "crawl.page", "crawl.completed"]
    assert (status.status, status.completed) == ("completed", 3)
    assert [(event, (due - let_go_at).total_seconds()) for event, due in sent[1:]] == [
        ("crawl.page", 0.5),
        ("crawl.page", 1.0),
        ("crawl.page", 1.5),
        ("crawl.completed", 1.5),
    ]
