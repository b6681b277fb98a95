"""Support ask through our typed client: one failed job, three questions, answers that differ where they should.

The job is a lockdown scrape that missed the cache. Asked about lockdown, the agent
recommends turning it off and tests that; asked about maxAge by a caller who needs
lockdown, it says maxAge cannot help, will not recommend turning lockdown off, and
shows the cache lookup it made; asked about billing, it says it cannot diagnose that.
The last test asks over a real loopback server (`ServerThread`), as any client would.
"""

from __future__ import annotations

import pytest

from tests.contract.service import SITE, Service
from tests.support.emulator_teams import ALPHA_KEY
from tui.api.client import WdsClient
from tui.contract.models import SupportAnswer
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.jobs.scrape_engine import FailureKind
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

PAGE = f"{SITE}/about"


async def test_three_questions_about_one_failed_job(service: Service, alpha: WdsClient) -> None:
    job = service.emulator.jobs.failing_scrape(service.caller(), FailureKind.LOCKDOWN_MISS, "acme-outdoor.com")
    lockdown = await alpha.support.ask("My lockdown scrape failed. Why?", job_id=job.id)
    max_age = await alpha.support.ask(
        "Can a bigger maxAge fix it?", rationale="We need lockdown for compliance.", job_id=job.id
    )
    billing = await alpha.support.ask("Why was I billed for this?", job_id=job.id)
    answers: list[SupportAnswer] = [lockdown, max_age, billing]

    # Where they differ: the recommended fix, the confidence, the tested claim, the scope.
    assert [a.fix_parameters for a in answers] == [{"lockdown": False}, None, None]
    assert [a.confidence for a in answers] == ["high", "medium", "low"]
    validations = [a.validation for a in answers]
    assert all(v is not None for v in validations)
    assert [(v.tested, v.result) for v in validations if v is not None] == [
        (True, "success"),
        (True, "failure"),
        (False, "skipped"),
    ]
    assert lockdown.validation is not None and (lockdown.validation.evidence or "").startswith(f"Re-scraped {PAGE}")
    assert max_age.validation is not None and "your team's cache" in (max_age.validation.evidence or "")
    assert '"We need lockdown for compliance"' in max_age.answer and "keeps lockdown on" in max_age.answer
    assert billing.answer.startswith("I can't diagnose that from this job: your question is about billing")
    assert [a.is_stuck for a in answers] == [False, False, True]

    # Where they agree: the job's page, and the same request shape back.
    assert all(PAGE in a.answer for a in answers)
    assert all(isinstance(a.duration_ms, int) and a.request_id for a in answers)
    assert len({a.request_id for a in answers}) == 3


@pytest.mark.socket
async def test_two_questions_over_a_real_server(clock: ManualClock) -> None:
    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY]}, seed=7, history=False, clock=clock)
    team = emulator.team_by_key(ALPHA_KEY)
    assert team is not None
    job = emulator.jobs.failing_scrape(Caller(team, ALPHA_KEY), FailureKind.LOCKDOWN_MISS, "acme-outdoor.com")
    with ServerThread(emulator) as base_url:
        async with WdsClient(base_url, ALPHA_KEY) as client:
            plain = await client.support.ask("Why did lockdown fail?", job_id=job.id)
            bound = await client.support.ask(
                "Why did lockdown fail?", rationale="Lockdown is mandatory here.", job_id=job.id
            )
    assert (plain.fix_parameters, plain.confidence) == ({"lockdown": False}, "high")
    assert (bound.fix_parameters, bound.confidence) == (None, "medium")
    assert 'you said "Lockdown is mandatory here"' in bound.answer
    assert PAGE in plain.answer and PAGE in bound.answer
