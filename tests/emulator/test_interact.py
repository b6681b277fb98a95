"""Scrape-bound interact: `POST/DELETE /v2/scrape/{jobId}/interact`."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, auth
from tests.support.recording_backend import RecordingBackend
from tui.contract.requests import ScrapeRequest
from tui.emulator.browser.backend import ExecutionOutcome
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator

UNKNOWN_JOB = "0d7c8e9f-1111-4222-8333-444455556666"


def scrape_job(emulator: Emulator, key: str = ALPHA_KEY, url: str = "https://acme-outdoor.com/") -> str:
    team = emulator.team_by_key(key)
    assert team is not None and emulator.jobs is not None
    return emulator.jobs.create_scrape(Caller(team, key), ScrapeRequest(url=url)).id


async def interact(client: httpx.AsyncClient, job_id: str, key: str = ALPHA_KEY, **body: Any) -> httpx.Response:
    return await client.post(f"/v2/scrape/{job_id}/interact", json=body, headers=auth(key))


async def stop(client: httpx.AsyncClient, job_id: str, key: str = ALPHA_KEY) -> httpx.Response:
    return await client.delete(f"/v2/scrape/{job_id}/interact", headers=auth(key))


async def test_first_call_opens_a_session_at_the_job_url_and_later_calls_reuse_it(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, backend: RecordingBackend
) -> None:
    job_id = scrape_job(browser_emulator, url="https://acme-outdoor.com/about")
    backend.script(
        ExecutionOutcome("", "", 0, False, None, None),  # the navigation to the job's URL
        ExecutionOutcome("About us\n", "", 0, False, None, "About us"),
    )
    r = await interact(browser_client, job_id, code="await page.title()")
    assert r.status_code == 200, r.text
    body = r.json()
    sid = body["sessionId"]
    assert body["success"] is True and body["stdout"] == "About us\n" and body["result"] == "About us"
    assert body["exitCode"] == 0 and body["killed"] is False and "error" not in body
    assert body["cdpUrl"].startswith(f"ws://emulator.test/cdp/{sid}?token=")
    assert body["liveViewUrl"].startswith(f"http://emulator.test/live/{sid}?token=")
    assert body["interactiveLiveViewUrl"].endswith("&interactive=1")
    assert "https://acme-outdoor.com/about" in backend.executions[0].code
    assert backend.executions[1].language == "node" and backend.executions[1].timeout == 30

    r = await interact(browser_client, job_id, key=ALPHA_KEY_2, code="1 + 1", language="python", timeout=5)
    assert r.json()["sessionId"] == sid
    assert len(backend.launches) == 1
    assert (backend.executions[-1].language, backend.executions[-1].timeout) == ("python", 5)

    listed = (await browser_client.get("/v2/browser", headers=auth(ALPHA_KEY))).json()["sessions"]
    assert [s["id"] for s in listed] == [sid]
    entries = (
        await browser_client.get("/v2/team/activity", params={"endpoint": "interact"}, headers=auth(ALPHA_KEY))
    ).json()["data"]
    assert [e["target"] for e in entries] == [sid, sid]


async def test_failed_code_reports_error(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, backend: RecordingBackend
) -> None:
    job_id = scrape_job(browser_emulator)
    backend.script(ExecutionOutcome("", "", 0, False, None, None), ExecutionOutcome("", "", None, True, None, None))
    r = await interact(browser_client, job_id, code="while (true) {}", timeout=1)
    assert r.status_code == 200 and r.json()["killed"] is True and r.json()["error"] == "Execution failed"


async def test_delete_stops_the_session_and_later_interact_is_410(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, backend: RecordingBackend, clock: ManualClock
) -> None:
    job_id = scrape_job(browser_emulator)
    sid = (await interact(browser_client, job_id, code="1")).json()["sessionId"]
    clock.advance(90)
    r = await stop(browser_client, job_id)
    assert r.status_code == 200
    assert r.json() == {"success": True, "sessionDurationMs": 90_000, "creditsBilled": 4}
    assert backend.closes == [(sid, False)]
    r = await interact(browser_client, job_id, code="1")
    assert r.status_code == 410 and r.json()["error"] == "Browser session has been destroyed."


async def test_expired_bound_session_is_410(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, clock: ManualClock
) -> None:
    job_id = scrape_job(browser_emulator)
    assert (await interact(browser_client, job_id, code="1")).status_code == 200
    clock.advance(300)  # default activityTtl
    assert (await interact(browser_client, job_id, code="1")).status_code == 410


async def test_delete_without_a_session_is_404(browser_client: httpx.AsyncClient, browser_emulator: Emulator) -> None:
    job_id = scrape_job(browser_emulator)
    r = await stop(browser_client, job_id)
    assert r.status_code == 404 and r.json()["error"] == "Browser session not found."


async def test_jobs_of_other_teams_unknown_jobs_and_bad_ids(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator
) -> None:
    beta_job = scrape_job(browser_emulator, key=BETA_KEY)
    r = await interact(browser_client, beta_job, code="1")
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert (await stop(browser_client, beta_job)).status_code == 403
    r = await interact(browser_client, UNKNOWN_JOB, code="1")
    assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"
    assert (await stop(browser_client, UNKNOWN_JOB)).status_code == 404
    r = await interact(browser_client, "not-a-uuid", code="1")
    assert r.status_code == 400 and r.json()["error"] == "Invalid job ID format. Job ID must be a valid UUID."
    assert (await stop(browser_client, "12345")).status_code == 400


async def test_code_or_prompt_rules(browser_client: httpx.AsyncClient, browser_emulator: Emulator) -> None:
    job_id = scrape_job(browser_emulator)
    r = await interact(browser_client, job_id)
    assert r.status_code == 400
    assert r.json()["error"] == "Either 'code' or 'prompt' must be provided." and r.json()["code"] == "BAD_REQUEST"
    r = await interact(browser_client, job_id, code="1", prompt="click login")
    assert r.status_code == 400 and "exactly one" in r.json()["error"]
    r = await interact(browser_client, job_id, prompt="click the login button")
    assert r.status_code == 502 and r.json()["code"] == "BAD_GATEWAY" and "no AI model" in r.json()["error"]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"code": ""}, 400),
        ({"code": "x" * 100_000}, 200),
        ({"code": "x" * 100_001}, 400),
        ({"prompt": ""}, 400),
        ({"prompt": "p" * 10_000}, 502),
        ({"prompt": "p" * 10_001}, 400),
        ({"code": "1", "timeout": 0.5}, 400),
        ({"code": "1", "timeout": 1}, 200),
        ({"code": "1", "timeout": 300}, 200),
        ({"code": "1", "timeout": 300.5}, 400),
        ({"code": "1", "language": "perl"}, 400),
        ({"code": "1", "origin": "dashboard"}, 200),
    ],
)
async def test_interact_boundaries(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, body: dict[str, Any], status: int
) -> None:
    job_id = scrape_job(browser_emulator)
    r = await interact(browser_client, job_id, **body)
    assert r.status_code == status, r.text


async def test_malformed_json_is_400(browser_client: httpx.AsyncClient, browser_emulator: Emulator) -> None:
    job_id = scrape_job(browser_emulator)
    r = await browser_client.post(f"/v2/scrape/{job_id}/interact", content=b"{code", headers=auth(ALPHA_KEY))
    assert r.status_code == 400 and r.json()["code"] == "BAD_REQUEST_INVALID_JSON"


async def test_without_a_browser_interact_is_503(client: httpx.AsyncClient, emulator: Emulator) -> None:
    job_id = scrape_job(emulator)
    r = await interact(client, job_id, code="1")
    assert r.status_code == 503 and r.json()["code"] == "SERVICE_UNAVAILABLE"


async def test_concurrency_limit_and_credits_apply(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator
) -> None:
    alpha = browser_emulator.team_by_name("alpha")
    assert alpha is not None
    alpha.max_browser_sessions = 1
    first, second = scrape_job(browser_emulator), scrape_job(browser_emulator)
    assert (await interact(browser_client, first, code="1")).status_code == 200
    r = await interact(browser_client, second, code="1")
    assert r.status_code == 429 and "maximum number of concurrent browser sessions" in r.json()["error"]
    assert (await interact(browser_client, first, code="1")).status_code == 200  # reuse is not a new session
    await stop(browser_client, first)
    alpha.credits_remaining = 0
    r = await interact(browser_client, second, code="1")
    assert r.status_code == 402 and r.json()["code"] == "PAYMENT_REQUIRED"
