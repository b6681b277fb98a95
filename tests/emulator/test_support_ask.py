"""POST /v2/support/ask: rule-based diagnosis of the team's own failed jobs, feedback, limits, the budget."""

from __future__ import annotations

import itertools
import uuid
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator

ENVELOPE = {"requestId", "answer", "confidence", "fixParameters", "validation", "feedback", "durationMs"}


async def ask(client: httpx.AsyncClient, key: str = ALPHA_KEY, **body: Any) -> httpx.Response:
    return await client.post("/v2/support/ask", json={"question": "Why did my job fail?", **body}, headers=auth(key))


async def diagnose(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await ask(client, **body)
    assert response.status_code == 200, response.text
    envelope = dict(response.json())
    assert set(envelope) == ENVELOPE
    return envelope


async def scrape(client: httpx.AsyncClient, **body: Any) -> str:
    response = await client.post("/v2/scrape", json=body, headers=auth(ALPHA_KEY))
    team_jobs = response.json()
    if response.status_code == 200:
        return str(team_jobs["data"]["metadata"]["scrapeId"])
    entries = (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).json()["data"]
    return str(entries[0]["id"])


async def test_timeout_is_diagnosed_fixed_and_validated(client: httpx.AsyncClient, emulator: Emulator) -> None:
    slow = next(p for p in emulator.sites.site("example.com").pages() if p.section == "reports")
    job_id = await scrape(client, url=slow.url)
    envelope = await diagnose(client, jobId=job_id, rationale="The user wants the annual report as markdown.")
    assert envelope["confidence"] == "high" and "timed out" in envelope["answer"]
    timeout = envelope["fixParameters"]["timeout"]
    assert slow.load_ms < timeout <= 300000
    assert envelope["validation"]["tested"] is True and envelope["validation"]["result"] == "success"
    assert envelope["feedback"] is None
    # The fix really works when the caller applies it.
    fixed_body = {"url": slow.url, **envelope["fixParameters"]}
    fixed = await client.post("/v2/scrape", json=fixed_body, headers=auth(ALPHA_KEY))
    assert fixed.status_code == 200


async def test_latest_failed_job_is_used_without_a_job_id(client: httpx.AsyncClient) -> None:
    await scrape(client, url="https://example.com/about")  # fine
    await scrape(client, url="https://example.com/pricing/enterprise", proxy="basic")
    envelope = await diagnose(client)
    assert envelope["fixParameters"] == {"proxy": "auto"} and "anti-bot" in envelope["answer"]
    assert envelope["validation"]["result"] == "success"


@pytest.mark.parametrize(
    ("body", "fix"),
    [
        ({"url": "https://example.com/products"}, {"waitFor": 4000}),
        ({"url": "https://example.com/about", "lockdown": True}, {"lockdown": False}),
        ({"url": "https://example.com/about", "minAge": 1}, {"minAge": None}),
    ],
)
async def test_rules_with_a_parameter_fix(
    client: httpx.AsyncClient, emulator: Emulator, body: dict[str, Any], fix: dict[str, Any]
) -> None:
    if "waitFor" in fix:  # a little more than the page's own rendering delay, in whole seconds
        render_ms = emulator.sites.site("example.com").fetch(body["url"]).render_ms
        fix = {"waitFor": (render_ms + 500 + 999) // 1000 * 1000}
    job_id = await scrape(client, **body)
    envelope = await diagnose(client, jobId=job_id)
    assert envelope["confidence"] == "high" and envelope["fixParameters"] == fix
    assert envelope["validation"]["result"] == "success"


async def test_missing_page_suggests_the_closest_url(client: httpx.AsyncClient, emulator: Emulator) -> None:
    post = next(p for p in emulator.sites.site("example.com").pages() if p.path.startswith("/blog/"))
    typo = post.url + "-old"
    job_id = await scrape(client, url=typo)
    envelope = await diagnose(client, jobId=job_id)
    assert envelope["fixParameters"] == {"url": post.url} and "404" in envelope["answer"]
    assert envelope["validation"]["result"] == "success"


async def test_site_error_is_not_a_parameter_problem(client: httpx.AsyncClient) -> None:
    job_id = await scrape(client, url="https://example.com/status/legacy")
    envelope = await diagnose(client, jobId=job_id)
    assert envelope["fixParameters"] is None and envelope["confidence"] == "medium"
    assert envelope["validation"] == {
        "tested": True,
        "result": "failure",
        "evidence": "Re-scraped https://example.com/status/legacy: status 500.",
    }


async def test_robots_blocked_crawl(client: httpx.AsyncClient) -> None:
    crawl = await client.post("/v2/crawl", json={"url": "https://example.com/admin"}, headers=auth(ALPHA_KEY))
    envelope = await diagnose(client, jobId=crawl.json()["id"], question="My crawl failed immediately")
    assert envelope["fixParameters"] == {"ignoreRobotsTxt": True} and "robots.txt" in envelope["answer"]
    assert envelope["validation"]["result"] == "success"


async def test_crawl_filtered_to_nothing(client: httpx.AsyncClient) -> None:
    crawl = await client.post(
        "/v2/crawl", json={"url": "https://example.com/", "includePaths": ["^/nope/"]}, headers=auth(ALPHA_KEY)
    )
    envelope = await diagnose(client, jobId=crawl.json()["id"], question="Why only one page?")
    assert envelope["fixParameters"]["includePaths"] == [] and "includePaths" in envelope["answer"]
    assert envelope["validation"]["result"] == "success"


async def test_crawl_page_timeout_is_fixed_in_scrape_options(client: httpx.AsyncClient, clock: ManualClock) -> None:
    crawl = await client.post(
        "/v2/crawl", json={"url": "https://example.com/reports", "crawlEntireDomain": False}, headers=auth(ALPHA_KEY)
    )
    envelope = await diagnose(client, jobId=crawl.json()["id"])
    assert set(envelope["fixParameters"]) == {"scrapeOptions"}
    assert envelope["fixParameters"]["scrapeOptions"]["timeout"] > 60000


async def test_agent_job_needs_an_llm(client: httpx.AsyncClient, emulator: Emulator) -> None:
    job = emulator.jobs.create_agent_job(Caller(emulator.team_by_key(ALPHA_KEY), ALPHA_KEY), "Find prices")
    envelope = await diagnose(client, jobId=job.id)
    assert "LLM" in envelope["answer"] and envelope["fixParameters"] is None
    assert envelope["validation"]["result"] == "skipped" and envelope["validation"]["tested"] is False


# -- when the agent is stuck -------------------------------------------------------------------


async def test_no_job_and_no_failures_gives_feedback(client: httpx.AsyncClient) -> None:
    await scrape(client, url="https://example.com/about")
    envelope = await diagnose(client, question="How do I verify a webhook signature?")
    assert envelope["feedback"]["blockedBy"].startswith("No jobId given")
    assert envelope["feedback"]["attempted"]
    assert envelope["fixParameters"] is None and envelope["confidence"] == "low"
    assert "docs/webhook-signatures.md" in envelope["answer"]


async def test_unknown_or_foreign_job_gives_feedback(client: httpx.AsyncClient) -> None:
    foreign = await client.post("/v2/scrape", json={"url": "https://example.com/gone"}, headers=auth(BETA_KEY))
    foreign_id = foreign.json()["data"]["metadata"]["scrapeId"]
    for job_id in (foreign_id, str(uuid.uuid4()), "not-even-a-uuid"):
        envelope = await diagnose(client, jobId=job_id)
        assert envelope["feedback"]["blockedBy"] == f"Job {job_id} was not found for this team."
        assert envelope["answer"] and envelope["fixParameters"] is None


async def test_job_without_failure_gives_feedback(client: httpx.AsyncClient) -> None:
    job_id = await scrape(client, url="https://example.com/about")
    envelope = await diagnose(client, jobId=job_id)
    assert "no failure" in envelope["answer"] and envelope["feedback"]["blockedBy"]


async def test_team_scope_when_looking_for_failed_jobs(client: httpx.AsyncClient) -> None:
    await client.post("/v2/scrape", json={"url": "https://example.com/gone"}, headers=auth(BETA_KEY))
    envelope = await diagnose(client)
    assert envelope["feedback"] is not None  # beta's failure is not alpha's to diagnose


async def test_old_failures_are_not_picked_up(client: httpx.AsyncClient, clock: ManualClock) -> None:
    await scrape(client, url="https://example.com/gone")
    clock.advance(24 * 3600 + 1)
    assert (await diagnose(client))["feedback"] is not None


# -- limits and the budget -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"question": ""}, 400),
        ({"question": "q" * 8000}, 200),
        ({"question": "q" * 8001}, 400),
        ({"question": "q", "rationale": ""}, 400),
        ({"question": "q", "rationale": "r" * 2000}, 200),
        ({"question": "q", "rationale": "r" * 2001}, 400),
        ({"question": "q", "context": {"client": "tests", "attempt": 2}}, 200),
        ({"question": "q", "context": "not an object"}, 400),
    ],
)
async def test_ask_limits(client: httpx.AsyncClient, body: dict[str, Any], status: int) -> None:
    response = await client.post("/v2/support/ask", json=body, headers=auth(ALPHA_KEY))
    assert response.status_code == status
    if status == 400:
        assert set(response.json()) == {"error"}


