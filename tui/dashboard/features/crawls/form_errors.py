"""What the crawl form says when the service refuses a preview or a start: one clear sentence per failure.

A 400 that names fields is shown at those fields (`field_issues`); every
other failure gets a sentence saying what happened and what to do
(`refusal_text`). Nothing here clears the form: what was typed stays.
"""

from __future__ import annotations

from typing import Any

from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    InsufficientCreditsError,
    InternalServerError,
    InvalidResponseError,
    RateLimitError,
    RequestValidationError,
    WdsError,
)


def top_field(path: Any) -> str:
    """The wire name a path starts with: `includePaths` of `["includePaths", 0]` or `includePaths[0]`."""
    if isinstance(path, list | tuple):
        return str(path[0]) if path else ""
    return str(path).split(".")[0].split("[")[0]


def field_issues(error: WdsError) -> list[tuple[str, str]]:
    """`(wire name, message)` for each field a refusal names: ours before sending, or the service's 400."""
    if isinstance(error, RequestValidationError):
        raw: Any = error.issues
    elif isinstance(error, APIStatusError) and error.status == 400:
        raw = error.details
    else:
        return []
    if not isinstance(raw, list):
        return []
    issues = []
    for issue in raw:
        if isinstance(issue, dict) and issue.get("path") not in (None, "", []):
            issues.append((top_field(issue["path"]), str(issue.get("message", "is invalid"))))
    return issues


def refusal_text(error: WdsError, doing: str, base_url: str) -> str:
    """A sentence for a failure that is no field's: `doing` is "Preview" or "Start"."""
    starting = doing == "Start"
    if isinstance(error, AuthenticationError):
        return f"{doing}: the service refused the API key (401). Check the key the dashboard was started with."
    if isinstance(error, RateLimitError):
        wait = f"wait {error.retry_after:g} s" if error.retry_after else "wait a moment"
        return f"{doing}: too many requests (429); {wait} and send again, nothing typed is lost."
    if isinstance(error, InsufficientCreditsError):
        return f"{doing}: the team has no credits left for this (402)."
    if isinstance(error, BadRequestError):
        return f"{doing}: the service refused the request (400): {error.message}"
    if isinstance(error, InternalServerError):
        after = " The crawl may not have started: look at the crawls pane before sending again." if starting else ""
        return f"{doing}: the service failed ({error}).{after} Try again in a moment."
    if isinstance(error, APIStatusError):
        return f"{doing}: the service refused the request ({error})."
    if isinstance(error, APITimeoutError):
        after = " It may have started anyway: look at the crawls pane before sending again." if starting else ""
        return f"{doing}: no answer from {base_url} in time.{after}"
    if isinstance(error, APIConnectionError):
        return f"{doing}: connection lost, {base_url} cannot be reached ({error.message}). Nothing typed is lost."
    if isinstance(error, InvalidResponseError):
        return f"{doing}: the service answered something unreadable ({error.message})."
    return f"{doing}: {error.title}: {error.message}"
