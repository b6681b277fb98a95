"""The fields of the crawl form: the URL and a prompt to preview from, the 15 parameters, a webhook; a `CrawlRequest`.

The parameters are declared in `tui.dashboard.features.crawls.params_fields`; the
screen around it (`tui.dashboard.features.crawls.form`) previews, sends and opens the crawl.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Label, Static, TextArea

from tui.contract.limits import CRAWL_PREVIEW_PROMPT_MAX
from tui.contract.requests import CrawlRequest
from tui.dashboard.features.crawls.params_fields import PARAM_FIELDS
from tui.dashboard.kit.form_body import NO_INBOX_HINT, FieldSpec, FormBody, error_line

WEBHOOK = FieldSpec("webhook", ("webhook",), "webhook · URL, optional", "https://… receives the crawl's events")


class CrawlFields(FormBody):
    """The crawl form's fields, their error lines, and a line on top for problems of no single field."""

    MODEL = CrawlRequest
    # In the order of the form, which is the order a problem is focused in.
    SPECS = (PARAM_FIELDS[0], FieldSpec("prompt", ("prompt",)), *PARAM_FIELDS[1:], WEBHOOK)
    # The 15 parameters and the webhook are read as declared; the prompt is not sent (the form is).
    SENDS_DEFAULTS = True  # what is shown is what is sent: every tick counts (it has no "not given")

    DEFAULT_CSS = """
    CrawlFields .form-section { text-style: bold; color: $text-muted; margin-top: 1; }
    CrawlFields .field-row > Label { width: 35; padding-right: 1; color: $text-muted; }
    CrawlFields .field-row > Checkbox { width: 1fr; }
    CrawlFields .field-row > TextArea { width: 1fr; height: 3; padding: 0; }
    CrawlFields .field-row > #prompt { height: 4; }
    CrawlFields .field-error { padding-left: 35; }
    CrawlFields .field-hint { height: auto; padding-left: 35; margin-top: 0; }
    CrawlFields #preview-row { height: auto; margin-top: 1; }
    CrawlFields #preview-state { width: 1fr; padding-left: 2; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        yield Static(
            "Describe the crawl, and ctrl+r fills the parameters (or fill them by hand)", classes="form-section"
        )
        # select_on_focus: a field this form focuses (a problem's) has its value selected, to type anew.
        yield from PARAM_FIELDS[0].compose(select_on_focus=True)
        with Horizontal(classes="field-row"):
            label = f"prompt · text, up to {CRAWL_PREVIEW_PROMPT_MAX}"
            yield Label(label, id="prompt-label", classes="field-label", markup=False)
            yield TextArea(id="prompt", compact=True, placeholder="e.g. only the blog, up to 50 pages, depth 2")
        yield error_line("prompt")
        with Horizontal(id="preview-row"):
            yield Button("Preview parameters", id="preview", compact=True)
            yield Static("ctrl+r: ask the service for the parameters", id="preview-state", markup=False)
        yield Static("Parameters: sent as shown", classes="form-section")
        for field in PARAM_FIELDS[1:]:
            yield from field.compose(select_on_focus=True)
        yield Static("Webhook", classes="form-section")
        yield from WEBHOOK.compose(select_on_focus=True)
        yield Static(NO_INBOX_HINT, id="webhook-hint", classes="field-hint", markup=False)
        with Horizontal(id="start-row"):
            yield Button("Start crawl", id="start", variant="primary", compact=True)

    def show_issues(self, issues: list[dict[str, Any]], problem: str = "") -> None:
        # Under its field the name is already in the label: "must be ≥ 1", not "limit: must be ≥ 1".
        top = [str(issue["path"]).split(".")[0].split("[")[0] for issue in issues]
        super().show_issues(
            [
                {**issue, "message": str(issue["message"]).removeprefix(f"{wire}: ")}
                for issue, wire in zip(issues, top, strict=True)
            ],
            problem,
        )