async def test_ask_auth_and_bad_json(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v2/support/ask", json={"question": "q"})).status_code == 401
    bad = await client.post("/v2/support/ask", content=b"[1,2]", headers=auth(ALPHA_KEY))
    assert bad.status_code == 400 and set(bad.json()) == {"error"}


async def test_budget_exceeded_answers_504_with_a_partial_envelope(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    emulator.support.budget_seconds = 0
    response = await ask(client)
    body = response.json()
    assert response.status_code == 504
    assert ENVELOPE <= set(body) and "error" in body
    assert body["feedback"]["blockedBy"].startswith("The 0 s budget ran out")


async def test_budget_running_out_before_validation_keeps_the_diagnosis(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    slow = next(p for p in emulator.sites.site("example.com").pages() if p.section == "reports")
    job_id = await scrape(client, url=slow.url)
    ticks = itertools.count()
    # Each checkpoint reads the timer once: start, after finding the job, after the rule, then too late.
    emulator.support.budget_seconds = 2.5
    emulator.support.timer = lambda: float(next(ticks))
    response = await ask(client, jobId=job_id)
    body = response.json()
    assert response.status_code == 504
    assert "timed out" in body["answer"] and body["fixParameters"]["timeout"] > 60000
    assert body["validation"] is None
    assert any("looked up job" in step for step in body["feedback"]["attempted"])
