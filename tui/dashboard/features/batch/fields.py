"""The fields of the batch scrape form, read as a `BatchScrapeRequest` and checked against the contract.

The URLs are a text area, one a line (pasted, or the map explorer's
selection), counted as they are typed; below them come the scrape options
shared with the scrape form (`tui.dashboard.kit.scrape_options`), then the batch's
own: `ignoreInvalidURLs`, `maxConcurrency` and an optional webhook. Problems
go under their field; what was typed is never cleared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Static, TextArea

from tui.contract.limits import MAX_CONCURRENCY_MIN
from tui.contract.requests import BatchScrapeRequest, WebhookConfig, is_http_url
from tui.contract.validation import validation_details
from tui.dashboard.kit.form_issues import (
    issues_by_field,
    mark_fields,
    problem_text,
    say_problem,
)
from tui.dashboard.kit.outside_text import visible
from tui.dashboard.kit.scrape_options import (
    OPTION_FIELDS,
    ScrapeOptionsFields,
    labelled_input,
    option_field_of,
)

NO_INBOX_HINT = "optional; the webhook inbox is not listening (w starts the inbox)"
INBOX_HINT = "the dashboard's webhook inbox is listening here; clear it to send no webhook"
_OWN_FIELDS = ("urls", "ignore-invalid", "max-concurrency", "webhook")
_FIELD_OF_WIRE = {
    "urls": "urls",
    "ignoreInvalidURLs": "ignore-invalid",
    "maxConcurrency": "max-concurrency",
    "webhook": "webhook",
}
_FIELDS = ("urls", *OPTION_FIELDS, "ignore-invalid", "max-concurrency", "webhook")


def field_of(path: str) -> str | None:
    """The form field showing an issue at wire `path` (`urls[3]` -> urls, `webhook.url` -> webhook)."""
    base = path.split("[", 1)[0].split(".", 1)[0]
    return _FIELD_OF_WIRE.get(base) or option_field_of(path)


def url_lines(text: str) -> list[str]:
    """The URLs of the text area: one a line, blank lines and surrounding spaces dropped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _webhook_issues(webhook: dict[str, Any] | None) -> list[dict[str, Any]]:
    # Checked as the object it is sent as: the model's union of string and object
    # would word a bad URL "Input should be a valid string".
    if webhook is None:
        return []
    try:
        WebhookConfig.model_validate(webhook)
    except ValidationError as exc:
        return [{"path": "webhook", "message": issue["message"].replace("url: ", "webhook: ", 1)}
                for issue in validation_details(exc)]
    return []


