"""Scrape-bound browser: `POST /v2/scrape/{jobId}/interact` and `DELETE /v2/scrape/{jobId}/interact`,
on the recording backend (real Chromium: tests/browser)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from tests.contract.refusals import (
    Limit,
    assert_bad_request,
    assert_fails_with,
    assert_job_id_refused,
    assert_limit,
    kwargs_of,
    limit_params,
    refused_before_sending,
)
from tests.contract.service import SITE, UNKNOWN_ID, Service
from tests.support.emulator_teams import ALPHA_KEY_2, BETA_KEY
from tui.api.client import WdsClient
from tui.api.errors import (
    APIStatusError,
    BadGatewayError,
    ConflictError,
    GoneError,
    InsufficientCreditsError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
)
from tui.contract.models import InteractionStopped, InteractResult, SessionStatus
from tui.contract.requests import InteractRequest
from tui.emulator.browser.backend import ExecutionOutcome, NoBrowserBackend

NAVIGATED = ExecutionOutcome("", "", 0, False, None, None)  # the first call's navigation to the job's URL


async def scraped(client: WdsClient, path: str = "/about") -> str:
    """A scrape through the client; its job id (`data.metadata.scrapeId`)."""
    job_id = (await client.scrape.create(f"{SITE}{path}")).job_id
    assert job_id is not None
    return job_id


async def test_interact_happy_path_opens_the_scraped_page_and_reuses_the_session(
    service: Service, alpha: WdsClient
) -> None:
    job_id = await scraped(alpha)
    service.backend.script(NAVIGATED, ExecutionOutcome("About\n", "", 0, False, None, "About | Acme Outdoor"))
    result = await alpha.scrape.interact(job_id, code="await page.title()")
    assert isinstance(result, InteractResult) and result.success is True and result.session_id
    assert result.live_view_url and result.interactive_live_view_url and result.cdp_url
    assert (result.stdout, result.result, result.stderr) == ("About\n", "About | Acme Outdoor", "")
    assert (result.exit_code, result.killed, result.error, result.failed) == (0, False, None, False)
    assert result.output is None, "output is the AI agent's answer, only with prompt"
    assert f"{SITE}/about" in service.backend.executions[0].code, "the session continues from the scraped page"
    assert (service.backend.executions[1].language, service.backend.executions[1].timeout) == ("node", 30)

    again = await service.client(ALPHA_KEY_2).scrape.interact(job_id, code="1 + 1", language="python", timeout=5)
    assert again.session_id == result.session_id and len(service.backend.launches) == 1
    assert [s.id for s in (await alpha.browser.list(status="active")).sessions] == [result.session_id]


async def test_interact_failure_is_reported_in_error(service: Service, alpha: WdsClient) -> None:
    job_id = await scraped(alpha)
    service.backend.script(NAVIGATED, ExecutionOutcome("", "", None, True, None, None))
    result = await alpha.scrape.interact(job_id, code="while (true) {}", timeout=1)
    assert result.success is True and result.killed and result.failed and result.error == "Execution failed"


INTERACT_LIMITS = [
    Limit("code-min", "code", {"code": "1"}, {"code": ""}),
    Limit("code-max", "code", {"code": "1" * 100_000}, {"code": "1" * 100_001}),
    Limit("timeout-min", "timeout", {"code": "1", "timeout": 1}, {"code": "1", "timeout": 0.5}),
    Limit("timeout-max", "timeout", {"code": "1", "timeout": 300}, {"code": "1", "timeout": 300.5}),
    Limit("language-enum", "language", {"code": "1", "language": "python"}, {"code": "1", "language": "ruby"}),
    Limit("code-and-prompt-both", "", {"code": "1"}, {"code": "1", "prompt": "click the tab"}),
    Limit("code-and-prompt-neither", "", {"code": "1", "origin": "contract"}, {"origin": "contract"}),
]


@pytest.mark.parametrize("limit", limit_params(INTERACT_LIMITS))
async def test_interact_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    job_id = await scraped(alpha)

    def call(body: dict[str, Any]) -> Awaitable[InteractResult]:
        return alpha.scrape.interact(job_id, **kwargs_of(InteractRequest, body))

    await assert_limit(service, limit, call, "POST", f"/v2/scrape/{job_id}/interact")
    assert service.backend.executions[-1].code == limit.inside["code"], "only the inside value ran"


@pytest.mark.parametrize(
    ("inside", "outside"), [("p", ""), ("p" * 10_000, "p" * 10_001)], ids=["prompt-min", "prompt-max"]
)
async def test_interact_prompt_limits(service: Service, alpha: WdsClient, inside: str, outside: str) -> None:
    """A valid prompt passes validation and reaches the agent, which the emulator has not: 502."""
    job_id = await scraped(alpha)
    with pytest.raises(BadGatewayError, match="no AI model"):
        await alpha.scrape.interact(job_id, prompt=inside)
    await refused_before_sending(service, lambda: alpha.scrape.interact(job_id, prompt=outside), "prompt")
    assert_bad_request(await service.raw("POST", f"/v2/scrape/{job_id}/interact", json={"prompt": outside}), "prompt")


# --- statuses: each scenario returns (the calling client, the job id) ---------------------------


async def no_credits(service: Service) -> tuple[WdsClient, str]:
    """402: no credits left for a browser session."""
    job_id = await scraped(service.client())
    service.team().credits_remaining = 0
    return service.client(), job_id


async def another_teams_job(service: Service) -> tuple[WdsClient, str]:
    """403: the scrape job belongs to another team."""
    return service.client(), await scraped(service.client(BETA_KEY))


async def unknown_job(service: Service) -> tuple[WdsClient, str]:
    """404: no such scrape job."""
    return service.client(), UNKNOWN_ID


async def a_crawl_is_not_a_scrape(service: Service) -> tuple[WdsClient, str]:
    """404: the id is a job, but not a scrape job."""
    return service.client(), (await service.client().crawl.start(SITE, limit=2)).id


async def stopped_session(service: Service) -> tuple[WdsClient, str]:
    """410: the bound session was stopped with DELETE .../interact."""
    job_id = await scraped(service.client())
    await service.client().scrape.interact(job_id, code="1")
    await service.client().scrape.stop_interaction(job_id)
    return service.client(), job_id


async def expired_session(service: Service) -> tuple[WdsClient, str]:
    """410: the bound session outlived its ttl (600 s by default)."""
    job_id = await scraped(service.client())
    await service.client().scrape.interact(job_id, code="1")
    service.clock.advance(600)
    return service.client(), job_id


async def concurrency_limit(service: Service) -> tuple[WdsClient, str]:
    """429: the team already runs its maximum of concurrent browser sessions."""
    service.team().max_browser_sessions = 1
    await service.client().browser.create(ttl=60)
    return service.client(), await scraped(service.client())


async def browser_service_failed(service: Service) -> tuple[WdsClient, str]:
    """502: the browser service failed to start a session."""
    service.backend.fail_launch_with = RuntimeError("chromium crashed")
    return service.client(), await scraped(service.client())


async def no_browser_feature(service: Service) -> tuple[WdsClient, str]:
    """503: a deployment without the browser feature."""
    service.emulator.browser.backend = NoBrowserBackend()
    return service.client(), await scraped(service.client())


INTERACT_STATUSES = [
    pytest.param(no_credits, InsufficientCreditsError, 402, id="402-no-credits"),
    pytest.param(another_teams_job, PermissionDeniedError, 403, id="403-another-teams-job"),
    pytest.param(unknown_job, NotFoundError, 404, id="404-unknown-job"),
    pytest.param(a_crawl_is_not_a_scrape, NotFoundError, 404, id="404-not-a-scrape-job"),
    pytest.param(stopped_session, GoneError, 410, id="410-after-stop"),
    pytest.param(expired_session, GoneError, 410, id="410-after-ttl"),
    pytest.param(concurrency_limit, RateLimitError, 429, id="429-concurrency"),
    pytest.param(browser_service_failed, BadGatewayError, 502, id="502-browser-service-failed"),
    pytest.param(no_browser_feature, ServiceUnavailableError, 503, id="503-no-browser"),
]


@pytest.mark.parametrize(("scenario", "error", "status"), INTERACT_STATUSES)
async def test_interact_statuses(service: Service, scenario: Any, error: type[APIStatusError], status: int) -> None:
    client, job_id = await scenario(service)
    failure = await assert_fails_with(lambda: client.scrape.interact(job_id, code="1"), error, status)
    assert failure.message


async def test_interact_on_a_scrape_without_a_page_is_409(service: Service, alpha: WdsClient) -> None:
    job_id = service.scrape_job(url=f"{SITE}/about", lockdown=True)  # nothing cached: no page was ever loaded
    with pytest.raises(ConflictError):
        await alpha.scrape.interact(job_id, code="1")


async def test_interact_job_id_must_be_a_uuid(service: Service, alpha: WdsClient) -> None:
    await assert_job_id_refused(
        service,
        lambda: alpha.scrape.interact("job-1", code="1"),
        "POST",
        "/v2/scrape/job-1/interact",
        json={"code": "1"},
    )


# --- stop ---------------------------------------------------------------------------------------


async def test_stop_happy_path_bills_and_destroys_the_session(service: Service, alpha: WdsClient) -> None:
    job_id = await scraped(alpha)
    session_id = (await alpha.scrape.interact(job_id, code="1")).session_id
    service.clock.advance(90)
    stopped = await alpha.scrape.stop_interaction(job_id)
    assert isinstance(stopped, InteractionStopped) and stopped.success is True
    assert (stopped.session_duration_ms, stopped.credits_billed) == (90_000, 4)
    [session] = (await alpha.browser.list()).sessions
    assert session.id == session_id and session.status == SessionStatus.DESTROYED
    assert service.backend.open_sessions == set()


async def never_interacted(service: Service) -> tuple[WdsClient, str]:
    """404: the job exists but no session was ever bound to it."""
    return service.client(), await scraped(service.client())


async def another_teams_session(service: Service) -> tuple[WdsClient, str]:
    """403: the job (and its live session) belong to another team."""
    job_id = await scraped(service.client(BETA_KEY))
    await service.client(BETA_KEY).scrape.interact(job_id, code="1")
    return service.client(), job_id


STOP_STATUSES = [
    pytest.param(never_interacted, NotFoundError, 404, id="404-no-session"),
    pytest.param(unknown_job, NotFoundError, 404, id="404-unknown-job"),
    pytest.param(another_teams_session, PermissionDeniedError, 403, id="403-another-teams-job"),
]


@pytest.mark.parametrize(("scenario", "error", "status"), STOP_STATUSES)
async def test_stop_statuses(service: Service, scenario: Any, error: type[APIStatusError], status: int) -> None:
    client, job_id = await scenario(service)
    await assert_fails_with(lambda: client.scrape.stop_interaction(job_id), error, status)
    if scenario is another_teams_session:
        sessions = (await service.client(BETA_KEY).browser.list(status="active")).sessions
        assert len(sessions) == 1, "another team's refused stop leaves the session running"


async def test_stop_job_id_must_be_a_uuid(service: Service, alpha: WdsClient) -> None:
    await refused_before_sending(service, lambda: alpha.scrape.stop_interaction("job-1"), "jobId")
    response = await service.raw("DELETE", "/v2/scrape/job-1/interact")
    assert response.status_code == 400 and response.json()["code"] == "BAD_REQUEST"
