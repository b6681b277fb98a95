"""The fields of the scrape form: what is typed, read as a `ScrapeRequest` and checked against the contract.

`ScrapeFields` lays the form out (the URL, then the scrape options shared with
the batch form, `tui.dashboard.kit.scrape_options`) and reads it with the request
model the client sends, so a limit quoted under a field is the contract's.
Problems go under their field; what was typed is never cleared. The screen
around it (`tui.dashboard.features.scrape.form`) sends, waits, and shows the page.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from tui.contract.requests import ScrapeRequest
from tui.contract.validation import validation_details
from tui.dashboard.kit.form_issues import (
    issues_by_field,
    mark_fields,
    problem_text,
    say_problem,
)
from tui.dashboard.kit.scrape_options import (
    FORMATS,
    OPTION_FIELDS,
    PROXIES,
    ScrapeOptionsFields,
    labelled_input,
    option_field_of,
)

__all__ = ["FORMATS", "PROXIES", "ScrapeFields", "field_of"]

_FIELDS = ("url", *OPTION_FIELDS)


def field_of(path: str) -> str | None:
    """The form field showing an issue at wire `path` (`formats[1]` -> formats), None for none."""
    return "url" if path.split("[", 1)[0] == "url" else option_field_of(path)


class ScrapeFields(VerticalScroll):
    """The form's fields, their error lines, and a line on top for problems of no single field."""

    # The rows' look is shared with the batch form (tui.dashboard.features.batch.fields): same classes, same widths.
    DEFAULT_CSS = """
    ScrapeFields { padding: 0 1; }
    ScrapeFields #form-problem { color: $error; margin-bottom: 1; height: auto; }
    ScrapeFields .field-row { height: auto; }
    ScrapeFields .field-row > Label { width: 20; }
    ScrapeFields .field-row > Input, ScrapeFields .field-row > Select { width: 1fr; }
    ScrapeFields .field-error { color: $error; height: auto; padding-left: 20; }
    ScrapeFields .group { margin-top: 1; }
    ScrapeFields .field-hint { color: $text-muted; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        yield from labelled_input("url", "URL", "https://example.com/page")
        yield ScrapeOptionsFields(id="scrape-options")
        yield Static("ctrl+s: scrape · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    @property
    def options(self) -> ScrapeOptionsFields:
        """The scrape options' block of fields."""
        return self.query_one(ScrapeOptionsFields)

    # --- reading and checking -------------------------------------------------

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name, as the request model reads it (see `ScrapeOptionsFields`)."""
        return {"url": self.query_one("#url", Input).value.strip(), **self.options.wire_values()}

    def build_request(self) -> ScrapeRequest | None:
        """The request, or None after putting each problem under its field."""
        values = self.wire_values()
        issues: list[dict[str, Any]] = []
        if not values["url"]:
            issues.append({"path": "url", "message": "url: required, an absolute http:// or https:// URL"})
        try:
            request = ScrapeRequest.model_validate(values)
        except ValidationError as exc:
            issues.extend(issue for issue in validation_details(exc) if values["url"] or issue["path"] != "url")
            request = None
        self.show_issues(issues)
        return None if issues else request

    def show_issues(self, issues: list[dict[str, Any]], problem: str = "") -> None:
        """Put each issue under its field (one of no field on top, after `problem`), clearing the others."""
        problems = issues_by_field(issues, field_of)
        mark_fields(self, problems, ("url",))
        self.options.show_errors(problems)
        self.show_problem(problem_text(problem, problems))
        first = next((field_id for field_id in _FIELDS if field_id in problems), None)
        if first == "url":
            self.query_one("#url").focus()
        elif first is not None:
            self.options.focus_field(first)

    def show_problem(self, text: str) -> None:
        """Say `text` above the fields (nothing: hide the line)."""
        say_problem(self, text)

    def on_mount(self) -> None:
        for widget_id in ("url-error", "form-problem"):
            self.query_one(f"#{widget_id}").display = False
