"""POST /v2/support/ask listens: the same failed job asked different questions gets different answers.

Over HTTP (the app in-process): the diagnosis the question or rationale is about comes first,
a fix the rationale rules out is never recommended (the answer quotes why and goes on to the
next-best fix, or says there is none), a question outside the job's failure gets an honest
"I can't diagnose that", and `validation` only tells of the re-run made for this question.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.jobs.scrape_engine import FailureKind
from tui.emulator.service import Emulator

ABOUT = "https://example.com/about"
COMPLIANCE = "We need lockdown for compliance."
SKIPPED_OUT_OF_SCOPE = {
    "tested": False,
    "result": "skipped",
    "evidence": "Nothing was re-run: the question is outside what I can diagnose from this job.",
}


async def ask(client: httpx.AsyncClient, job_id: str, question: str, rationale: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"question": question, "jobId": job_id}
    if rationale is not None:
        body["rationale"] = rationale
    response = await client.post("/v2/support/ask", json=body, headers=auth(ALPHA_KEY))
    assert response.status_code == 200, response.text
    return dict(response.json())


def lockdown_miss(emulator: Emulator) -> str:
    """A lockdown scrape of a page the team never cached: it fails with SCRAPE_LOCKDOWN_CACHE_MISS."""
    caller = Caller(emulator.team_by_key(ALPHA_KEY), ALPHA_KEY)  # type: ignore[arg-type]
    job = emulator.jobs.failing_scrape(caller, FailureKind.LOCKDOWN_MISS)
    assert job.failure is not None and job.failure.url == ABOUT
    return str(job.id)


async def test_three_questions_about_one_lockdown_miss(client: httpx.AsyncClient, emulator: Emulator) -> None:
    job_id = lockdown_miss(emulator)
    about_lockdown = await ask(client, job_id, "Why did my lockdown scrape fail?")
    about_max_age = await ask(client, job_id, "Would a larger maxAge make this scrape work?", COMPLIANCE)
    about_billing = await ask(client, job_id, "Can I get a refund on my invoice for this month?")

    # Asked about lockdown: turn it off, tested now by re-scraping without it.
    assert about_lockdown["fixParameters"] == {"lockdown": False} and about_lockdown["confidence"] == "high"
    assert about_lockdown["validation"]["tested"] is True and about_lockdown["validation"]["result"] == "success"
    assert about_lockdown["validation"]["evidence"].startswith(f"Re-scraped {ABOUT} with the fix: status 200")
    assert about_lockdown["feedback"] is None

    # Asked about maxAge, needing lockdown: maxAge cannot help (the cache was looked up for this
    # question), turning lockdown off is ruled out in the caller's words, and nothing else keeps it on.
    answer = about_max_age["answer"]
    assert answer.startswith(f"Raising maxAge cannot help: your team has no copy of {ABOUT} cached at any age")
    assert 'would fix it, but you said "We need lockdown for compliance", so I do not recommend it.' in answer
    assert answer.endswith("No other fix I know keeps lockdown on.")
    assert about_max_age["fixParameters"] is None and about_max_age["confidence"] == "medium"
    assert about_max_age["validation"] == {
        "tested": True,
        "result": "failure",
        "evidence": f"Looked {ABOUT} up in your team's cache now, with lockdown kept and any maxAge "
        "(nothing contacted, not billed): no copy is stored.",
    }

    # Asked about billing: out of scope, said plainly, with what the agent can help with.
    assert about_billing["answer"].startswith("I can't diagnose that from this job: your question is about billing.")
    assert "ask about lockdown, maxAge or the cache" in about_billing["answer"]
    assert about_billing["confidence"] == "low" and about_billing["fixParameters"] is None
    assert about_billing["validation"] == SKIPPED_OUT_OF_SCOPE
    assert about_billing["feedback"]["blockedBy"].startswith("The question is about billing;")

    # They agree on the job's facts: the page, and the failure as the scrape recorded it.
    assert all(ABOUT in a["answer"] for a in (about_lockdown, about_max_age, about_billing))
    assert "Lockdown mode found no cached copy of this URL" in about_billing["answer"]
    assert len({a["validation"]["evidence"] for a in (about_lockdown, about_max_age, about_billing)}) == 3


async def test_an_older_cached_copy_makes_max_age_the_fix_that_keeps_lockdown(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    await client.post("/v2/scrape", json={"url": ABOUT}, headers=auth(ALPHA_KEY))  # fills the team's cache
    clock.advance(3 * 3600)
    failed = await client.post(
        "/v2/scrape", json={"url": ABOUT, "lockdown": True, "maxAge": 3_600_000}, headers=auth(ALPHA_KEY)
    )
    assert failed.json()["code"] == "SCRAPE_LOCKDOWN_CACHE_MISS"
    job_id = (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).json()["data"][0]["id"]

    envelope = await ask(client, job_id, "What maxAge do I need?", COMPLIANCE)
    assert envelope["fixParameters"] == {"maxAge": 4 * 3_600_000} and envelope["confidence"] == "high"
    assert "Keep lockdown on and raise maxAge" in envelope["answer"]
    assert envelope["validation"]["result"] == "success"
    assert envelope["validation"]["evidence"].startswith(f"Re-ran the scrape of {ABOUT} from your team's cache")
    # Asked about lockdown with no constraint, turning it off ranks first: another fix, another test.
    other = await ask(client, job_id, "Should I turn lockdown off?")
    assert other["fixParameters"] == {"lockdown": False}
    assert other["validation"]["evidence"].startswith(f"Re-scraped {ABOUT} with the fix")
    # The fix works when the caller applies it, still in lockdown.
    fixed = await client.post(
        "/v2/scrape", json={"url": ABOUT, "lockdown": True, **envelope["fixParameters"]}, headers=auth(ALPHA_KEY)
    )
    assert fixed.status_code == 200 and fixed.json()["data"]["metadata"]["cacheState"] == "hit"


async def test_the_question_topic_comes_first_and_the_fix_follows(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    job_id = lockdown_miss(emulator)
    envelope = await ask(client, job_id, "Would a larger maxAge make this scrape work?")  # no constraint stated
    assert envelope["answer"].startswith("Raising maxAge cannot help")
    assert "What fixes it: Lockdown mode only reads the cache" in envelope["answer"]
    assert envelope["fixParameters"] == {"lockdown": False} and envelope["validation"]["result"] == "success"


@pytest.mark.parametrize(
    ("question", "about"),
    [
        pytest.param("How do I verify the signature of a webhook?", "about webhooks", id="unrelated-feature"),
        pytest.param("Should I use the enhanced proxy?", "about the proxy, which played no part", id="other-topic"),
        pytest.param("asdf qwerty zxcv", "not one I can read as being about this job", id="gibberish"),
        pytest.param("How much does this cost?", "about billing", id="price"),
        pytest.param("How do I change my plan?", "about your plan", id="plan"),
    ],
)
async def test_questions_outside_the_failure_are_said_to_be(
    client: httpx.AsyncClient, emulator: Emulator, question: str, about: str
) -> None:
    envelope = await ask(client, lockdown_miss(emulator), question)
    assert envelope["answer"].startswith(f"I can't diagnose that from this job: your question is {about}")
    assert envelope["confidence"] == "low" and envelope["fixParameters"] is None
    assert envelope["validation"] == SKIPPED_OUT_OF_SCOPE and envelope["feedback"]["attempted"]


@pytest.mark.parametrize(
    ("question", "rationale"),
    [
        pytest.param(
            "Why did my scrape fail?", "Lockdown isn't required for us, we just want fresh data.", id="waived"
        ),
        pytest.param("Why did my scrape fail?", "We only turned lockdown on by accident.", id="by-accident"),
        pytest.param("Why did my scrape fail? I'm on the free plan.", None, id="mentions-plan"),
        pytest.param("Why did my scrape fail? My account is new.", None, id="mentions-account"),
    ],
)
async def test_a_failure_question_gets_the_fix_the_caller_wants(
    client: httpx.AsyncClient, emulator: Emulator, question: str, rationale: str | None
) -> None:
    envelope = await ask(client, lockdown_miss(emulator), question, rationale)
    assert envelope["answer"].startswith("Lockdown mode only reads the cache")
    assert "you said" not in envelope["answer"]
    assert envelope["fixParameters"] == {"lockdown": False} and envelope["confidence"] == "high"
    assert envelope["validation"]["result"] == "success" and envelope["feedback"] is None


async def test_respecting_robots_txt_leaves_no_fix(client: httpx.AsyncClient) -> None:
    crawl = await client.post("/v2/crawl", json={"url": "https://example.com/admin"}, headers=auth(ALPHA_KEY))
    job_id = crawl.json()["id"]
    plain = await ask(client, job_id, "Why did my crawl fail?")
    bound = await ask(client, job_id, "Why did my crawl fail?", "Our policy: we must respect robots.txt.")
    assert plain["fixParameters"] == {"ignoreRobotsTxt": True} and plain["validation"]["result"] == "success"
    assert bound["fixParameters"] is None and bound["confidence"] == "medium"
    assert 'you said "Our policy: we must respect robots.txt"' in bound["answer"]
    assert bound["answer"].endswith("No other fix I know respects robots.txt.")
    assert bound["validation"]["tested"] is False and bound["validation"]["result"] == "skipped"


async def test_a_fix_that_failed_its_test_is_low_confidence(client: httpx.AsyncClient) -> None:
    missing = "https://acme-outdoor.com/no-such-page-here"  # its closest page on the map answers 500
    scraped = await client.post("/v2/scrape", json={"url": missing}, headers=auth(ALPHA_KEY))
    envelope = await ask(client, scraped.json()["data"]["metadata"]["scrapeId"], "Which page should I scrape?")
    assert envelope["fixParameters"] == {"url": "https://acme-outdoor.com/status/legacy"}
    assert envelope["validation"]["result"] == "failure" and envelope["confidence"] == "low"


async def test_the_same_question_gets_the_same_answer(client: httpx.AsyncClient, emulator: Emulator) -> None:
    job_id = lockdown_miss(emulator)
    first, second = [await ask(client, job_id, "Would maxAge help?", COMPLIANCE) for _ in range(2)]
    assert first["requestId"] != second["requestId"]
    for envelope in (first, second):
        del envelope["requestId"], envelope["durationMs"]
    assert first == second


async def test_a_fix_not_yet_tested_is_at_most_medium(client: httpx.AsyncClient, emulator: Emulator) -> None:
    job_id = lockdown_miss(emulator)
    ticks = iter(range(100))
    # Checkpoints: start, job found, verdict reached, then the budget is spent before the fix's re-run.
    emulator.support.budget_seconds = 2.5
    emulator.support.timer = lambda: float(next(ticks))
    response = await client.post(
        "/v2/support/ask", json={"question": "Why did lockdown fail?", "jobId": job_id}, headers=auth(ALPHA_KEY)
    )
    body = response.json()
    assert response.status_code == 504 and body["fixParameters"] == {"lockdown": False}
    assert body["validation"] is None and body["confidence"] == "medium"
