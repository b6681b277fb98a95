"""The crawl parameters of the contract as form fields: one labelled widget each, read back as the wire body.

The 15 parameters of the contract's "Crawl parameters" table (the answer of
`POST /v2/crawl/params-preview`, and the options of `POST /v2/crawl`). Each
label says the wire name, the type and the limits, and the limits are read
from `CrawlRequest` itself, the model the client and the emulator validate
with, so the label cannot promise other bounds than the check applies.
Booleans are checkboxes, `sitemap` a choice, the path lists one regex a line.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, TextArea

from tui.contract.models.crawl import CrawlParams
from tui.contract.requests import CrawlRequest
from tui.dashboard.kit.form_body import FieldSpec, Kind, range_text
from tui.dashboard.kit.outside_text import visible

SITEMAP_CHOICES = ("skip", "include", "only")
_TYPES = {"lines": "strings, one a line", "choice": " | ".join(SITEMAP_CHOICES)}


def param(wire: str, kind: Kind, hint: str, type_words: str = "", default: bool | None = None) -> FieldSpec:
    """The field of one parameter, labelled `limit · integer ≥ 1`: wire name, type, the request model's limits.

    `hint` says what it does, in a few words (the empty field's placeholder, a tick's words);
    `default` is a tick's: the service's default, what an untouched box sends.
    """
    words = type_words or _TYPES.get(kind) or f"{kind} {range_text(CrawlRequest, wire)}".rstrip()
    return FieldSpec(
        f"param-{wire}",
        (wire,),
        f"{wire} · {words}",
        hint,
        kind,
        default=default,
        choices=SITEMAP_CHOICES if kind == "choice" else (),
    )


# In the order of the contract's table.
PARAM_FIELDS: tuple[FieldSpec, ...] = (
    param("url", "text", "https://example.com: the site to crawl (required)", "URL, required"),
    param("includePaths", "lines", "one path regex a line, e.g. ^/blog/.*"),
    param("excludePaths", "lines", "one path regex a line, e.g. ^/careers/.*"),
    param("maxDepth", "integer", "levels of links followed from the start URL"),
    param("maxDiscoveryDepth", "integer", "levels of discovery from the start page"),
    param("crawlEntireDomain", "boolean", "follow links to siblings and parents too", default=False),
    param("allowExternalLinks", "boolean", "follow links to other sites", default=False),
    param("allowSubdomains", "boolean", "follow links to subdomains", default=False),
    param("sitemap", "choice", "how the sitemap is used"),
    param("ignoreQueryParameters", "boolean", "same path, other query: one page", default=False),
    param("ignoreRobotsTxt", "boolean", "crawl what robots.txt forbids", default=False),
    param("robotsUserAgent", "text", "user agent robots.txt rules are read for", "string"),
    param("deduplicateSimilarURLs", "boolean", "skip near-identical URLs", default=True),
    param("delay", "number", "seconds between two pages"),
    param("limit", "integer", "most pages crawled"),
)


def fill(form: Widget, params: CrawlParams) -> None:
    """Put the parameters of a preview into the form; a parameter the answer lacks keeps its value.

    The values are the service's: a field shows them as text (`visible`), as everything else from outside.
    """
    wire = params.model_dump(by_alias=True)
    for field in PARAM_FIELDS:
        value = wire.get(field.wires[0])
        if value is None:
            continue
        widget = form.query_one(f"#{field.field_id}")
        if isinstance(widget, Checkbox):
            widget.value = bool(value)
        elif isinstance(widget, TextArea):
            widget.text = "\n".join(visible(line) for line in value)
        elif isinstance(widget, Select):
            widget.value = value if value in SITEMAP_CHOICES else Select.NULL
        elif isinstance(widget, Input):
            widget.value = f"{value:g}" if isinstance(value, float) else visible(value)
