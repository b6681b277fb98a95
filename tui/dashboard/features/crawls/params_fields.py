"""The crawl parameters of the contract as form fields: one labelled widget each, read back as the wire body.

The 15 parameters of the contract's "Crawl parameters" table (the answer of
`POST /v2/crawl/params-preview`, and the options of `POST /v2/crawl`). Each
label says the wire name, the type and the limits, and the limits are read
from `CrawlRequest` itself, the model the client and the emulator validate
with, so the label cannot promise other bounds than the check applies.
Booleans are checkboxes, `sitemap` a choice, the path lists one regex a line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, TextArea

from tui.contract.models.crawl import CrawlParams
from tui.contract.requests import CrawlRequest
from tui.dashboard.kit.form_body import error_line, range_text
from tui.dashboard.kit.outside_text import visible

Kind = Literal["url", "integer", "number", "boolean", "string", "lines", "choice"]

SITEMAP_CHOICES = ("skip", "include", "only")


@dataclass(frozen=True)
class ParamField:
    """One crawl parameter: its wire name, its kind of widget and what it does."""

    wire: str
    kind: Kind
    hint: str  # what it does, in a few words (the empty field's placeholder)
    default: bool = False  # booleans only: the service's default, what an untouched box sends

    @property
    def dom_id(self) -> str:
        """The id of the field's widget (its error line is `<id>-error`)."""
        return f"param-{self.wire}"

    @property
    def python_name(self) -> str:
        """The field's name in `CrawlRequest` and `CrawlParams`."""
        return next(name for name, info in CrawlRequest.model_fields.items() if (info.alias or name) == self.wire)

    @property
    def label(self) -> str:
        """`limit · integer ≥ 1`: wire name, type, limits."""
        return f"{self.wire} · {type_text(self)}"


# In the order of the contract's table.
PARAM_FIELDS: tuple[ParamField, ...] = (
    ParamField("url", "url", "https://example.com: the site to crawl (required)"),
    ParamField("includePaths", "lines", "one path regex a line, e.g. ^/blog/.*"),
    ParamField("excludePaths", "lines", "one path regex a line, e.g. ^/careers/.*"),
    ParamField("maxDepth", "integer", "levels of links followed from the start URL"),
    ParamField("maxDiscoveryDepth", "integer", "levels of discovery from the start page"),
    ParamField("crawlEntireDomain", "boolean", "follow links to siblings and parents too"),
    ParamField("allowExternalLinks", "boolean", "follow links to other sites"),
    ParamField("allowSubdomains", "boolean", "follow links to subdomains"),
    ParamField("sitemap", "choice", "how the sitemap is used"),
    ParamField("ignoreQueryParameters", "boolean", "same path, other query: one page"),
    ParamField("ignoreRobotsTxt", "boolean", "crawl what robots.txt forbids"),
    ParamField("robotsUserAgent", "string", "user agent robots.txt rules are read for"),
    ParamField("deduplicateSimilarURLs", "boolean", "skip near-identical URLs", default=True),
    ParamField("delay", "number", "seconds between two pages"),
    ParamField("limit", "integer", "most pages crawled"),
)
FIELD_BY_WIRE = {field.wire: field for field in PARAM_FIELDS}


def _number(value: float | None) -> str:
    return f"{value:g}" if value is not None else ""


def type_text(field: ParamField) -> str:
    """The contract's type of a field with the request model's limits: `integer ≥ 1`, `number 0 to 3600`."""
    if field.kind in ("integer", "number"):
        return f"{field.kind} {range_text(CrawlRequest, field.wire)}".rstrip()
    if field.kind == "url":
        return "URL, required"
    if field.kind == "lines":
        return "strings, one a line"
    if field.kind == "choice":
        return " | ".join(SITEMAP_CHOICES)
    return field.kind


# --- widgets ----------------------------------------------------------------------


def compose_field(field: ParamField) -> ComposeResult:
    """The field's row (label and widget) and its error line, empty: `fill` puts values in."""
    with Horizontal(classes="field-row"):
        yield Label(field.label, id=f"{field.dom_id}-label", classes="field-label", markup=False)
        yield _widget(field)
    yield error_line(field.dom_id)


def _widget(field: ParamField) -> Widget:
    if field.kind == "boolean":
        return Checkbox(field.hint, field.default, id=field.dom_id, compact=True)
    if field.kind == "lines":
        return TextArea(
            "", id=field.dom_id, soft_wrap=False, show_line_numbers=False, compact=True, placeholder=field.hint
        )
    if field.kind == "choice":
        options = [(choice, choice) for choice in SITEMAP_CHOICES]
        return Select(options, prompt="not given (service default)", id=field.dom_id, compact=True)
    input_type: Literal["integer", "number", "text"] = (
        "integer" if field.kind == "integer" else "number" if field.kind == "number" else "text"
    )
    return Input(placeholder=field.hint, type=input_type, id=field.dom_id, compact=True)


def fill(screen: Widget, params: CrawlParams) -> None:
    """Put the parameters of a preview into the form; a parameter the answer lacks keeps its value.

    The values are the service's: a field shows them as text (`visible`), as everything else from outside.
    """
    for field in PARAM_FIELDS:
        value = getattr(params, field.python_name, None)
        if value is None:
            continue
        widget = screen.query_one(f"#{field.dom_id}")
        if isinstance(widget, Checkbox):
            widget.value = bool(value)
        elif isinstance(widget, TextArea):
            widget.text = "\n".join(visible(line) for line in value)
        elif isinstance(widget, Select):
            widget.value = value if value in SITEMAP_CHOICES else Select.NULL
        elif isinstance(widget, Input):
            widget.value = _number(value) if isinstance(value, float) else visible(value)


def read(screen: Widget) -> dict[str, Any]:
    """The form's values by wire name, as `CrawlRequest` reads them; an empty field is left out.

    Numbers stay strings, so pydantic both parses them and names the field when
    they do not parse; a checkbox always counts (it has no "not given").
    """
    values: dict[str, Any] = {}
    for field in PARAM_FIELDS:
        widget = screen.query_one(f"#{field.dom_id}")
        if isinstance(widget, Checkbox):
            values[field.wire] = widget.value
        elif isinstance(widget, TextArea):
            lines = [line.strip() for line in widget.text.splitlines() if line.strip()]
            if lines:
                values[field.wire] = lines
        elif isinstance(widget, Select):
            if widget.value is not Select.NULL:
                values[field.wire] = widget.value
        elif isinstance(widget, Input):
            text = widget.value.strip()
            if text:
                values[field.wire] = text
    return values
