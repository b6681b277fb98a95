"""The scrape options as one block of fields, shared by the scrape form and the batch scrape form.

`ScrapeOptionsFields` lays out a tick per format, the switches
(onlyMainContent, lockdown, mobile), the ages and delays, the proxy and the
location, each with its error line, and reads them by wire name
(`wire_values`) for the request model of the form around it. The form
decides which field shows which issue (`option_field_of`) and calls
`show_errors` with the messages per field; what was typed is never cleared.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Checkbox, Input, Label, Select, Static

from tui.contract.limits import (
    BATCH_TIMEOUT_DEFAULT,
    BATCH_TIMEOUT_MAX,
    BATCH_TIMEOUT_MIN,
    LOCATION_COUNTRY_DEFAULT,
    MAX_AGE_DEFAULT,
    MAX_AGE_MIN,
    MIN_AGE_MIN,
    WAIT_FOR_MIN,
)
from tui.dashboard.kit.outside_text import shown

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
OPTION_FIELDS = ("formats", "switches", "max-age", "min-age", "wait-for", "timeout", "proxy", "country", "languages")
"""The ids of the option fields that have an error line, in the order of the form."""


def option_field_of(path: str) -> str | None:
    """The option field showing an issue at wire `path` (`formats[1]` -> formats), None for no option."""
    base = path.split("[", 1)[0]
    return _FIELD_OF_PATH.get(base) or _FIELD_OF_PATH.get(base.split(".", 1)[0])


def labelled_input(field_id: str, label: str, hint: str, *, numeric: bool = False,
                   group: bool = False) -> ComposeResult:
    """A labelled one-line field and its (hidden until needed) error line."""
    with Horizontal(classes="field-row group" if group else "field-row"):
        yield Label(label, id=f"{field_id}-label")
        # select_on_focus off: coming back to the form, the first key typed must not replace the value.
        yield Input(placeholder=hint, type="integer" if numeric else "text", id=field_id, compact=True,
                    select_on_focus=False)
    yield Static("", id=f"{field_id}-error", classes="field-error", markup=False)


class ScrapeOptionsFields(Vertical):
    """The scrape options' fields and their error lines (styled by the form that holds them)."""

    DEFAULT_CSS = """
    ScrapeOptionsFields { height: auto; }
    ScrapeOptionsFields #formats { grid-size: 3; grid-gutter: 0 1; height: auto; width: 1fr; }
    ScrapeOptionsFields Checkbox { border: none; padding: 0; width: auto; background: transparent; }
    ScrapeOptionsFields #switches Checkbox { margin-right: 3; }
    """

    def compose(self) -> ComposeResult:
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
            yield from labelled_input(field_id, label, hint, numeric=True, group=index == 0)
        with Horizontal(classes="field-row group"):
            yield Label("proxy")
            yield Select([(mode, mode) for mode in PROXIES], value="auto", allow_blank=False,
                         id="proxy", compact=True)
        yield Static("", id="proxy-error", classes="field-error", markup=False)
        yield from labelled_input("country", "location country",
                                  f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}", group=True)
        yield from labelled_input("languages", "location languages", "comma-separated, e.g. en, fr")

    def on_mount(self) -> None:
        for field_id in OPTION_FIELDS:
            self.query_one(f"#{field_id}-error").display = False

    def wire_values(self) -> dict[str, Any]:
        """The options as typed, keyed by wire name, as a request model reads them.

        Numbers stay strings so that pydantic parses them and names the field
        when they do not parse; an empty field means "not given" (the service's
        default applies); a switch or proxy left at its default is not sent.
        """
        values: dict[str, Any] = {}
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

    def show_errors(self, problems: dict[str, list[str]]) -> None:
        """Show each option field's messages under it (by field id); clear the others."""
        for field_id in OPTION_FIELDS:
            messages = problems.get(field_id, [])
            line = self.query_one(f"#{field_id}-error", Static)
            line.update(shown("\n".join(messages), lines=True))  # the service's 400 may say these
            line.display = bool(messages)
            self.query_one(f"#{field_id}").set_class(bool(messages), "-invalid")

    def focus_field(self, field_id: str) -> None:
        """Focus the widget a person edits to fix `field_id` (the first tick of a group of ticks)."""
        if field_id == "formats":
            self.query_one("#format-markdown").focus()
        elif field_id == "switches":
            self.query_one("#only-main-content").focus()
        else:
            self.query_one(f"#{field_id}").focus()
