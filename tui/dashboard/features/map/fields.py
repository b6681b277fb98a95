"""The fields of the map form: every body field of `POST /v2/map`, read as a `MapRequest`.

`MapFields` lays out url, search, sitemap, the three switches, limit, timeout
and location, and reads them with the request model the client sends, so a
limit quoted under a field is the contract's. Problems go under their field;
what was typed is never cleared. The screen around it
(`tui.dashboard.features.map.explorer`) sends, waits and shows the links.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Select, Static

from tui.contract.limits import (
    LOCATION_COUNTRY_DEFAULT,
    MAP_LIMIT_DEFAULT,
    MAP_LIMIT_MAX,
    MAP_LIMIT_MIN,
    MAP_SEARCH_MAX,
    MAP_TIMEOUT_MIN,
    SITEMAP_CACHE_DAYS,
)
from tui.contract.requests import MapRequest
from tui.contract.validation import validation_details
from tui.dashboard.kit.form_issues import (
    issues_by_field,
    mark_fields,
    problem_text,
    say_problem,
)

SITEMAP_MODES = ("include", "skip", "only")
# (checkbox id, wire name, label, the contract's default): a switch is sent only when it differs.
SWITCHES = (
    ("include-subdomains", "includeSubdomains", "includeSubdomains", True),
    ("ignore-query-parameters", "ignoreQueryParameters", "ignoreQueryParameters", True),
    ("ignore-cache", "ignoreCache", f"ignoreCache (sitemaps are cached {SITEMAP_CACHE_DAYS} days)", False),
)
_FIELD_OF_WIRE = {
    "url": "url",
    "search": "search",
    "sitemap": "sitemap",
    "includeSubdomains": "switches",
    "ignoreQueryParameters": "switches",
    "ignoreCache": "switches",
    "limit": "limit",
    "timeout": "timeout",
    "location": "country",
    "location.country": "country",
    "location.languages": "languages",
}
FIELDS = ("url", "search", "sitemap", "switches", "limit", "timeout", "country", "languages")


def field_of(path: str) -> str | None:
    """The form field showing an issue at wire `path` (`location.languages[0]` -> languages), None for none."""
    base = path.split("[", 1)[0]
    return _FIELD_OF_WIRE.get(base) or _FIELD_OF_WIRE.get(base.split(".", 1)[0])


class MapFields(VerticalScroll):
    """The map form's fields, their error lines, and a line on top for problems of no single field."""

    # Tab goes from field to field; the fields scroll into view as they get focus.
    can_focus = False

    DEFAULT_CSS = """
    MapFields { padding: 0 1; }
    MapFields #form-problem { color: $error; margin-bottom: 1; height: auto; }
    MapFields .field-row { height: auto; }
    MapFields .field-row > Label { width: 20; }
    MapFields .field-row > Input, MapFields .field-row > Select { width: 1fr; }
    MapFields .field-error { color: $error; height: auto; padding-left: 20; }
    MapFields .group { margin-top: 1; }
    MapFields #switches { height: auto; }
    MapFields #switch-boxes { height: auto; width: 1fr; }
    MapFields Checkbox { border: none; padding: 0; width: auto; background: transparent; }
    MapFields .field-hint { color: $text-muted; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        yield from self._input("url", "URL", "https://example.com (the site to map)")
        yield from self._input("search", "search", "optional: orders the links by relevance to these words")
        with Horizontal(classes="field-row group"):
            yield Label("sitemap")
            yield Select([(mode, mode) for mode in SITEMAP_MODES], value="include", allow_blank=False,
                         id="sitemap", compact=True)
        yield Static("", id="sitemap-error", classes="field-error", markup=False)
        with Horizontal(classes="field-row", id="switches"):
            yield Label("options")
            with Vertical(id="switch-boxes"):
                for switch_id, _, label, default in SWITCHES:
                    yield Checkbox(label, default, id=switch_id, compact=True)
        yield Static("", id="switches-error", classes="field-error", markup=False)
        yield from self._input("limit", "limit", f"{MAP_LIMIT_MIN} to {MAP_LIMIT_MAX:,}; default {MAP_LIMIT_DEFAULT:,}",
                               numeric=True, group=True)
        yield from self._input("timeout", "timeout (ms)", f">= {MAP_TIMEOUT_MIN}; none by default", numeric=True)
        yield from self._input("country", "location country",
                               f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}", group=True)
        yield from self._input("languages", "location languages", "comma-separated, e.g. en, fr")
        yield Static("ctrl+s: map · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def _input(self, field_id: str, label: str, hint: str, *, numeric: bool = False,
               group: bool = False) -> ComposeResult:
        with Horizontal(classes="field-row group" if group else "field-row"):
            yield Label(label, id=f"{field_id}-label")
            yield Input(placeholder=hint, type="integer" if numeric else "text", id=field_id, compact=True,
                        select_on_focus=False)
        yield Static("", id=f"{field_id}-error", classes="field-error", markup=False)

    def on_mount(self) -> None:
        for widget_id in (*(f"{field_id}-error" for field_id in FIELDS), "form-problem"):
            self.query_one(f"#{widget_id}").display = False

    # --- reading and checking -------------------------------------------------

    def _text(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value.strip()

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name; a field left empty or at its default is not sent.

        Numbers stay strings so that pydantic parses them and names the field
        when they do not parse.
        """
        values: dict[str, Any] = {"url": self._text("url")}
        # The search is sent as typed (spaces inside matter to the ranking), only trimmed.
        if self._text("search"):
            values["search"] = self._text("search")
        sitemap = self.query_one("#sitemap", Select).value
        if sitemap != "include":
            values["sitemap"] = sitemap
        for switch_id, wire, _, default in SWITCHES:
            ticked = self.query_one(f"#{switch_id}", Checkbox).value
            if ticked != default:
                values[wire] = ticked
        for field_id in ("limit", "timeout"):
            if self._text(field_id):
                values[field_id] = self._text(field_id)
        country = self._text("country")
        languages = [part.strip() for part in self._text("languages").split(",") if part.strip()]
        if country or languages:
            values["location"] = {"country": country or LOCATION_COUNTRY_DEFAULT, "languages": languages or None}
        return values

    def build_request(self) -> MapRequest | None:
        """The request, or None after putting each problem under its field."""
        values = self.wire_values()
        issues: list[dict[str, Any]] = []
        if not values["url"]:
            issues.append({"path": "url", "message": "url: required, an absolute http:// or https:// URL"})
        search = values.get("search", "")
        if len(search) > MAP_SEARCH_MAX:
            # Not in the contract; the service refuses longer searches (see tui.contract.limits).
            issues.append({"path": "search", "message": f"search: at most {MAP_SEARCH_MAX:,} characters "
                                                        f"(this one has {len(search):,})"})
        try:
            request = MapRequest.model_validate(values)
        except ValidationError as exc:
            issues.extend(issue for issue in validation_details(exc) if values["url"] or issue["path"] != "url")
            request = None
        self.show_issues(issues)
        return None if issues else request

    def show_issues(self, issues: list[dict[str, Any]], problem: str = "") -> None:
        """Put each issue under its field (one of no field on top, after `problem`), clearing the others."""
        problems = issues_by_field(issues, field_of)
        mark_fields(self, problems, FIELDS)
        self.show_problem(problem_text(problem, problems))
        first = next((field_id for field_id in FIELDS if field_id in problems), None)
        if first == "switches":
            self.query_one(f"#{SWITCHES[0][0]}").focus()
        elif first is not None:
            self.query_one(f"#{first}").focus()

    def show_problem(self, text: str) -> None:
        """Say `text` above the fields (nothing: hide the line)."""
        say_problem(self, text)
