"""Limits and refusals: a value just inside a limit passes through the client, one just outside
is refused by the client before sending and by the emulator, sent raw, with the service's 400.

`Limit` and `limit_params` list the boundaries, `assert_limit` checks one; `refused_before_sending`,
`assert_job_id_refused` and `assert_bad_request` check a refusal on each side of the wire;
`assert_fails_with` an error of exactly one class and status.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

import httpx
import pytest
from pydantic import BaseModel

from tests.contract.service import Service
from tui.api.errors import APIStatusError, RequestValidationError


class Limit(NamedTuple):
    """One boundary of one field, as wire bodies (or queries): a value just inside, one just outside.

    `field` is the wire path the refusal must name (`profile.name`, `urls`), or
    "" for a rule about the whole body (exactly one of code/prompt).
    """

    id: str
    field: str
    inside: dict[str, Any]
    outside: dict[str, Any]


def limit_params(limits: list[Limit]) -> list[Any]:
    """The limits as pytest params, named by their ids so the run reads as a checklist."""
    return [pytest.param(limit, id=limit.id) for limit in limits]


def kwargs_of(model: type[BaseModel], wire: dict[str, Any]) -> dict[str, Any]:
    """A wire body's top-level names as the Python keyword arguments of the client's method."""
    by_alias = {(info.alias or name): name for name, info in model.model_fields.items()}
    return {by_alias.get(name, name): value for name, value in wire.items()}


def dotted(path: list[Any]) -> str:
    """A service `details` path (`["urls", 2]`) in the client's spelling (`urls[2]`)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


async def refused_before_sending(
    service: Service, call: Callable[[], Awaitable[Any]], field: str
) -> RequestValidationError:
    """`call` raises `RequestValidationError` naming `field`, and nothing reaches the emulator."""
    before = service.sent
    with pytest.raises(RequestValidationError) as info:
        await call()
    assert service.sent == before, "a request the client refused must not be sent"
    if field:
        assert field in info.value.fields, (field, info.value.issues)
    return info.value


async def assert_fails_with(
    call: Callable[[], Awaitable[Any]], error: type[APIStatusError], status: int
) -> APIStatusError:
    """`call` raises exactly `error` (not merely a subclass of it) with HTTP `status`; returns it for more checks."""
    with pytest.raises(APIStatusError) as info:
        await call()
    assert type(info.value) is error and info.value.status == status
    return info.value


async def assert_job_id_refused(
    service: Service, call: Callable[[], Awaitable[Any]], method: str, path: str, *, json: Any = None
) -> httpx.Response:
    """A job id that is not a UUID: the client refuses `call` naming `jobId` before sending, and the
    emulator refuses the same request sent raw with a 400 "Invalid job ID format" (returned for more checks)."""
    await refused_before_sending(service, call, "jobId")
    response = await service.raw(method, path, json=json)
    assert response.status_code == 400 and response.json()["error"].startswith("Invalid job ID format")
    return response


def assert_bad_request(response: httpx.Response, field: str) -> None:
    """The service's validation 400: BAD_REQUEST with `details` naming `field`."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["success"] is False and body["code"] == "BAD_REQUEST", body
    assert isinstance(body["details"], list) and body["details"], body
    assert all({"path", "message"} <= set(item) for item in body["details"]), body
    if field:
        assert field in [dotted(item["path"]) for item in body["details"]], body


def assert_support_bad_request(response: httpx.Response, field: str) -> None:
    """The support endpoints' 400: `{"error": ...}` only, naming the field."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    assert field in body["error"], body


async def assert_limit(
    service: Service,
    limit: Limit,
    call: Callable[[dict[str, Any]], Awaitable[Any]],
    method: str,
    path: str,
    *,
    support: bool = False,
) -> Any:
    """`limit.inside` is accepted through the client (its result is returned); `limit.outside`
    is refused by the client before sending and, sent raw, by the emulator with a 400."""
    result = await call(limit.inside)
    await refused_before_sending(service, lambda: call(limit.outside), limit.field)
    response = await service.raw(method, path, json=limit.outside)
    (assert_support_bad_request if support else assert_bad_request)(response, limit.field)
    return result
