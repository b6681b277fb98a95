"""`POST /v2/browser/{id}/execute`: validation, the response shape, 410/403/404/503."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tests.support.recording_backend import RecordingBackend
from tui.emulator.browser.backend import BrowserUnavailable, ExecutionOutcome, ProfileBusy
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


@pytest.fixture
async def session_id(browser_client: httpx.AsyncClient) -> str:
    r = await browser_client.post("/v2/browser", json={"ttl": 600, "activityTtl": 60}, headers=auth(ALPHA_KEY))
    return r.json()["id"]


async def execute(client: httpx.AsyncClient, sid: str, key: str = ALPHA_KEY, **body: Any) -> httpx.Response:
    return await client.post(f"/v2/browser/{sid}/execute", json=body, headers=auth(key))


async def test_execute_runs_in_the_backend_with_defaults(
    browser_client: httpx.AsyncClient, session_id: str, backend: RecordingBackend
) -> None:
    r = await execute(browser_client, session_id, code="await page.title()")
    assert r.status_code == 200
    assert r.json() == {
        "success": True,
        "stdout": "ok\n",
        "result": "42",  # the last expression's value, when the backend reports one
        "stderr": "",
        "exitCode": 0,
        "killed": False,
        "error": None,
        "truncated": False,
    }
    call = backend.executions[0]
    assert (call.session_id, call.code, call.language, call.timeout) == (session_id, "await page.title()", "node", 30)


async def test_result_falls_back_to_stdout(
    browser_client: httpx.AsyncClient, session_id: str, backend: RecordingBackend
) -> None:
    backend.script(ExecutionOutcome("printed\n", "", 0, False, None, None))
    assert (await execute(browser_client, session_id, code="echo printed", language="bash")).json()[
        "result"
    ] == "printed\n"


async def test_profile_busy_in_the_backend_is_409(browser_client: httpx.AsyncClient, backend: RecordingBackend) -> None:
    backend.fail_launch_with = ProfileBusy("profile 'p' is locked by another browser")
    r = await browser_client.post("/v2/browser", json={"profile": {"name": "p"}}, headers=auth(ALPHA_KEY))
    assert r.status_code == 409 and "locked" in r.json()["error"]


async def test_execute_passes_language_and_timeout(
    browser_client: httpx.AsyncClient, session_id: str, backend: RecordingBackend
) -> None:
    await execute(browser_client, session_id, code="print(1)", language="python", timeout=300)
    assert (backend.executions[0].language, backend.executions[0].timeout) == ("python", 300)


@pytest.mark.parametrize(
    ("outcome", "error"),
    [
        (ExecutionOutcome("", "boom", 1, False, None, None), "boom"),
        (ExecutionOutcome("", "", 2, False, None, None), "Execution failed"),
        (ExecutionOutcome("partial", "", None, True, None, None), "Execution failed"),
        (
            ExecutionOutcome("", "trace", 0, False, "TimeoutError: Navigation timeout", None),
            "TimeoutError: Navigation timeout",
        ),
    ],
)
async def test_error_is_set_on_failure_while_success_stays_true(
    browser_client: httpx.AsyncClient, session_id: str, backend: RecordingBackend, outcome: ExecutionOutcome, error: str
) -> None:
    backend.script(outcome)
    r = await execute(browser_client, session_id, code="x")
    assert r.status_code == 200
    assert r.json()["success"] is True and r.json()["error"] == error
    assert r.json()["killed"] is outcome.killed and r.json()["exitCode"] == outcome.exit_code


async def test_truncated_output_is_flagged(
    browser_client: httpx.AsyncClient, session_id: str, backend: RecordingBackend
) -> None:
    backend.script(ExecutionOutcome("x" * 10, "", 0, False, None, None, truncated=True))
    assert (await execute(browser_client, session_id, code="x")).json()["truncated"] is True


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"code": ""}, 400),
        ({"code": "x"}, 200),
        ({"code": "x" * 100_000}, 200),
        ({"code": "x" * 100_001}, 400),
        ({}, 400),
        ({"code": "x", "timeout": 0}, 400),
        ({"code": "x", "timeout": 1}, 200),
        ({"code": "x", "timeout": 300}, 200),
        ({"code": "x", "timeout": 301}, 400),
        ({"code": "x", "language": "ruby"}, 400),
        ({"code": "x", "language": "bash"}, 200),
    ],
)
async def test_execute_boundaries(
    browser_client: httpx.AsyncClient, session_id: str, body: dict[str, Any], status: int
) -> None:
    r = await execute(browser_client, session_id, **body)
    assert r.status_code == status, r.text
    if status == 400:
        assert r.json()["code"] == "BAD_REQUEST" and r.json()["details"]


async def test_execute_after_destroy_is_410(browser_client: httpx.AsyncClient, session_id: str) -> None:
    await browser_client.delete(f"/v2/browser/{session_id}", headers=auth(ALPHA_KEY))
    r = await execute(browser_client, session_id, code="x")
    assert r.status_code == 410
    assert r.json() == {"success": False, "error": "Browser session has been destroyed.", "code": "GONE"}


async def test_execute_after_inactivity_is_410_and_execute_counts_as_activity(
    browser_client: httpx.AsyncClient, session_id: str, clock: ManualClock
) -> None:
    clock.advance(59)
    assert (await execute(browser_client, session_id, code="x")).status_code == 200
    clock.advance(59)  # 118 s after creation, 59 s after the last activity
    assert (await execute(browser_client, session_id, code="x")).status_code == 200
    clock.advance(60)
    assert (await execute(browser_client, session_id, code="x")).status_code == 410


async def test_execute_on_other_team_unknown_and_malformed_ids(
    browser_client: httpx.AsyncClient, session_id: str
) -> None:
    r = await execute(browser_client, session_id, key=BETA_KEY, code="x")
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    r = await execute(browser_client, "5b0c1d2e-1111-4222-8333-444455556666", code="x")
    assert r.status_code == 404 and r.json()["error"] == "Browser session not found."
    r = await execute(browser_client, "abc", code="x")
    assert r.status_code == 400


async def test_backend_unavailable_during_execute_is_503(
    browser_client: httpx.AsyncClient, session_id: str, backend: RecordingBackend
) -> None:
    async def refuse(*args: object) -> ExecutionOutcome:
        raise BrowserUnavailable("Chromium went away; install chromium")

    backend.execute = refuse  # type: ignore[method-assign]
    r = await execute(browser_client, session_id, code="x")
    assert r.status_code == 503
    assert r.json() == {
        "success": False,
        "error": "Chromium went away; install chromium",
        "code": "SERVICE_UNAVAILABLE",
    }


async def test_execute_is_recorded_as_browser_activity(
    browser_client: httpx.AsyncClient, session_id: str, browser_emulator: Emulator
) -> None:
    await execute(browser_client, session_id, code="x")
    alpha = browser_emulator.team_by_name("alpha")
    entries = browser_emulator.activity.page(alpha.id, endpoint="browser").entries  # type: ignore[union-attr]
    assert [e.target for e in entries] == [session_id, session_id]  # create + execute
