"""The scrape options as one block of fields, shared by the scrape form and the batch scrape form.

`ScrapeOptionsFields` lays out a tick per format, the switches
(onlyMainContent, lockdown, mobile), the ages and delays, the proxy and the
location, each with its error line, and reads them by wire name
(`wire_values`) for the request model of the form around it. Where their
issues go is declared in `OPTION_SPECS`, which the form's body
(`tui.dashboard.kit.form_body`) adds to its own.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Checkbox, Input, Label, Select

from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, LOCATION_COUNTRY_DEFAULT, MAX_AGE_DEFAULT
from tui.contract.requests import ScrapeOptions
from tui.dashboard.kit.form_body import FieldSpec, error_line, location, range_text

FORMATS = ("markdown", "html", "rawHtml", "links", "images", "screenshot", "summary", "branding",
           "changeTracking", "audio", "highlights")
"""The formats offered as a tick each: every kind the contract lists that needs no options (json needs a schema)."""
PROXIES = ("auto", "basic", "enhanced")

# The option fields in the order of the form; the limits a placeholder quotes are the request model's.
OPTION_SPECS = (
    FieldSpec("formats", ("formats",)),
    FieldSpec("switches", ("onlyMainContent", "lockdown", "mobile")),
    FieldSpec("max-age", ("maxAge",), "maxAge (ms)", f"{range_text(ScrapeOptions, 'maxAge')}; serve a cached "
              f"copy younger; default {MAX_AGE_DEFAULT}", numeric=True, group=True),
    FieldSpec("min-age", ("minAge",), "minAge (ms)", f"{range_text(ScrapeOptions, 'minAge')}; cache only, "
              "never a fresh scrape; 1: any copy", numeric=True),
    FieldSpec("wait-for", ("waitFor",), "waitFor (ms)", f"{range_text(ScrapeOptions, 'waitFor')}; extra delay "
              "before fetching; default 0", numeric=True),
    FieldSpec("timeout", ("timeout",), "timeout (ms)", f"{range_text(ScrapeOptions, 'timeout')}; "
              f"default {BATCH_TIMEOUT_DEFAULT}", numeric=True),
    FieldSpec("proxy", ("proxy",)),
    FieldSpec("country", ("location", "location.country"), "location country",
              f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}", group=True),
    FieldSpec("languages", ("location.languages",), "location languages", "comma-separated, e.g. en, fr"),
)
FOCUS = {"formats": "format-markdown", "switches": "only-main-content"}
"""Where a person fixes a group of ticks: its first tick."""
_NUMBERS = OPTION_SPECS[2:6]


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
        yield error_line("formats")
        with Horizontal(classes="field-row group", id="switches"):
            yield Label("options")
            yield Checkbox("onlyMainContent", True, id="only-main-content", compact=True)
            yield Checkbox("lockdown", False, id="lockdown", compact=True)
            yield Checkbox("mobile", False, id="mobile", compact=True)
        yield error_line("switches")
        for spec in _NUMBERS:
            yield from spec.compose()
        with Horizontal(classes="field-row group"):
            yield Label("proxy")
            yield Select([(mode, mode) for mode in PROXIES], value="auto", allow_blank=False,
                         id="proxy", compact=True)
        yield error_line("proxy")
        yield from OPTION_SPECS[-2].compose()
        yield from OPTION_SPECS[-1].compose()

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
        for spec in _NUMBERS:
            if self._text(spec.field_id):
                values[spec.wires[0]] = self._text(spec.field_id)
        proxy = self.query_one("#proxy", Select).value
        if proxy != "auto":
            values["proxy"] = proxy
        if place := location(self._text("country"), self._text("languages")):
            values["location"] = place
        return values

    def _text(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value.strip()
