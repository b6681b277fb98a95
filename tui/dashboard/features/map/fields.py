"""The fields of the map form: every body field of `POST /v2/map`, read as a `MapRequest`.

The screen around it (`tui.dashboard.features.map.explorer`) sends, waits and shows the links.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Label, Static

from tui.contract.limits import MAP_LIMIT_DEFAULT, MAP_SEARCH_MAX, SITEMAP_CACHE_DAYS
from tui.contract.requests import MapRequest
from tui.dashboard.kit.form_body import (
    LOCATION,
    URL_REQUIRED,
    FieldSpec,
    FormBody,
    bounds,
    error_line,
    location,
    range_text,
)
from tui.dashboard.kit.widgets.tick_box import TickBox

SITEMAP_MODES = ("include", "skip", "only")
# (checkbox id, wire name, label, the contract's default): a switch is sent only when it differs.
SWITCHES = (
    ("include-subdomains", "includeSubdomains", "includeSubdomains", True),
    ("ignore-query-parameters", "ignoreQueryParameters", "ignoreQueryParameters", True),
    ("ignore-cache", "ignoreCache", f"ignoreCache (sitemaps are cached {SITEMAP_CACHE_DAYS} days)", False),
)
URL = FieldSpec("url", ("url",), "URL", "https://example.com (the site to map)")
SEARCH = FieldSpec("search", ("search",), "search", "optional: orders the links by relevance to these words")
SITEMAP = FieldSpec(
    "sitemap", ("sitemap",), "sitemap", kind="choice", group=True, default="include", choices=SITEMAP_MODES
)
LIMIT = FieldSpec(
    "limit",
    ("limit",),
    "limit",
    f"{range_text(MapRequest, 'limit', '{:,}'.format)}; default {MAP_LIMIT_DEFAULT:,}",
    "integer",
    group=True,
)
TIMEOUT = FieldSpec(
    "timeout", ("timeout",), "timeout (ms)", f">= {bounds(MapRequest, 'timeout')[0]}; none by default", "integer"
)


class MapFields(FormBody):
    """The map form's fields, their error lines, and a line on top for problems of no single field."""

    MODEL = MapRequest
    SPECS = (
        URL,
        SEARCH,
        SITEMAP,
        FieldSpec("switches", tuple(wire for _, wire, _, _ in SWITCHES)),
        LIMIT,
        TIMEOUT,
        *LOCATION,
    )
    FOCUS = {"switches": SWITCHES[0][0]}

    # Tab goes from field to field; the fields scroll into view as they get focus.
    can_focus = False

    DEFAULT_CSS = """
    MapFields #switches { height: auto; }
    MapFields #switch-boxes { height: auto; width: 1fr; }
    MapFields Checkbox { border: none; padding: 0; width: auto; background: transparent; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        for spec in (URL, SEARCH, SITEMAP):
            yield from spec.compose()
        with Horizontal(classes="field-row", id="switches"):
            yield Label("options")
            with Vertical(id="switch-boxes"):
                for switch_id, _, label, default in SWITCHES:
                    yield TickBox(label, default, id=switch_id, compact=True)
        yield error_line("switches")
        for spec in (LIMIT, TIMEOUT, *LOCATION):
            yield from spec.compose()
        yield Static("ctrl+s: map · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def wire_values(self) -> dict[str, Any]:
        # The search is sent as typed (spaces inside matter to the ranking), only trimmed.
        values: dict[str, Any] = super().wire_values()
        for switch_id, wire, _, default in SWITCHES:
            ticked = self.query_one(f"#{switch_id}", Checkbox).value
            if ticked != default:
                values[wire] = ticked
        if place := location(self):
            values["location"] = place
        return values

    def checks(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        issues = [] if values.get("url") else [URL_REQUIRED]
        search = values.get("search", "")
        if len(search) > MAP_SEARCH_MAX:
            # Not in the contract; the service refuses longer searches (see tui.contract.limits).
            issues.append(
                {
                    "path": "search",
                    "message": f"search: at most {MAP_SEARCH_MAX:,} characters (this one has {len(search):,})",
                }
            )
        return issues
