"""`GET /v2/concurrency-check` and `GET /v2/team/queue-status`: not in the contract, called by the official SDKs."""

from __future__ import annotations

import httpx

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tui.emulator.core.clock import ManualClock, isoformat_z


async def test_an_idle_team_has_an_empty_queue(client: httpx.AsyncClient) -> None:
    queue = (await client.get("/v2/team/queue-status", headers=auth(ALPHA_KEY))).json()
    assert queue == {
        "success": True,
        "jobsInQueue": 0,
        "activeJobsInQueue": 0,
        "waitingJobsInQueue": 0,
        "maxConcurrency": 2,
        "mostRecentSuccess": None,
    }
    check = (await client.get("/v2/concurrency-check", headers=auth(ALPHA_KEY))).json()
    assert check == {"success": True, "concurrency": 0, "maxConcurrency": 2}


async def test_the_queue_counts_the_pages_of_running_jobs(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl = await client.post("/v2/crawl", json={"url": "https://example.com/", "limit": 10}, headers=auth(ALPHA_KEY))
    assert crawl.status_code == 200
    clock.advance(2)  # two workers, one page a second each: 4 of 10 pages scraped
    queue = (await client.get("/v2/team/queue-status", headers=auth(ALPHA_KEY))).json()
    assert (queue["jobsInQueue"], queue["activeJobsInQueue"], queue["waitingJobsInQueue"]) == (6, 2, 4)
    assert queue["mostRecentSuccess"] == isoformat_z(clock.now())  # the 4th page was done just now
    assert (await client.get("/v2/concurrency-check", headers=auth(ALPHA_KEY))).json()["concurrency"] == 2
    other = (await client.get("/v2/team/queue-status", headers=auth(BETA_KEY))).json()
    assert other["jobsInQueue"] == 0, "a team sees only its own queue"
    clock.advance(60)
    assert (await client.get("/v2/team/queue-status", headers=auth(ALPHA_KEY))).json()["jobsInQueue"] == 0
