"""The fields of the batch scrape form, read as a `BatchScrapeRequest` and checked against the contract.

The URLs are a text area, one a line (pasted, or the map explorer's
selection), counted as they are typed; below them come the scrape options
shared with the scrape form (`tui.dashboard.kit.scrape_options`), then the batch's
own: `ignoreInvalidURLs`, `maxConcurrency` and an optional webhook.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, Static, TextArea

from tui.contract.requests import BatchScrapeRequest, WebhookConfig, is_http_url
from tui.contract.validation import validation_details
from tui.dashboard.kit.form_body import NO_INBOX_HINT, FieldSpec, FormBody, error_line, range_text
from tui.dashboard.kit.outside_text import visible
from tui.dashboard.kit.scrape_options import FOCUS, OPTION_SPECS, ScrapeOptionsFields

URLS = FieldSpec("urls", ("urls",))
IGNORE_INVALID = FieldSpec(
    "ignore-invalid",
    ("ignoreInvalidURLs",),
    "invalid URLs",
    "ignoreInvalidURLs: drop them and go on",
    "boolean",
    group=True,
    default=True,
)
CONCURRENCY = FieldSpec(
    "max-concurrency",
    ("maxConcurrency",),
    "maxConcurrency",
    f"{range_text(BatchScrapeRequest, 'maxConcurrency')}; pages at once; default the team's limit",
    "integer",
)
WEBHOOK = FieldSpec("webhook", ("webhook",), "webhook", "https://… receives the batch's events", group=True)


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
        return [
            {"path": "webhook", "message": issue["message"].replace("url: ", "webhook: ", 1)}
            for issue in validation_details(exc)
        ]
    return []


class BatchFields(FormBody):
    """The batch form's fields, their error lines, and a line on top for problems of no single field."""

    MODEL = BatchScrapeRequest
    SPECS = (URLS, *OPTION_SPECS, IGNORE_INVALID, CONCURRENCY, WEBHOOK)
    FOCUS = FOCUS

    DEFAULT_CSS = """
    BatchFields .field-row > TextArea { width: 1fr; height: 6; padding: 0; }
    BatchFields .field-note { color: $text-muted; height: auto; padding-left: 20; }
    BatchFields #ignore-invalid { border: none; padding: 0; width: auto; background: transparent; }
    """

    def __init__(self, urls: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._urls = list(urls)

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        with Horizontal(classes="field-row"):
            yield Label("URLs, one a line", id="urls-label")
            # The map explorer's selection: the map's URLs, one line each, as text.
            yield TextArea(
                "\n".join(visible(url) for url in self._urls),
                id="urls",
                compact=True,
                soft_wrap=False,
                placeholder="https://example.com/a\nhttps://example.com/b",
            )
        yield Static("", id="urls-count", classes="field-note", markup=False)
        yield error_line("urls")
        yield ScrapeOptionsFields(id="scrape-options")
        for spec in (IGNORE_INVALID, CONCURRENCY, WEBHOOK):
            yield from spec.compose()
        yield Static(NO_INBOX_HINT, id="webhook-hint", classes="field-note", markup=False)
        yield Static("ctrl+s: start the batch · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def on_mount(self) -> None:
        super().on_mount()
        self._count()

    @on(TextArea.Changed, "#urls")
    def _count(self) -> None:
        urls = self.urls
        invalid = sum(1 for url in urls if not is_http_url(url))
        text = f"{len(urls):,} URL{'' if len(urls) == 1 else 's'}"
        if invalid:
            text += f", {invalid:,} not an http(s) URL"
        self.query_one("#urls-count", Static).update(text)

    @property
    def urls(self) -> list[str]:
        """The URLs as typed, one a line."""
        return url_lines(self.query_one("#urls", TextArea).text)

    def wire_values(self) -> dict[str, Any]:
        values = {"urls": self.urls, **super().wire_values(), **self.query_one(ScrapeOptionsFields).wire_values()}
        if self.text("webhook"):
            values["webhook"] = {"url": self.text("webhook")}  # the contract's webhook is an object
        return values

    def checks(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        issues = _webhook_issues(values.get("webhook"))
        if not values["urls"]:
            issues.append({"path": "urls", "message": "urls: at least one URL, one a line"})
        elif values.get("ignoreInvalidURLs") is False:
            # The service would refuse the whole batch for them: say which before sending.
            invalid = [url for url in values["urls"] if not is_http_url(url)]
            if invalid:
                some = ", ".join(invalid[:3]) + (f" and {len(invalid) - 3:,} more" if len(invalid) > 3 else "")
                issues.append(
                    {
                        "path": "urls",
                        "message": f"urls: not http(s) URLs: {some}. Fix them, or tick ignoreInvalidURLs to drop them",
                    }
                )
        return issues

    def keeps(self, issue: dict[str, Any], values: dict[str, Any], checked: list[dict[str, Any]]) -> bool:
        # The webhook is checked as the object it is sent as (above), never as the model's union.
        return super().keeps(issue, values, checked) and self.field_of(str(issue["path"])) != "webhook"