class BatchFields(VerticalScroll):
    """The batch form's fields, their error lines, and a line on top for problems of no single field."""

    DEFAULT_CSS = """
    BatchFields { padding: 0 1; }
    BatchFields #form-problem { color: $error; margin-bottom: 1; height: auto; }
    BatchFields .field-row { height: auto; }
    BatchFields .field-row > Label { width: 20; }
    BatchFields .field-row > Input, BatchFields .field-row > Select { width: 1fr; }
    BatchFields .field-row > TextArea { width: 1fr; height: 6; padding: 0; }
    BatchFields .field-error { color: $error; height: auto; padding-left: 20; }
    BatchFields .field-note { color: $text-muted; height: auto; padding-left: 20; }
    BatchFields .group { margin-top: 1; }
    BatchFields #ignore-invalid { border: none; padding: 0; width: auto; background: transparent; }
    BatchFields .field-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, urls: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._urls = list(urls)

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        with Horizontal(classes="field-row"):
            yield Label("URLs, one a line", id="urls-label")
            # The map explorer's selection: the map's URLs, one line each, as text.
            yield TextArea("\n".join(visible(url) for url in self._urls), id="urls", compact=True, soft_wrap=False,
                           placeholder="https://example.com/a\nhttps://example.com/b")
        yield Static("", id="urls-count", classes="field-note", markup=False)
        yield Static("", id="urls-error", classes="field-error", markup=False)
        yield ScrapeOptionsFields(id="scrape-options")
        with Horizontal(classes="field-row group"):
            yield Label("invalid URLs")
            yield Checkbox("ignoreInvalidURLs: drop them and go on", True, id="ignore-invalid", compact=True)
        yield Static("", id="ignore-invalid-error", classes="field-error", markup=False)
        yield from labelled_input("max-concurrency", "maxConcurrency",
                                  f"≥ {MAX_CONCURRENCY_MIN}; pages at once; default the team's limit", numeric=True)
        yield from labelled_input("webhook", "webhook", "https://… receives the batch's events", group=True)
        yield Static(NO_INBOX_HINT, id="webhook-hint", classes="field-note", markup=False)
        yield Static("ctrl+s: start the batch · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def on_mount(self) -> None:
        for widget_id in (*(f"{field_id}-error" for field_id in _OWN_FIELDS), "form-problem"):
            self.query_one(f"#{widget_id}").display = False
        self._count()

    @property
    def options(self) -> ScrapeOptionsFields:
        """The scrape options' block of fields."""
        return self.query_one(ScrapeOptionsFields)

    @on(TextArea.Changed, "#urls")
    def _count(self) -> None:
        urls = url_lines(self.query_one("#urls", TextArea).text)
        invalid = sum(1 for url in urls if not is_http_url(url))
        text = f"{len(urls):,} URL{'' if len(urls) == 1 else 's'}"
        if invalid:
            text += f", {invalid:,} not an http(s) URL"
        self.query_one("#urls-count", Static).update(text)

    def offer_webhook(self, address: str | None, offered: str | None) -> bool:
        """Fill the webhook with the inbox's `address` unless it was offered before (`offered`) or is typed in.

        Returns whether the inbox listens (the hint then says so).
        """
        if address is None:
            return False
        self.query_one("#webhook-hint", Static).update(INBOX_HINT)
        webhook = self.query_one("#webhook", Input)
        if address != offered and not webhook.value.strip():
            webhook.value = address
        return True

    # --- reading and checking -------------------------------------------------

    @property
    def urls(self) -> list[str]:
        """The URLs as typed, one a line."""
        return url_lines(self.query_one("#urls", TextArea).text)

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name, as `BatchScrapeRequest` reads it."""
        values: dict[str, Any] = {"urls": self.urls, **self.options.wire_values()}
        if not self.query_one("#ignore-invalid", Checkbox).value:
            values["ignoreInvalidURLs"] = False
        concurrency = self.query_one("#max-concurrency", Input).value.strip()
        if concurrency:
            values["maxConcurrency"] = concurrency
        webhook = self.query_one("#webhook", Input).value.strip()
        if webhook:
            values["webhook"] = {"url": webhook}  # the contract's webhook is an object
        return values

    def build_request(self) -> BatchScrapeRequest | None:
        """The request, or None after putting each problem under its field."""
        values = self.wire_values()
        issues: list[dict[str, Any]] = []
        if not values["urls"]:
            issues.append({"path": "urls", "message": "urls: at least one URL, one a line"})
        elif values.get("ignoreInvalidURLs") is False:
            # The service would refuse the whole batch for them: say which before sending.
            invalid = [url for url in values["urls"] if not is_http_url(url)]
            if invalid:
                shown = ", ".join(invalid[:3]) + (f" and {len(invalid) - 3:,} more" if len(invalid) > 3 else "")
                issues.append({"path": "urls", "message": f"urls: not http(s) URLs: {shown}. Fix them, or tick "
                               "ignoreInvalidURLs to drop them"})
        issues.extend(_webhook_issues(values.get("webhook")))
        try:
            request = BatchScrapeRequest.model_validate(values)
        except ValidationError as exc:
            issues.extend(issue for issue in validation_details(exc)
                          if (values["urls"] or issue["path"] != "urls") and field_of(issue["path"]) != "webhook")
            request = None
        self.show_issues(issues)
        return None if issues else request

    def show_issues(self, issues: list[dict[str, Any]], problem: str = "") -> None:
        """Put each issue under its field (one of no field on top, after `problem`), clearing the others."""
        problems = issues_by_field(issues, field_of)
        mark_fields(self, problems, _OWN_FIELDS)
        self.options.show_errors(problems)
        self.show_problem(problem_text(problem, problems))
        first = next((field_id for field_id in _FIELDS if field_id in problems), None)
        if first in _OWN_FIELDS:
            self.query_one(f"#{first}").focus()
        elif first is not None:
            self.options.focus_field(first)

    def show_problem(self, text: str) -> None:
        """Say `text` above the fields (nothing: hide the line)."""
        say_problem(self, text)
