"""The parts every form's refusal words share: the `Refusal` shown, field issues, status codes in words.

The scrape, map and batch forms each say in their own words what a failure
means for what they send (`scrape_refusals`, `map_refusals`, `batch_refusals`);
what is the same for all of them is here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tui.api.errors import APIStatusError, RequestValidationError, WdsError


@dataclass(frozen=True)
class Refusal:
    """What a form shows for a failed request: a heading, the explanation, and per-field issues."""

    title: str
    text: str
    issues: list[dict[str, Any]] = field(default_factory=list)  # `{"path": wire path, "message"}`


def wire_path(path: object) -> str:
    """A path as the client writes it: the service's `["location", "country"]` reads `location.country`."""
    if not isinstance(path, list):
        return str(path)
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else ("." if text else "") + str(part)
    return text


def field_issues(error: WdsError) -> list[dict[str, Any]]:
    """The issues a refusal names field by field: ours before sending, or the service's 400 details."""
    if isinstance(error, RequestValidationError):
        return error.issues
    details = error.details if isinstance(error, APIStatusError) else None
    if not isinstance(details, list):
        return []
    issues = []
    for issue in details:
        if isinstance(issue, dict) and issue.get("path") not in (None, "", []):
            path = wire_path(issue["path"])
            message = str(issue.get("message", "is invalid"))
            # The service words it without the field's name; under the field it is named as ours are.
            issues.append({"path": path, "message": message if message.startswith(path) else f"{path}: {message}"})
    return issues


def status_code(error: APIStatusError) -> str:
    """`429 RATE_LIMITED`, or the status alone when the body named no code."""
    return f"{error.status} {error.code}" if error.code else str(error.status)


def request_id_text(error: APIStatusError) -> str:
    """` (request id …)` when the service gave one, for a support ticket; else nothing."""
    return f" (request id {error.request_id})" if error.request_id else ""


def rate_limited(error: Any) -> Refusal:
    """429: the wait the service asked for, then send again."""
    wait = f"Wait {error.retry_after:g} s" if error.retry_after else "Wait a moment"
    return Refusal("Rate limited", f"Too many requests for the team ({status_code(error)}: {error.message}). "
                   f"{wait}, then send again with ctrl+s.")
