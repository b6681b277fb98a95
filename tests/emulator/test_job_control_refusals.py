"""What the job-control routes refuse, and why: 400 per field, 404 for unknown teams and jobs, 409 for ended ones.

Also the control's state as plain JSON: a snapshot taken back over the same jobs
leaves every held job held and every moved job where it was moved.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.emulator.job_control_service import ADMIN, SITE, admin, new_emulator, served
from tests.support.emulator_teams import ALPHA_KEY, START, auth, client_for
from tui.emulator.core.clock import ManualClock
from tui.emulator.jobs.model import CrawlJob
from tui.emulator.jobs.progression import SteeredTimeline

pytestmark = pytest.mark.socket  # a real emulator served on a loopback port

UNKNOWN_JOB = "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f"

BAD_MODES: list[tuple[Any, str]] = [
    ({}, "mode is required: one of clock, manual, after_polls."),
    ({"mode": "paused"}, "mode must be one of clock, manual, after_polls (got 'paused')."),
    ({"mode": "manual", "colour": "red"}, "Unknown field 'colour': the body takes mode, polls, outcome, error."),
    ({"mode": "manual", "polls": 2}, "polls is only for mode after_polls, not for manual."),
    ({"mode": "after_polls"}, "polls is required with mode after_polls"),
    ({"mode": "after_polls", "polls": 0}, "polls must be a whole number from 1 to 1000000 (got 0)."),
    ({"mode": "after_polls", "polls": "3"}, "polls must be a whole number from 1 to 1000000 (got '3')."),
    ({"mode": "after_polls", "polls": True}, "polls must be a whole number from 1 to 1000000 (got True)."),
    ({"mode": "after_polls", "polls": 2, "outcome": "done"}, "outcome must be one of completed, failed, cancelled"),
    ({"mode": "after_polls", "polls": 2, "error": "x"}, "error is only for a failed end, not for completed."),
    ({"mode": "after_polls", "polls": 2, "outcome": "failed", "error": " "}, "error must be a non-empty string"),
]
BAD_MOVES: list[tuple[Any, str]] = [
    ({}, "to is required: one of completed, failed, cancelled."),
    ({"to": "paused"}, "to must be one of completed, failed, cancelled (got 'paused')."),
    ({"to": "cancelled", "error": "x"}, "error is only for a failed end, not for cancelled."),
    ({"to": "failed", "why": "x"}, "Unknown field 'why': the body takes to and error."),
]


async def refused(http: httpx.AsyncClient, method: str, path: str, body: Any, status: int) -> str:
    answer = await http.request(method, path, json=body, headers=ADMIN)
    assert answer.status_code == status, (path, body, answer.text)
    assert answer.json()["success"] is False
    return str(answer.json()["error"])


async def test_bad_bodies_unknown_names_and_ended_jobs_are_refused_with_what_is_accepted() -> None:
    with served() as service:
        async with httpx.AsyncClient(base_url=service.base_url) as http:
            crawl = (await http.post("/v2/crawl", json={"url": SITE, "limit": 2}, headers=auth(ALPHA_KEY))).json()["id"]
            for body, said in BAD_MODES:
                for path in ("/_emulator/teams/alpha/progression", f"/_emulator/jobs/{crawl}/progression"):
                    assert said in await refused(http, "PUT", path, body, 400), (path, body)
            for body, said in BAD_MOVES:
                assert said in await refused(http, "POST", f"/_emulator/jobs/{crawl}/transition", body, 400), body
            not_json = await http.put("/_emulator/teams/alpha/progression", content=b"{mode", headers=ADMIN)
            assert not_json.status_code == 400 and not_json.json()["code"] == "BAD_REQUEST_INVALID_JSON"

            gamma = await refused(http, "PUT", "/_emulator/teams/gamma/progression", {"mode": "manual"}, 404)
            assert gamma == "No team named 'gamma'. Teams: alpha, beta."
            for method, tail, body in (("GET", "", None), ("PUT", "/progression", {"mode": "manual"})):
                said = await refused(http, method, f"/_emulator/jobs/{UNKNOWN_JOB}{tail}", body, 404)
                assert said.startswith(f"No job with id {UNKNOWN_JOB}")
            said = await refused(http, "POST", "/_emulator/jobs/not-a-job/transition", {"to": "failed"}, 400)
            assert "Job ID must be a valid UUID" in said

            service.clock.advance(5)  # the crawl completes on the clock
            ended = await refused(http, "POST", f"/_emulator/jobs/{crawl}/transition", {"to": "failed"}, 409)
            assert ended == f"Job {crawl} already ended: it is completed. Only a running job can be steered or moved."
            assert "already ended" in await refused(
                http, "PUT", f"/_emulator/jobs/{crawl}/progression", {"mode": "manual"}, 409
            )
            scrape = (await http.post("/v2/scrape", json={"url": SITE}, headers=auth(ALPHA_KEY))).json()
            scrape_id = scrape["data"]["metadata"]["scrapeId"]
            said = await refused(http, "POST", f"/_emulator/jobs/{scrape_id}/transition", {"to": "failed"}, 409)
            assert "is a scrape job: it ended when it was created" in said
            view = (await admin(http, "GET", f"/_emulator/jobs/{scrape_id}"))["job"]
            assert (view["kind"], view["state"], view["steerable"], view["mode"]) == (
                "scrape",
                "completed",
                False,
                None,
            )

            await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "manual"})
            refused_start = {"url": SITE + "internal", "limit": 2}  # robots.txt refuses it: it fails at its start
            blocked = (await http.post("/v2/crawl", json=refused_start, headers=auth(ALPHA_KEY))).json()["id"]
            said = await refused(http, "POST", f"/_emulator/jobs/{blocked}/transition", {"to": "completed"}, 409)
            assert "failed at its start (URL blocked by robots.txt.)" in said
            moved = await admin(http, "POST", f"/_emulator/jobs/{blocked}/transition", {"to": "failed"})
            assert moved["job"]["state"] == "failed"
            as_natural = await http.get(f"/v2/crawl/{blocked}/errors", headers=auth(ALPHA_KEY))
            assert as_natural.json()["errors"] == [] and as_natural.json()["robotsBlocked"] == [refused_start["url"]]
            plain = (await http.post("/v2/crawl", json={"url": SITE, "limit": 2}, headers=auth(ALPHA_KEY))).json()["id"]
            await admin(http, "POST", f"/_emulator/jobs/{plain}/transition", {"to": "failed"})
            said = await http.get(f"/v2/crawl/{plain}/errors", headers=auth(ALPHA_KEY))
            assert [error["error"] for error in said.json()["errors"]] == ["The job failed."]


async def test_a_snapshot_taken_back_holds_what_was_held_and_keeps_what_was_moved() -> None:
    clock = ManualClock(START)
    emulator = new_emulator(clock)
    async with client_for(emulator) as http:
        await admin(http, "PUT", "/_emulator/teams/alpha/progression", {"mode": "after_polls", "polls": 5})
        ids = [
            (await http.post("/v2/crawl", json={"url": SITE, "limit": 3}, headers=auth(ALPHA_KEY))).json()["id"]
            for _ in "ab"
        ]
        await http.get(f"/v2/crawl/{ids[0]}", headers=auth(ALPHA_KEY))
        clock.advance(30)
        await admin(http, "POST", f"/_emulator/jobs/{ids[1]}/transition", {"to": "completed"})
        snapshot = json.loads(json.dumps(emulator.job_control.snapshot()))  # plain JSON, as a state file keeps it
        views = [(await admin(http, "GET", f"/_emulator/jobs/{job}"))["job"] for job in ids]

        for job in ids:  # as a restart would bring them back: timelines as planned, no control state
            crawl = emulator.jobs.get(job)
            assert isinstance(crawl, CrawlJob) and isinstance(crawl.timeline, SteeredTimeline)
            crawl.timeline = crawl.timeline.natural()
        emulator.job_control.restore({})
        clock.advance(30)
        assert (await admin(http, "GET", f"/_emulator/jobs/{ids[0]}"))["job"]["state"] == "completed"

        emulator.job_control.restore(snapshot)
        assert emulator.job_control.snapshot() == snapshot
        again = [(await admin(http, "GET", f"/_emulator/jobs/{job}"))["job"] for job in ids]
        polls = [(await http.get(f"/v2/crawl/{ids[0]}", headers=auth(ALPHA_KEY))).json()["status"] for _ in range(4)]
    await emulator.aclose()
    assert again == views and views[0]["state"] == "scraping" and views[1]["state"] == "completed"
    assert polls == ["scraping", "scraping", "scraping", "completed"], "its fifth poll, counting the one before"
