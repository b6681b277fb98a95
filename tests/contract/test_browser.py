"""Browser sessions: `POST /v2/browser`, `GET /v2/browser`, `DELETE /v2/browser/{id}`,
`POST /v2/browser/{id}/execute`, on the recording backend (real Chromium: tests/browser)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from tests.contract.refusals import Limit, assert_fails_with, assert_limit, kwargs_of, limit_params
from tests.contract.service import UNKNOWN_ID, Service
from tui.api.client import WdsClient
from tui.api.errors import (
    APIStatusError,
    BadRequestError,
    ConflictError,
    GoneError,
    InsufficientCreditsError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
)
from tui.contract.models import BrowserSessionCreated, BrowserSessionDeleted, ExecuteResult, SessionStatus
from tui.contract.requests import BrowserCreateRequest, BrowserListQuery, ExecuteRequest
from tui.emulator.browser.backend import BrowserUnavailable, ExecutionOutcome, NoBrowserBackend

# --- create -------------------------------------------------------------------------------------


async def test_create_happy_path_returns_id_urls_and_expiry(service: Service, alpha: WdsClient) -> None:
    created = await alpha.browser.create(ttl=120, activity_ttl=60, stream_web_view=False)
    assert isinstance(created, BrowserSessionCreated) and created.success is True
    sid = created.id
    assert uuid.UUID(sid).version == 4
    assert created.cdp_url.startswith(f"ws://emulator.test/cdp/{sid}?token=")
    assert created.live_view_url is not None and created.live_view_url.startswith(f"http://emulator.test/live/{sid}")
    assert created.interactive_live_view_url is not None and created.interactive_live_view_url != created.live_view_url
    assert created.expires_at == service.clock.now() + timedelta(seconds=120)
    assert [launched for launched, _ in service.backend.launches] == [sid]


CREATE_LIMITS = [
    Limit("ttl-min", "ttl", {"ttl": 30}, {"ttl": 29}),
    Limit("ttl-max", "ttl", {"ttl": 3600}, {"ttl": 3601}),
    Limit("activityTtl-min", "activityTtl", {"ttl": 60, "activityTtl": 10}, {"ttl": 60, "activityTtl": 9}),
    Limit("activityTtl-max", "activityTtl", {"ttl": 60, "activityTtl": 3600}, {"ttl": 60, "activityTtl": 3601}),
    Limit(
        "profile.name-min", "profile.name", {"ttl": 60, "profile": {"name": "p"}}, {"ttl": 60, "profile": {"name": ""}}
    ),
    Limit(
        "profile.name-max",
        "profile.name",
        {"ttl": 60, "profile": {"name": "p" * 128}},
        {"ttl": 60, "profile": {"name": "p" * 129}},
    ),
    Limit(
        "profile.saveChanges-boolean",
        "profile.saveChanges",
        {"ttl": 60, "profile": {"name": "p", "saveChanges": False}},
        {"ttl": 60, "profile": {"name": "p", "saveChanges": "no"}},
    ),
    Limit(
        "streamWebView-boolean",
        "streamWebView",
        {"ttl": 60, "streamWebView": False},
        {"ttl": 60, "streamWebView": "yes"},
    ),
]


@pytest.mark.parametrize("limit", limit_params(CREATE_LIMITS))
async def test_create_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[BrowserSessionCreated]:
        return alpha.browser.create(**kwargs_of(BrowserCreateRequest, body))

    created = await assert_limit(service, limit, call, "POST", "/v2/browser")
    assert created.expires_at == service.clock.now() + timedelta(seconds=limit.inside["ttl"])


async def second_profile_saver(service: Service) -> Callable[[], Awaitable[Any]]:
    """409: a profile already has a session that saves to it; a read-only one is still fine."""
    alpha = service.client()
    await alpha.browser.create(ttl=60, profile={"name": "shop"})
    await alpha.browser.create(ttl=60, profile={"name": "shop", "save_changes": False})
    return lambda: alpha.browser.create(ttl=60, profile={"name": "shop", "saveChanges": True})


async def concurrency_limit(service: Service) -> Callable[[], Awaitable[Any]]:
    """429: the team already runs its maximum of concurrent sessions."""
    service.team().max_browser_sessions = 1
    await service.client().browser.create(ttl=60)
    return lambda: service.client().browser.create(ttl=60)


async def no_credits(service: Service) -> Callable[[], Awaitable[Any]]:
    """402: the team has no credits left."""
    service.team().credits_remaining = 0
    return lambda: service.client().browser.create(ttl=60)


async def no_browser_feature(service: Service) -> Callable[[], Awaitable[Any]]:
    """503: a deployment without the browser feature."""
    service.emulator.browser.backend = NoBrowserBackend()
    return lambda: service.client().browser.create(ttl=60)


CREATE_STATUSES = [
    pytest.param(second_profile_saver, ConflictError, 409, "CONFLICT", id="409-second-profile-saver"),
    pytest.param(concurrency_limit, RateLimitError, 429, "RATE_LIMITED", id="429-concurrency"),
    pytest.param(no_credits, InsufficientCreditsError, 402, "PAYMENT_REQUIRED", id="402-no-credits"),
    pytest.param(no_browser_feature, ServiceUnavailableError, 503, "SERVICE_UNAVAILABLE", id="503-no-browser"),
]


@pytest.mark.parametrize(("scenario", "error", "status", "code"), CREATE_STATUSES)
async def test_create_statuses(
    service: Service, scenario: Any, error: type[APIStatusError], status: int, code: str
) -> None:
    call = await scenario(service)
    failure = await assert_fails_with(call, error, status)
    assert failure.code == code and failure.message


async def test_429_is_retried_with_backoff_then_raised(service: Service) -> None:
    call = await concurrency_limit(service)
    before = service.sent
    with pytest.raises(RateLimitError) as info:
        await call()
    assert service.sent - before == 3 and len(service.sleeps) == 2, "two retries, each after a backoff"
    assert info.value.retry_after is None  # the emulator, like the real server, names no wait


async def test_without_a_browser_the_list_still_works(make_service: Any) -> None:
    bare = await make_service(browser=False)
    with pytest.raises(ServiceUnavailableError, match="Browser feature not configured"):
        await bare.client().browser.create(ttl=60)
    assert (await bare.client().browser.list()).sessions == []


# --- list ---------------------------------------------------------------------------------------


async def test_list_happy_path_and_status_filter(service: Service, alpha: WdsClient) -> None:
    short = await alpha.browser.create(ttl=30, stream_web_view=False)
    service.clock.advance(10)
    long = await alpha.browser.create(ttl=600)
    service.clock.advance(25)  # the first one has outlived its ttl
    listed = (await alpha.browser.list()).sessions
    assert [s.id for s in listed] == [long.id, short.id]  # newest first
    newest, oldest = listed
    assert newest.status == SessionStatus.ACTIVE and newest.is_active
    assert (newest.cdp_url, newest.live_view_url) == (long.cdp_url, long.live_view_url)
    assert newest.interactive_live_view_url == long.interactive_live_view_url and newest.stream_web_view is True
    assert newest.created_at == newest.last_activity == service.clock.now() - timedelta(seconds=25)
    assert newest.expires_at is None, "expiresAt is only on the creation response"
    assert oldest.status == SessionStatus.DESTROYED and oldest.stream_web_view is False
    assert [s.id for s in (await alpha.browser.list(status="active")).sessions] == [long.id]
    assert [s.id for s in (await alpha.browser.list(status="destroyed")).sessions] == [short.id]


LIST_LIMITS = [Limit("status-enum", "status", {"status": "destroyed"}, {"status": "error"})]


@pytest.mark.parametrize("limit", limit_params(LIST_LIMITS))
async def test_list_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(query: dict[str, Any]) -> Awaitable[Any]:
        return alpha.browser.list(**kwargs_of(BrowserListQuery, query))

    await assert_limit(service, limit, call, "GET", "/v2/browser")


async def test_sessions_of_another_team_are_never_listed(alpha: WdsClient, beta: WdsClient) -> None:
    mine = await alpha.browser.create(ttl=60)
    theirs = await beta.browser.create(ttl=60)
    assert [s.id for s in (await alpha.browser.list()).sessions] == [mine.id]
    assert [s.id for s in (await beta.browser.list()).sessions] == [theirs.id]


# --- delete -------------------------------------------------------------------------------------


async def test_delete_happy_path_stops_bills_and_is_idempotent(service: Service, alpha: WdsClient) -> None:
    created = await alpha.browser.create(ttl=600, profile={"name": "shop"})
    service.clock.advance(90)
    deleted = await alpha.browser.delete(created.id)
    assert isinstance(deleted, BrowserSessionDeleted) and deleted.success is True
    assert (deleted.status, deleted.session_duration_ms, deleted.credits_billed) == ("stopped", 90_000, 4)
    assert service.backend.closes == [(created.id, True)], "a saver's profile is saved back on close"
    again = await alpha.browser.delete(created.id)  # deleting a destroyed session is not an error
    assert again.session_duration_ms == 90_000
    assert (await alpha.browser.list()).sessions[0].status == SessionStatus.DESTROYED


DELETE_STATUSES = [
    pytest.param("beta", PermissionDeniedError, 403, id="403-another-teams-session"),
    pytest.param(UNKNOWN_ID, NotFoundError, 404, id="404-unknown-session"),
    pytest.param("not-a-uuid", BadRequestError, 400, id="400-malformed-id"),
]


@pytest.mark.parametrize(("session", "error", "status"), DELETE_STATUSES)
async def test_delete_statuses(
    alpha: WdsClient, beta: WdsClient, session: str, error: type[APIStatusError], status: int
) -> None:
    session_id = (await beta.browser.create(ttl=60)).id if session == "beta" else session
    with pytest.raises(error) as info:
        await alpha.browser.delete(session_id)
    assert info.value.status == status
    if session == "beta":
        assert (await beta.browser.list()).sessions[0].is_active, "a refused delete changes nothing"


# --- execute ------------------------------------------------------------------------------------


async def test_execute_happy_path(service: Service, alpha: WdsClient) -> None:
    sid = (await alpha.browser.create(ttl=60)).id
    service.backend.script(ExecutionOutcome("Title\n", "warn\n", 0, False, None, "Title"))
    result = await alpha.browser.execute(sid, "await page.title()", language="python", timeout=5)
    assert isinstance(result, ExecuteResult) and result.success is True
    assert (result.stdout, result.result, result.stderr) == ("Title\n", "Title", "warn\n")
    assert (result.exit_code, result.killed, result.error, result.failed) == (0, False, None, False)
    call = service.backend.executions[-1]
    assert (call.session_id, call.code, call.language, call.timeout) == (sid, "await page.title()", "python", 5)


async def test_execute_error_is_reported_while_success_stays_true(service: Service, alpha: WdsClient) -> None:
    sid = (await alpha.browser.create(ttl=60)).id
    service.backend.script(ExecutionOutcome("", "", 1, False, "TimeoutError: navigation timed out", None))
    result = await alpha.browser.execute(sid, "await page.goto('https://slow.test')")
    assert result.success is True and result.failed
    assert result.error == "TimeoutError: navigation timed out" and result.exit_code == 1
    assert service.backend.executions[-1].language == "node" and service.backend.executions[-1].timeout == 30


EXECUTE_LIMITS = [
    Limit("code-min", "code", {"code": "1"}, {"code": ""}),
    Limit("code-max", "code", {"code": "1" * 100_000}, {"code": "1" * 100_001}),
    Limit("timeout-min", "timeout", {"code": "1", "timeout": 1}, {"code": "1", "timeout": 0}),
    Limit("timeout-max", "timeout", {"code": "1", "timeout": 300}, {"code": "1", "timeout": 301}),
    Limit(
        "language-enum",
        "language",
        {"code": "open https://a.test", "language": "bash"},
        {"code": "1", "language": "ruby"},
    ),
]


@pytest.mark.parametrize("limit", limit_params(EXECUTE_LIMITS))
async def test_execute_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    sid = (await alpha.browser.create(ttl=60)).id

    def call(body: dict[str, Any]) -> Awaitable[ExecuteResult]:
        return alpha.browser.execute(sid, **kwargs_of(ExecuteRequest, body))

    await assert_limit(service, limit, call, "POST", f"/v2/browser/{sid}/execute")
    assert service.backend.executions[-1].code == limit.inside["code"], "only the inside value ran"


async def deleted_session(service: Service, sid: str) -> None:
    """410: the session was stopped."""
    await service.client().browser.delete(sid)


async def idle_session(service: Service, sid: str) -> None:
    """410: the session outlived its activityTtl (60 s) without activity."""
    service.clock.advance(60)


async def backend_gone(service: Service, sid: str) -> None:
    """503: the browser feature went away under a running session."""

    async def refuse(*args: object) -> ExecutionOutcome:
        raise BrowserUnavailable("Chromium is not available")

    service.backend.execute = refuse  # type: ignore[method-assign]


EXECUTE_STATUSES = [
    pytest.param(deleted_session, "alpha", GoneError, 410, id="410-after-delete"),
    pytest.param(idle_session, "alpha", GoneError, 410, id="410-after-activityTtl"),
    pytest.param(None, "beta", PermissionDeniedError, 403, id="403-another-teams-session"),
    pytest.param(backend_gone, "alpha", ServiceUnavailableError, 503, id="503-no-browser"),
]


@pytest.mark.parametrize(("scenario", "who", "error", "status"), EXECUTE_STATUSES)
async def test_execute_statuses(
    service: Service, scenario: Any, who: str, error: type[APIStatusError], status: int, beta: WdsClient
) -> None:
    sid = (await service.client().browser.create(ttl=600, activity_ttl=60)).id
    if scenario is not None:
        await scenario(service, sid)
    caller = beta if who == "beta" else service.client()
    with pytest.raises(error) as info:
        await caller.browser.execute(sid, "1 + 1")
    assert info.value.status == status


async def test_execute_on_an_unknown_session_is_404(alpha: WdsClient) -> None:
    with pytest.raises(NotFoundError, match="Browser session not found"):
        await alpha.browser.execute(UNKNOWN_ID, "1")
