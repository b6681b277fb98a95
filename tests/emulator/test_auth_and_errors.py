"""Authentication, the error body, and the request helpers every route uses."""

from __future__ import annotations

import httpx
import pytest
from pydantic import BaseModel, Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.support.emulator_teams import ALPHA_KEY, UNKNOWN_KEY, auth
from tui.emulator.http.errors import ApiError, api_error_handler
from tui.emulator.http.parsing import job_id_param, ok, parse_body

ROUTES = [
    ("GET", "/v2/team/activity"),
    ("GET", "/v2/team/token-usage/historical"),
    ("GET", "/v2/browser"),
    ("POST", "/v2/browser"),
    ("DELETE", "/v2/browser/00000000-0000-4000-8000-000000000000"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_missing_bearer_is_401_unauthorized(client: httpx.AsyncClient, method: str, path: str) -> None:
    r = await client.request(method, path)
    assert r.status_code == 401
    assert r.json() == {"success": False, "error": "Unauthorized", "code": "UNAUTHORIZED"}


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_unknown_key_is_401_invalid_token(client: httpx.AsyncClient, method: str, path: str) -> None:
    r = await client.request(method, path, headers=auth(UNKNOWN_KEY))
    assert r.status_code == 401
    assert r.json() == {"success": False, "error": "Unauthorized: Invalid token", "code": "UNAUTHORIZED"}


@pytest.mark.parametrize("header", ["Basic abc", "Bearer", "Bearer   ", ALPHA_KEY, f"Token {ALPHA_KEY}"])
async def test_malformed_authorization_counts_as_missing(client: httpx.AsyncClient, header: str) -> None:
    r = await client.get("/v2/team/activity", headers={"Authorization": header})
    assert r.status_code == 401 and r.json()["error"] == "Unauthorized"


async def test_bearer_scheme_is_case_insensitive(client: httpx.AsyncClient) -> None:
    r = await client.get("/v2/team/activity", headers={"Authorization": f"bearer {ALPHA_KEY}"})
    assert r.status_code == 200


async def test_support_paths_answer_401_in_their_own_shape(client: httpx.AsyncClient) -> None:
    r = await client.post("/v2/support/ask", json={"question": "why?"})
    assert r.status_code == 401 and r.json() == {"error": "Unauthorized"}


async def test_unknown_path_and_method_use_the_error_body(client: httpx.AsyncClient) -> None:
    r = await client.get("/v2/no-such-thing", headers=auth(ALPHA_KEY))
    assert r.status_code == 404 and r.json() == {"success": False, "error": "Not found.", "code": "NOT_FOUND"}
    r = await client.put("/v2/browser", headers=auth(ALPHA_KEY))
    assert r.status_code == 405 and r.json()["code"] == "METHOD_NOT_ALLOWED"


async def test_paths_outside_v2_need_no_bearer(client: httpx.AsyncClient) -> None:
    # /cdp and /live authenticate by their per-session token, not by bearer.
    r = await client.get("/nowhere")
    assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"
    r = await client.get("/live/00000000-0000-4000-8000-000000000000?token=wrong")
    assert r.status_code != 401


# --- the helpers on a tiny app ----------------------------------------------------


class Body(BaseModel):
    name: str = Field(min_length=1, max_length=3)
    count: int = Field(1, ge=1)


async def echo(request: Request) -> JSONResponse:
    body = await parse_body(request, Body)
    return ok({"name": body.name, "jobId": job_id_param(request)})


@pytest.fixture
async def tiny() -> httpx.AsyncClient:
    app = Starlette(
        routes=[Route("/x/{jobId}", echo, methods=["POST"])], exception_handlers={ApiError: api_error_handler}
    )
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        yield c


UUID = "8d6ca6a4-54a5-4bcb-9d47-5a0e5b0f0e10"


async def test_parse_body_accepts_a_valid_body(tiny: httpx.AsyncClient) -> None:
    r = await tiny.post(f"/x/{UUID}", json={"name": "abc", "unknown": "ignored"})
    assert r.json() == {"success": True, "name": "abc", "jobId": UUID}


@pytest.mark.parametrize("raw", [b"{", b"", b"[1, 2]", b'"text"', b"\xff\xfe"])
async def test_malformed_or_non_object_json_is_invalid_json(tiny: httpx.AsyncClient, raw: bytes) -> None:
    r = await tiny.post(f"/x/{UUID}", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["code"] == "BAD_REQUEST_INVALID_JSON" and r.json()["success"] is False


async def test_validation_details_name_each_field_and_limit(tiny: httpx.AsyncClient) -> None:
    r = await tiny.post(f"/x/{UUID}", json={"name": "abcd", "count": 0})
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "BAD_REQUEST"
    assert {tuple(d["path"]) for d in body["details"]} == {("name",), ("count",)}
    assert "at most 3" in body["error"] and "greater than or equal to 1" in body["error"]


@pytest.mark.parametrize("job_id", ["123", "not-a-uuid", UUID[:-1], UUID + "0", UUID.replace("-", "")])
async def test_non_uuid_job_id_is_400(tiny: httpx.AsyncClient, job_id: str) -> None:
    r = await tiny.post(f"/x/{job_id}", json={"name": "a"})
    assert r.status_code == 400
    assert r.json() == {
        "success": False,
        "error": "Invalid job ID format. Job ID must be a valid UUID.",
        "code": "BAD_REQUEST",
    }


def test_api_error_bodies() -> None:
    error = ApiError(409, "taken", details={"x": 1})
    assert error.body() == {"success": False, "error": "taken", "code": "CONFLICT", "details": {"x": 1}}
    assert ApiError(503, "down", support_style=True).body() == {"error": "down"}
    assert ApiError(418, "odd").code == "UNKNOWN_ERROR"
