"""Extract and agent jobs: `GET /v2/extract/{id}`.

The contract shows no way to start such a job (and the emulator has no LLM to
run one), so jobs are made by the emulator's store, as its seeded history does,
and found the way a user finds them: through the activity list.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.contract.refusals import assert_fails_with, assert_job_id_refused
from tests.contract.service import SITE, UNKNOWN_ID, Service
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY
from tui.api.client import WdsClient
from tui.api.errors import APIStatusError, NotFoundError, PermissionDeniedError
from tui.contract.models import ExtractStatus, JobState


def agent_job(service: Service, key: str = ALPHA_KEY, endpoint: str = "agent") -> str:
    job = service.emulator.jobs.create_agent_job(
        service.caller(key), "List every product with its price", [f"{SITE}/products"], endpoint=endpoint
    )
    return str(job.id)


@pytest.mark.parametrize("kind", ["agent", "extract"])
async def test_get_happy_path_finds_the_job_from_activity(service: Service, alpha: WdsClient, kind: str) -> None:
    made = agent_job(service, endpoint=kind)
    [entry] = (await alpha.team.activity(endpoint=kind)).entries
    assert entry.id == made
    job = await alpha.extract.get(entry.id)
    assert isinstance(job, ExtractStatus) and job.success is True
    assert job.status == JobState.FAILED and job.data is None
    assert job.error is not None and "LLM" in job.error, "the emulator says why it cannot run the job"
    assert job.expires_at == service.clock.now() + timedelta(hours=24)


async def another_teams(service: Service) -> str:
    """403: the job belongs to another team."""
    return agent_job(service, BETA_KEY)


async def unknown(service: Service) -> str:
    """404: no such job."""
    return UNKNOWN_ID


async def a_scrape(service: Service) -> str:
    """404: a scrape job is not an extract job."""
    return service.scrape_job()


GET_STATUSES = [
    pytest.param(another_teams, PermissionDeniedError, 403, id="403-another-teams-job"),
    pytest.param(unknown, NotFoundError, 404, id="404-unknown-job"),
    pytest.param(a_scrape, NotFoundError, 404, id="404-a-scrape-is-not-an-extract"),
]


@pytest.mark.parametrize(("scenario", "error", "status"), GET_STATUSES)
async def test_get_statuses(
    service: Service, alpha: WdsClient, scenario: Any, error: type[APIStatusError], status: int
) -> None:
    job_id = await scenario(service)
    failure = await assert_fails_with(lambda: alpha.extract.get(job_id), error, status)
    assert "products" not in str(failure.body), "nothing of the job leaks"


async def test_jobs_of_another_team_are_never_listed(service: Service, alpha: WdsClient, beta: WdsClient) -> None:
    agent_job(service, BETA_KEY)
    assert await alpha.team.iter_activity(endpoint="agent").to_list() == []
    assert len(await beta.team.iter_activity(endpoint="agent").to_list()) == 1


async def test_get_job_id_must_be_a_uuid(service: Service, alpha: WdsClient) -> None:
    await assert_job_id_refused(service, lambda: alpha.extract.get("extract-1"), "GET", "/v2/extract/extract-1")
