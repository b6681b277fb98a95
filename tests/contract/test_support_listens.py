"""Support ask through our typed client: one failed job, three questions, answers that differ where they should.

The job is a lockdown scrape that missed the cache. Asked about lockdown, the agent
recommends turning it off and tests that; asked about maxAge by a caller who needs
lockdown, it says maxAge cannot help, will not recommend turning lockdown off, and
shows the cache lookup it made; asked about billing, it says it cannot diagnose that.
"""

from __future__ import annotations

from tests.contract.service import SITE, Service
from tui.api.client import WdsClient
from tui.contract.models import SupportAnswer
from tui.emulator.jobs.scrape_engine import FailureKind

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
