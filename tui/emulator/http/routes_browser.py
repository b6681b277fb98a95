"""Browser routes: standalone sessions and the scrape-bound interact endpoints.

Standalone: `POST/GET /v2/browser`, `DELETE /v2/browser/{id}`,
`POST /v2/browser/{id}/execute`. Scrape-bound: `POST/DELETE
/v2/scrape/{jobId}/interact`. The rules (limits, lifetimes, billing) live
in `BrowserSessionManager`; this module maps HTTP to it.

Decisions where the contract is silent:
- `result` (execute and interact) is the value of the code's last expression
  when the backend reports one (observed behaviour of node), else `stdout`,
  the contract's "alias of stdout".
- Execute and interact calls are recorded as activity (`browser` /
  `interact`, target = the session id), as is session creation.
- Interact with `prompt` answers 502: the emulator has no AI model, and 502
  is the contract's status for "AI agent execution failed".
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.contract.limits import EXECUTE_TIMEOUT_DEFAULT, INTERACT_TIMEOUT_DEFAULT
from tui.contract.requests import BrowserCreateRequest, BrowserListQuery, ExecuteRequest, InteractRequest
from tui.emulator.browser.backend import ExecutionOutcome
from tui.emulator.browser.sessions import SESSION_DESTROYED, SESSION_NOT_FOUND, BrowserSessionManager
from tui.emulator.core.billing import Billing
from tui.emulator.core.clock import Clock, isoformat_z
from tui.emulator.http.errors import bad_gateway, bad_request, conflict, gone, not_found
from tui.emulator.http.parsing import (
    INVALID_SESSION_ID,
    base_url,
    caller,
    job_id_param,
    ok,
    parse_query,
    read_json_object,
    uuid_param,
    validate,
)
from tui.emulator.jobs.store import JobStore

REPLAY_UNAVAILABLE = "Replay context unavailable for this scrape job; rerun the scrape and retry."

NO_AI_MODEL = (
    "AI agent execution failed: the emulator has no AI model configured, so `prompt` cannot run. Send `code` instead."
)
CODE_OR_PROMPT = "Either 'code' or 'prompt' must be provided."


def execution_error(outcome: ExecutionOutcome) -> str | None:
    """The `error` field: the raised error, or stderr / "Execution failed" on a bad exit or a kill."""
    if outcome.error:
        return outcome.error
    if outcome.killed or (outcome.exit_code is not None and outcome.exit_code != 0):
        return outcome.stderr or "Execution failed"
    return None


def result_of(outcome: ExecutionOutcome) -> str | None:
    """`result`: the last expression's value when there is one, else stdout (the contract's alias)."""
    return outcome.result if outcome.result is not None else outcome.stdout


def routes(manager: BrowserSessionManager, jobs: JobStore, billing: Billing, clock: Clock) -> list[BaseRoute]:
    """The browser and interact routes over the session manager (interact binds sessions to scrape jobs)."""

    async def create_session(request: Request) -> JSONResponse:
        who = caller(request)
        body = validate(BrowserCreateRequest, await read_json_object(request, allow_empty=True))
        session = await manager.create(
            who,
            base_url=base_url(request),
            ttl=body.ttl,
            activity_ttl=body.activity_ttl,
            stream_web_view=True if body.stream_web_view is None else body.stream_web_view,
            profile_name=body.profile.name if body.profile else None,
            save_profile=body.profile.save_changes if body.profile else False,
        )
        billing.record_call(who, "browser", session.id)
        return ok({"id": session.id, **session.urls(), "expiresAt": isoformat_z(session.expires_at)})

    async def list_sessions(request: Request) -> JSONResponse:
        query = parse_query(request, BrowserListQuery)
        sessions = manager.list(caller(request).team.id, query.status)
        return ok({"sessions": [s.to_wire() for s in sessions]})

    async def delete_session(request: Request) -> JSONResponse:
        session_id = uuid_param(request, "sessionId", INVALID_SESSION_ID)
        session = await manager.delete(caller(request), session_id)
        return ok(
            {
                "status": "stopped",
                "sessionDurationMs": session.duration_ms(clock.now()),
                "creditsBilled": session.credits_billed,
            }
        )

    async def execute(request: Request) -> JSONResponse:
        who = caller(request)
        session_id = uuid_param(request, "sessionId", INVALID_SESSION_ID)
        body = validate(ExecuteRequest, await read_json_object(request))
        session = manager.get(who, session_id)
        outcome = await manager.execute(session, body.code, body.language, body.timeout or EXECUTE_TIMEOUT_DEFAULT)
        billing.record_call(who, "browser", session.id)
        return ok(
            {
                "stdout": outcome.stdout,
                "result": result_of(outcome),
                "stderr": outcome.stderr,
                "exitCode": outcome.exit_code,
                "killed": outcome.killed,
                "error": execution_error(outcome),
                "truncated": outcome.truncated,
            }
        )

    async def interact(request: Request) -> JSONResponse:
        who = caller(request)
        job_id = job_id_param(request)
        raw = await read_json_object(request)
        if raw.get("code") is None and raw.get("prompt") is None:
            raise bad_request(CODE_OR_PROMPT, [{"path": [], "message": CODE_OR_PROMPT}])
        body = validate(InteractRequest, raw)
        job = jobs.owned(job_id, who.team.id, ("scrape",))
        if getattr(job, "document", None) is None and manager.bound_session(job_id) is None:
            # Nothing was loaded (a cache miss, a timeout): there is no page to replay, and
            # opening the URL now would contact a target that lockdown promised to leave alone.
            raise conflict(REPLAY_UNAVAILABLE)
        if body.prompt is not None:
            raise bad_gateway(NO_AI_MODEL)
        assert body.code is not None
        session = manager.bound_session(job_id)
        if session is None:
            session = await manager.create(
                who, base_url=base_url(request), bound_job_id=job_id, start_url=job.url, save_profile=False
            )
        elif not session.active:
            raise gone(SESSION_DESTROYED)
        timeout = body.timeout or INTERACT_TIMEOUT_DEFAULT
        outcome = await manager.execute(session, body.code, body.language or "node", timeout)
        billing.record_call(who, "interact", session.id)
        payload: dict[str, Any] = {
            "sessionId": session.id,
            **session.urls(),
            "stdout": outcome.stdout,
            "result": result_of(outcome),
            "stderr": outcome.stderr,
            "exitCode": outcome.exit_code,
            "killed": outcome.killed,
            "truncated": outcome.truncated,
        }
        error = execution_error(outcome)
        if error is not None:
            payload["error"] = error
        return ok(payload)

    async def stop_interact(request: Request) -> JSONResponse:
        who = caller(request)
        job_id = job_id_param(request)
        jobs.owned(job_id, who.team.id, ("scrape",))
        session = manager.bound_session(job_id)
        if session is None:
            raise not_found(SESSION_NOT_FOUND)
        await manager.destroy(session, "deleted")
        return ok({"sessionDurationMs": session.duration_ms(clock.now()), "creditsBilled": session.credits_billed})

    return [
        Route("/v2/browser", create_session, methods=["POST"]),
        Route("/v2/browser", list_sessions, methods=["GET"]),
        Route("/v2/browser/{sessionId}", delete_session, methods=["DELETE"]),
        Route("/v2/browser/{sessionId}/execute", execute, methods=["POST"]),
        Route("/v2/scrape/{jobId}/interact", interact, methods=["POST"]),
        Route("/v2/scrape/{jobId}/interact", stop_interact, methods=["DELETE"]),
    ]
