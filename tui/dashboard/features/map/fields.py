"""The fields of the map form: every body field of `POST /v2/map`, read as a `MapRequest`.

The screen around it (`tui.dashboard.features.map.explorer`) sends, waits and shows the links.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Label, Select, Static

from tui.contract.limits import LOCATION_COUNTRY_DEFAULT, MAP_LIMIT_DEFAULT, MAP_SEARCH_MAX, SITEMAP_CACHE_DAYS
from tui.contract.requests import MapRequest
from tui.dashboard.kit.form_body import FieldSpec, FormBody, bounds, error_line, location, range_text

SITEMAP_MODES = ("include", "skip", "only")
# (checkbox id, wire name, label, the contract's default): a switch is sent only when it differs.
SWITCHES = (
    ("include-subdomains", "includeSubdomains", "includeSubdomains", True),
    ("ignore-query-parameters", "ignoreQueryParameters", "ignoreQueryParameters", True),
    ("ignore-cache", "ignoreCache", f"ignoreCache (sitemaps are cached {SITEMAP_CACHE_DAYS} days)", False),
)
URL = FieldSpec("url", ("url",), "URL", "https://example.com (the site to map)")
SEARCH = FieldSpec("search", ("search",), "search", "optional: orders the links by relevance to these words")
LIMIT = FieldSpec("limit", ("limit",), "limit", f"{range_text(MapRequest, 'limit', '{:,}'.format)}; "
                  f"default {MAP_LIMIT_DEFAULT:,}", numeric=True, group=True)
TIMEOUT = FieldSpec("timeout", ("timeout",), "timeout (ms)", f">= {bounds(MapRequest, 'timeout')[0]}; none by default",
                    numeric=True)
COUNTRY = FieldSpec("country", ("location", "location.country"), "location country",
                    f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}", group=True)
LANGUAGES = FieldSpec("languages", ("location.languages",), "location languages", "comma-separated, e.g. en, fr")
URL_REQUIRED = {"path": "url", "message": "url: required, an absolute http:// or https:// URL"}


class MapFields(FormBody):
    """The map form's fields, their error lines, and a line on top for problems of no single field."""

    MODEL = MapRequest
    SPECS = (URL, SEARCH, FieldSpec("sitemap", ("sitemap",)),
             FieldSpec("switches", tuple(wire for _, wire, _, _ in SWITCHES)), LIMIT, TIMEOUT, COUNTRY, LANGUAGES)
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
        yield from URL.compose()
        yield from SEARCH.compose()
        with Horizontal(classes="field-row group"):
            yield Label("sitemap")
            yield Select([(mode, mode) for mode in SITEMAP_MODES], value="include", allow_blank=False,
                         id="sitemap", compact=True)
        yield error_line("sitemap")
        with Horizontal(classes="field-row", id="switches"):
            yield Label("options")
            with Vertical(id="switch-boxes"):
                for switch_id, _, label, default in SWITCHES:
                    yield Checkbox(label, default, id=switch_id, compact=True)
        yield error_line("switches")
        for spec in (LIMIT, TIMEOUT, COUNTRY, LANGUAGES):
            yield from spec.compose()
        yield Static("ctrl+s: map · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name; a field left empty or at its default is not sent.

        Numbers stay strings so that pydantic parses them and names the field when they do not parse.
        """
        values: dict[str, Any] = {"url": self.text("url")}
        # The search is sent as typed (spaces inside matter to the ranking), only trimmed.
        if self.text("search"):
            values["search"] = self.text("search")
        sitemap = self.query_one("#sitemap", Select).value
        if sitemap != "include":
            values["sitemap"] = sitemap
        for switch_id, wire, _, default in SWITCHES:
            ticked = self.query_one(f"#{switch_id}", Checkbox).value
            if ticked != default:
                values[wire] = ticked
        for field_id in ("limit", "timeout"):
            if self.text(field_id):
                values[field_id] = self.text(field_id)
        if place := location(self.text("country"), self.text("languages")):
            values["location"] = place
        return values

    def checks(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        issues = [] if values["url"] else [URL_REQUIRED]
        search = values.get("search", "")
        if len(search) > MAP_SEARCH_MAX:
            # Not in the contract; the service refuses longer searches (see tui.contract.limits).
            issues.append({"path": "search", "message": f"search: at most {MAP_SEARCH_MAX:,} characters "
                                                        f"(this one has {len(search):,})"})
        return issues
