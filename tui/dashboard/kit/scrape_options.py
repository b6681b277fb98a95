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
from textual.widgets import Checkbox, Label

from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, MAX_AGE_DEFAULT
from tui.contract.requests import ScrapeOptions
from tui.dashboard.kit.form_body import LOCATION, FieldSpec, error_line, location, range_text
from tui.dashboard.kit.widgets.tick_box import TickBox

FORMATS = (
    "markdown",
    "html",
    "rawHtml",
    "links",
    "images",
    "screenshot",
    "summary",
    "branding",
    "changeTracking",
    "audio",
    "highlights",
)
"""The formats offered as a tick each: every kind the contract lists that needs no options (json needs a schema)."""
PROXIES = ("auto", "basic", "enhanced")

# The option fields in the order of the form; the limits a placeholder quotes are the request model's.
OPTION_SPECS = (
    FieldSpec("formats", ("formats",)),
    FieldSpec("switches", ("onlyMainContent", "lockdown", "mobile")),
    FieldSpec(
        "max-age",
        ("maxAge",),
        "maxAge (ms)",
        f"{range_text(ScrapeOptions, 'maxAge')}; serve a cached copy younger; default {MAX_AGE_DEFAULT}",
        "integer",
        group=True,
    ),
    FieldSpec(
        "min-age",
        ("minAge",),
        "minAge (ms)",
        f"{range_text(ScrapeOptions, 'minAge')}; cache only, never a fresh scrape; 1: any copy",
        "integer",
    ),
    FieldSpec(
        "wait-for",
        ("waitFor",),
        "waitFor (ms)",
        f"{range_text(ScrapeOptions, 'waitFor')}; extra delay before fetching; default 0",
        "integer",
    ),
    FieldSpec(
        "timeout",
        ("timeout",),
        "timeout (ms)",
        f"{range_text(ScrapeOptions, 'timeout')}; default {BATCH_TIMEOUT_DEFAULT}",
        "integer",
    ),
    FieldSpec("proxy", ("proxy",), "proxy", kind="choice", group=True, default="auto", choices=PROXIES),
    *LOCATION,
)
FOCUS = {"formats": "format-markdown", "switches": "only-main-content"}
"""Where a person fixes a group of ticks: its first tick."""


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
                    yield TickBox(kind, kind == "markdown", id=f"format-{kind}", compact=True)
        yield error_line("formats")
        with Horizontal(classes="field-row group", id="switches"):
            yield Label("options")
            yield TickBox("onlyMainContent", True, id="only-main-content", compact=True)
            yield TickBox("lockdown", False, id="lockdown", compact=True)
            yield TickBox("mobile", False, id="mobile", compact=True)
        yield error_line("switches")
        for spec in OPTION_SPECS[2:]:
            yield from spec.compose()

    def wire_values(self) -> dict[str, Any]:
        """The options the form around reads not itself (`FormBody.wire_values`): formats, switches, location.

        A switch left at its default is not sent.
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
        if place := location(self):
            values["location"] = place
        return values
