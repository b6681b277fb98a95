"""Putting a form's problems where they belong: each under its field, the rest above the form.

Shared by the launch forms. An issue is `{"path": wire path, "message": words}`,
as our request models and the service's 400 give them (`field_issues`); `field_of`
turns a wire path into the form's field id. `refusal` is a failed request in
words: the issues of single fields, or the words of `tui.dashboard.kit.error_words`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from textual.widget import Widget
from textual.widgets import Static

from tui.api.errors import APIStatusError, RequestValidationError, WdsError
from tui.dashboard.kit.error_words import Say, Words, words_for
from tui.dashboard.kit.outside_text import shown

PROBLEM = "form-problem"
"""The id of the line above the fields, for issues of no single field."""


def issues_by_field(issues: Iterable[dict[str, Any]], field_of: Callable[[str], str | None]) -> dict[str, list[str]]:
    """Each issue's message under the field it names (`PROBLEM` for those of no field)."""
    problems: dict[str, list[str]] = {}
    for issue in issues:
        field_id = field_of(str(issue.get("path", ""))) or PROBLEM
        problems.setdefault(field_id, []).append(str(issue.get("message", "")))
    return problems


def mark_fields(form: Widget, problems: dict[str, list[str]], field_ids: Iterable[str]) -> None:
    """Show each field's messages on its `#ID-error` line and mark the field `-invalid`; clear the others."""
    for field_id in field_ids:
        messages = problems.get(field_id, [])
        line = form.query_one(f"#{field_id}-error", Static)
        line.update(shown("\n".join(messages), lines=True))  # the service's 400 says these
        line.display = bool(messages)
        form.query_one(f"#{field_id}").set_class(bool(messages), "-invalid")


def problem_text(problem: str, problems: dict[str, list[str]]) -> str:
    """The line above the fields: the caller's sentence, then the issues of no single field."""
    return "\n".join(filter(None, [problem, *problems.get(PROBLEM, [])]))


def wire_path(path: object) -> str:
    """A path as the client writes it: the service's `["location", "country"]` reads `location.country`."""
    if not isinstance(path, list | tuple):
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


def refusal(error: WdsError, overrides: Mapping[type[WdsError], Say] | None = None) -> Words:
    """What a form shows for `error`: the fields it names, or else the words of the error table."""
    issues = field_issues(error)
    if issues:
        return Words("Check the fields", "Some values are outside the contract's limits: see under each field.", issues)
    return words_for(error, overrides)
