"""The fields of the scrape form: what is typed, read as a `ScrapeRequest` and checked against the contract.

`ScrapeFields` lays the options out (the URL, a tick per format, the main
options) and reads them with the request model the client sends, so a limit
quoted under a field is the contract's. Problems go under their field; what
was typed is never cleared. The screen around it (`tui.screens.scrape_form`)
sends, waits, and shows the page.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Select, Static

from tui.api.limits import (
    BATCH_TIMEOUT_DEFAULT,
    BATCH_TIMEOUT_MAX,
    BATCH_TIMEOUT_MIN,
    LOCATION_COUNTRY_DEFAULT,
    MAX_AGE_DEFAULT,
    MAX_AGE_MIN,
    MIN_AGE_MIN,
    WAIT_FOR_MIN,
)
from tui.api.requests import ScrapeRequest
from tui.api.validation import validation_details

FORMATS = ("markdown", "html", "rawHtml", "links", "images", "screenshot", "summary", "branding",
           "changeTracking", "audio", "highlights")
"""The formats offered as a tick each: every kind the contract lists that needs no options (json needs a schema)."""
PROXIES = ("auto", "basic", "enhanced")

# Fields whose values are typed, in the order of the form: (id, wire name, label, placeholder).
_NUMBERS = (
    ("max-age", "maxAge", "maxAge (ms)", f"≥ {MAX_AGE_MIN}; serve a cached copy younger; default {MAX_AGE_DEFAULT}"),
    ("min-age", "minAge", "minAge (ms)", f"≥ {MIN_AGE_MIN}; cache only, never a fresh scrape; 1: any copy"),
    ("wait-for", "waitFor", "waitFor (ms)", f"≥ {WAIT_FOR_MIN}; extra delay before fetching; default 0"),
    ("timeout", "timeout", "timeout (ms)", f"{BATCH_TIMEOUT_MIN} to {BATCH_TIMEOUT_MAX}; default {BATCH_TIMEOUT_DEFAULT}"),
)
# The field (by id) whose error line shows an issue of a wire path (its first segment, or all of it).
_FIELD_OF_PATH = {
    "url": "url",
    "formats": "formats",
    "maxAge": "max-age",
    "minAge": "min-age",
    "waitFor": "wait-for",
    "timeout": "timeout",
    "proxy": "proxy",
    "location.country": "country",
    "location.languages": "languages",
    "location": "country",
    "onlyMainContent": "switches",
    "lockdown": "switches",
    "mobile": "switches",
}
_FIELDS = ("url", "formats", "switches", "max-age", "min-age", "wait-for", "timeout", "proxy", "country", "languages")


def field_of(path: str) -> str | None:
    """The form field showing an issue at wire `path` (`formats[1]` -> formats), None for none."""
    base = path.split("[", 1)[0]
    return _FIELD_OF_PATH.get(base) or _FIELD_OF_PATH.get(base.split(".", 1)[0])


class ScrapeFields(VerticalScroll):
    """The form's fields, their error lines, and a line on top for problems of no single field."""

    DEFAULT_CSS = """
    ScrapeFields { padding: 0 1; }
    ScrapeFields #form-problem { color: $error; margin-bottom: 1; height: auto; }
    ScrapeFields .field-row { height: auto; }
    ScrapeFields .field-row > Label { width: 20; }
    ScrapeFields .field-row > Input, ScrapeFields .field-row > Select { width: 1fr; }
    ScrapeFields .field-error { color: $error; height: auto; padding-left: 20; }
    ScrapeFields .group { margin-top: 1; }
    ScrapeFields #formats { grid-size: 3; grid-gutter: 0 1; height: auto; width: 1fr; }
    ScrapeFields Checkbox { border: none; padding: 0; width: auto; background: transparent; }
    ScrapeFields #switches Checkbox { margin-right: 3; }
    ScrapeFields .field-hint { color: $text-muted; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        yield from self._input("url", "URL", "https://example.com/page")
        with Horizontal(classes="field-row group"):
            yield Label("formats")
            with Grid(id="formats"):
                for kind in FORMATS:
                    yield Checkbox(kind, kind == "markdown", id=f"format-{kind}", compact=True)
        yield Static("", id="formats-error", classes="field-error", markup=False)
        with Horizontal(classes="field-row group", id="switches"):
            yield Label("options")
            yield Checkbox("onlyMainContent", True, id="only-main-content", compact=True)
            yield Checkbox("lockdown", False, id="lockdown", compact=True)
            yield Checkbox("mobile", False, id="mobile", compact=True)
        yield Static("", id="switches-error", classes="field-error", markup=False)
        for index, (field_id, _, label, hint) in enumerate(_NUMBERS):
            yield from self._input(field_id, label, hint, numeric=True, group=index == 0)
        with Horizontal(classes="field-row group"):
            yield Label("proxy")
            yield Select([(mode, mode) for mode in PROXIES], value="auto", allow_blank=False,
                         id="proxy", compact=True)
        yield Static("", id="proxy-error", classes="field-error", markup=False)
        yield from self._input("country", "location country", f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}",
                               group=True)
        yield from self._input("languages", "location languages", "comma-separated, e.g. en, fr")
        yield Static("ctrl+s: scrape · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def _input(self, field_id: str, label: str, hint: str, *, numeric: bool = False,
               group: bool = False) -> ComposeResult:
        with Horizontal(classes="field-row group" if group else "field-row"):
            yield Label(label, id=f"{field_id}-label")
            # select_on_focus off: coming back to the form, the first key typed must not replace the URL.
            yield Input(placeholder=hint, type="integer" if numeric else "text", id=field_id, compact=True,
                        select_on_focus=False)
        yield Static("", id=f"{field_id}-error", classes="field-error", markup=False)

    # --- reading and checking -------------------------------------------------

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name, as the request model reads it.

        Numbers stay strings so that pydantic parses them and names the field
        when they do not parse; an empty field means "not given" (the service's
        default applies); a switch or proxy left at its default is not sent.
        """
        values: dict[str, Any] = {"url": self._text("url")}
        formats = [kind for kind in FORMATS if self.query_one(f"#format-{kind}", Checkbox).value]
        if formats:
            values["formats"] = formats
        if not self.query_one("#only-main-content", Checkbox).value:
            values["onlyMainContent"] = False
        for switch in ("lockdown", "mobile"):
            if self.query_one(f"#{switch}", Checkbox).value:
                values[switch] = True
        for field_id, wire, _, _ in _NUMBERS:
            if self._text(field_id):
                values[wire] = self._text(field_id)
        proxy = self.query_one("#proxy", Select).value
        if proxy != "auto":
            values["proxy"] = proxy
        country = self._text("country")
        languages = [part.strip() for part in self._text("languages").split(",") if part.strip()]
        if country or languages:
            values["location"] = {"country": country or LOCATION_COUNTRY_DEFAULT, "languages": languages or None}
        return values

    def _text(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value.strip()

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
        problems: dict[str, list[str]] = {}
        for issue in issues:
            field_id = field_of(str(issue.get("path", ""))) or "form-problem"
            problems.setdefault(field_id, []).append(str(issue.get("message", "")))
        for field_id in _FIELDS:
            messages = problems.get(field_id, [])
            line = self.query_one(f"#{field_id}-error", Static)
            line.update("\n".join(messages))
            line.display = bool(messages)
            self.query_one(f"#{field_id}").set_class(bool(messages), "-invalid")
        self.show_problem("\n".join(filter(None, [problem, *problems.get("form-problem", [])])))
        first = next((field_id for field_id in _FIELDS if field_id in problems), None)
        if first == "formats":
            self.query_one("#format-markdown").focus()
        elif first == "switches":
            self.query_one("#only-main-content").focus()
        elif first is not None:
            self.query_one(f"#{first}").focus()

    def show_problem(self, text: str) -> None:
        """Say `text` above the fields (nothing: hide the line)."""
        problem = self.query_one("#form-problem", Static)
        problem.update(text)
        problem.display = bool(text)
        if text:
            self.scroll_home(animate=False)

    def on_mount(self) -> None:
        for widget_id in (*(f"{field_id}-error" for field_id in _FIELDS), "form-problem"):
            self.query_one(f"#{widget_id}").display = False
