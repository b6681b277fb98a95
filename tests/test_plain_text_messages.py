"""No literal Markdown backticks in what the app shows as plain text.

Messages, notices and error texts are shown by Static and Label widgets and
by notify(), none of which render Markdown: a backtick would show as a
backtick. Two guards: every string literal of the app's code (docstrings
aside, the emulator aside: its error texts are the service's own words) is
free of them, and a few error paths, run for real, show none.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tui
from tui.api.errors import (
    APIConnectionError,
    AuthenticationError,
    BadGatewayError,
    BadRequestError,
    GatewayTimeoutError,
    RateLimitError,
    RequestValidationError,
    ServiceUnavailableError,
)
from tui.api.resources.jobs import no_retrieval
from tui.dashboard.connection.advice import advice_for
from tui.dashboard.features.support.log import AskFailure

APP = Path(tui.__file__).parent
ALLOWED = {("contract/requests.py", "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+")}
"""Literals that are not text for people (a regular expression of HTTP header-name characters)."""
MARKDOWN_SOURCES = {"dashboard/features/support/docs_results.py"}
"""Modules that write Markdown for a Markdown widget, where a backtick is a code span, not a character."""


def _stylesheets(tree: ast.AST) -> set[int]:
    """ids of the strings assigned to DEFAULT_CSS: a stylesheet's comments are not shown to anyone."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DEFAULT_CSS" for t in node.targets):
            if isinstance(node.value, ast.Constant):
                found.add(id(node.value))
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (of modules, classes, functions, and attributes)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def test_no_string_literal_of_the_app_holds_a_backtick() -> None:
    offenders = []
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP).as_posix()
        if relative.startswith("emulator/") or relative in MARKDOWN_SOURCES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree) | _stylesheets(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and "`" in node.value
                and id(node) not in docstrings
                and (relative, node.value) not in ALLOWED
            ):
                offenders.append(f"{relative}:{node.lineno}: {node.value[:80]!r}")
    assert offenders == []


def test_error_texts_the_app_shows_have_no_backticks() -> None:
    shown = [
        no_retrieval("map").message,
        advice_for(AuthenticationError("Unauthorized.", status=401), "127.0.0.1:3002"),
    ]
    for error in (
        RequestValidationError("invalid SupportAskRequest: question too long", issues=[{"path": "question"}]),
        BadRequestError("Invalid request body", status=400, details=[{"path": "question", "message": "empty"}]),
        AuthenticationError("Unauthorized.", status=401),
        RateLimitError("Rate limit exceeded.", status=429, retry_after=3),
        ServiceUnavailableError("Support is not available.", status=503),
        BadGatewayError("Agent unreachable.", status=502),
        GatewayTimeoutError("Support agent timed out after 60 s.", status=504),
        APIConnectionError("connection refused"),
    ):
        failure = AskFailure.of(error)
        shown += [failure.title, failure.message]
    assert [text for text in shown if "`" in text] == []
