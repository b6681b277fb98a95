"""Request parsing and response helpers shared by every route.

Routes never touch raw bodies or query strings: they call `parse_body` /
`parse_query` with a request model from `tui.contract.requests`, so the client and
the emulator enforce the same constraints, and every violation becomes the
service's 400 body with one `details` entry per problem.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse

from tui.contract.json_safety import json_problem
from tui.contract.limits import JSON_DEPTH_MAX
from tui.contract.validation import validation_details as shared_validation_details
from tui.emulator.core.teams import Caller
from tui.emulator.http.errors import ApiError, bad_request, invalid_json

ModelT = TypeVar("ModelT", bound=BaseModel)

CALLER_SCOPE_KEY = "wds.caller"

_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)

_PATH_TOKEN = re.compile(r"\[\d+\]|[^.\[\]]+")

INVALID_JOB_ID = "Invalid job ID format. Job ID must be a valid UUID."
INVALID_SESSION_ID = "Invalid session ID format. Session ID must be a valid UUID."


def is_uuid(value: str) -> bool:
    """True for the canonical 8-4-4-4-12 hex form the service issues."""
    return bool(_UUID_RE.match(value))


async def read_json_object(
    request: Request, *, support_style: bool = False, allow_empty: bool = False
) -> dict[str, Any]:
    """The body as a JSON object, or 400 BAD_REQUEST_INVALID_JSON.

    `allow_empty` treats a missing body as `{}` (for requests whose fields are all optional).
    """
    return decode_json_object(await request.body(), support_style=support_style, allow_empty=allow_empty)


def decode_json_object(raw: bytes, *, support_style: bool = False, allow_empty: bool = False) -> dict[str, Any]:
    """`raw` as a JSON object, or 400 BAD_REQUEST_INVALID_JSON (pure: safe in a worker thread)."""
    if allow_empty and not raw.strip():
        return {}
    try:
        data = json.loads(raw, parse_constant=_refuse_constant) if raw.strip() else None
    except (ValueError, UnicodeDecodeError) as exc:
        raise _maybe_support(invalid_json(f"Invalid JSON in request body: {exc}"), support_style) from None
    except RecursionError:
        # Python's reader recurses once per level; ten thousand `[` exhaust it.
        message = f"Invalid JSON in request body: nested deeper than {JSON_DEPTH_MAX} levels."
        raise _maybe_support(invalid_json(message), support_style) from None
    if not isinstance(data, dict):
        raise _maybe_support(invalid_json("Request body must be a JSON object."), support_style)
    return data


def _refuse_constant(name: str) -> Any:
    # Python's reader accepts NaN and Infinity; JSON has neither.
    raise ValueError(f"{name} is not a JSON value")


def validate(
    model_cls: type[ModelT], data: dict[str, Any], *, where: str = "request body", support_style: bool = False
) -> ModelT:
    """Validate `data` against `model_cls`; a violation is 400 BAD_REQUEST naming each field and limit."""
    # The models refuse these too; checked first here so `details` names the exact place
    # (a body's keys are the wire's names already).
    problem = json_problem(data)
    if problem is not None:
        detail = {"path": list(problem.path), "message": problem.message}
        raise _maybe_support(bad_request(f"Invalid {where}: {_describe(detail)}", [detail]), support_style)
    try:
        return model_cls.model_validate(data)
    except ValidationError as exc:
        details = validation_details(exc)
        summary = "; ".join(_describe(d) for d in details)
        raise _maybe_support(bad_request(f"Invalid {where}: {summary}", details), support_style) from None


async def parse_body(request: Request, model_cls: type[ModelT], *, support_style: bool = False) -> ModelT:
    """Parse and validate a JSON body (400 on bad JSON or a contract violation)."""
    data = await read_json_object(request, support_style=support_style)
    return validate(model_cls, data, support_style=support_style)


def parse_raw_body(raw: bytes, model_cls: type[ModelT]) -> ModelT:
    """`parse_body` of a body already read: pure, for a worker thread when the body may be megabytes."""
    return validate(model_cls, decode_json_object(raw))


def parse_query(request: Request, model_cls: type[ModelT]) -> ModelT:
    """Validate query parameters against `model_cls` (pydantic converts "50" and "true")."""
    return validate(model_cls, dict(request.query_params), where="query parameters")


def validation_details(exc: ValidationError) -> list[dict[str, Any]]:
    """Pydantic errors as the service's `details`: `[{"path": ["profile", "name"], "message": "..."}]`.

    Wire names and union handling come from `tui.contract.validation`, which the client
    shares, so both sides word a violation the same way; the service's `path` is a list.
    """
    details = []
    for item in shared_validation_details(exc):
        path = item["path"]
        message: str = item["message"]
        if isinstance(path, list):  # already the service's form
            details.append({"path": path, "message": message})
            continue
        if path and message.startswith(path + ": "):
            message = message[len(path) + 2 :]
        details.append({"path": _path_parts(path), "message": message})
    return details


def _path_parts(path_text: str) -> list[str | int]:
    parts: list[str | int] = []
    for token in _PATH_TOKEN.findall(path_text):
        parts.append(int(token[1:-1]) if token.startswith("[") else token)
    return parts


def uuid_param(request: Request, name: str, message: str) -> str:
    """A path parameter that must be a UUID (400 with `message` otherwise)."""
    value = request.path_params[name]
    if not is_uuid(value):
        raise bad_request(message)
    return value.lower()


def job_id_param(request: Request, name: str = "jobId") -> str:
    """A job id from the path (400 "Invalid job ID format..." when not a UUID)."""
    return uuid_param(request, name, INVALID_JOB_ID)


def caller(request: Request) -> Caller:
    """The authenticated caller, set by the auth middleware before any route runs."""
    found = request.scope.get(CALLER_SCOPE_KEY)
    if found is None:
        # Only reachable if a route is mounted outside /v2 and still asks for a caller.
        raise ApiError(401, "Unauthorized", "UNAUTHORIZED")
    return found


def base_url(request: Request) -> str:
    """The scheme://host[:port] the caller used, for URLs the emulator hands back."""
    return str(request.base_url).rstrip("/")


def ok(payload: dict[str, Any], status: int = 200) -> JSONResponse:
    """A JSON success response; adds `"success": true` when the payload has no `success`."""
    if "success" not in payload:
        payload = {"success": True, **payload}
    return JSONResponse(payload, status_code=status)


def _describe(detail: dict[str, Any]) -> str:
    path = ".".join(str(p) for p in detail["path"])
    return f"{path}: {detail['message']}" if path else detail["message"]


def _maybe_support(error: ApiError, support_style: bool) -> ApiError:
    error.support_style = support_style
    return error
