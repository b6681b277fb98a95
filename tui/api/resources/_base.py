"""What every resource shares: the client handle, request building, path ids."""

from __future__ import annotations

import uuid
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from pydantic import BaseModel, ValidationError

from tui.api.errors import RequestValidationError
from tui.contract.validation import validation_details

if TYPE_CHECKING:
    from tui.api.base_client import BaseClient

RequestT = TypeVar("RequestT", bound=BaseModel)

# Extra seconds of read timeout on top of a call's own budget (execute timeout,
# scrape timeout, ...), for the network and the server's own bookkeeping.
READ_MARGIN = 15.0


class Resource:
    """A group of endpoints; reaches the service through the client's transport.

    It depends on `BaseClient` only (never on the `WdsClient` facade that
    holds the resources), so resources and client import in one direction.
    """

    def __init__(self, client: BaseClient) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"


@cache  # asked on every call of a polling pane; a model's fields never change
def _known_names(model: type[BaseModel]) -> frozenset[str]:
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.add(name)
        if info.alias:
            names.add(info.alias)
    return frozenset(names)


def _invalid(model: type[BaseModel], exc: ValidationError) -> RequestValidationError:
    issues = validation_details(exc)
    summary = "; ".join(issue["message"] for issue in issues) or "invalid arguments"
    return RequestValidationError(f"invalid {model.__name__}: {summary}", request_name=model.__name__, issues=issues)


def build_request(model: type[RequestT], request: RequestT | None, /, **fields: Any) -> RequestT:
    """The request model for a call, validated, from keyword arguments or a ready model.

    Arguments left at None count as not given, so the model's (and the
    server's) defaults apply. Raises `RequestValidationError` naming the wire
    field and its limit, `TypeError` for an unknown option or for a ready model
    mixed with keyword arguments.
    """
    given = {name: value for name, value in fields.items() if value is not None}
    unknown = sorted(set(given) - _known_names(model))
    if unknown:
        raise TypeError(f"{model.__name__} has no option {', '.join(map(repr, unknown))}")
    if request is not None:
        if given:
            raise TypeError(f"pass either request= or keyword arguments, not both (got {', '.join(sorted(given))})")
        if not isinstance(request, model):
            raise TypeError(f"request= must be an instance of {model.__name__}, not {type(request).__name__}")
        # validated again: a model built with model_construct or changed after
        # construction has not been checked against the limits
        given = request.model_dump(by_alias=True, exclude_unset=True)
    try:
        return model.model_validate(given)
    except ValidationError as exc:
        raise _invalid(model, exc) from None


def _parameter_issue(name: str, message: str) -> RequestValidationError:
    text = f"{name}: {message}"
    return RequestValidationError(
        f"invalid parameter {text}", request_name=name, issues=[{"path": name, "message": text}]
    )


def job_id_segment(job_id: Any, name: str = "jobId") -> str:
    """A job id for a URL path; the service requires a UUID, so it is checked here."""
    if not isinstance(job_id, str) or not job_id.strip():
        raise _parameter_issue(name, "is required (a job id, a UUID)")
    try:
        parsed = uuid.UUID(job_id.strip())
    except ValueError:
        raise _parameter_issue(name, f"must be a UUID (got {job_id[:60]!r})") from None
    # The service accepts only the hyphenated form; braces, urn: or bare hex are rewritten to it.
    return str(parsed)


def session_id_segment(session_id: Any, name: str = "sessionId") -> str:
    """A browser session id for a URL path (any non-empty string, escaped)."""
    if not isinstance(session_id, str) or not session_id.strip():
        raise _parameter_issue(name, "is required (a browser session id)")
    return quote(session_id.strip(), safe="")


def page_params(skip: int | None, limit: int | None) -> dict[str, int]:
    """The `skip`/`limit` query of a job status call, checked."""
    params: dict[str, int] = {}
    for name, value, minimum in (("skip", skip, 0), ("limit", limit, 1)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise _parameter_issue(name, f"must be an integer (got {value!r})")
        if value < minimum:
            raise _parameter_issue(name, f"must be greater than or equal to {minimum} (got {value})")
        params[name] = value
    return params
