"""The fields of the scrape form: the URL, then the scrape options shared with the batch form, as a `ScrapeRequest`.

The screen around it (`tui.dashboard.features.scrape.form`) sends, waits, and shows the page.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from tui.contract.requests import ScrapeRequest
from tui.dashboard.kit.form_body import URL_REQUIRED, FieldSpec, FormBody
from tui.dashboard.kit.scrape_options import FOCUS, OPTION_SPECS, ScrapeOptionsFields

URL = FieldSpec("url", ("url",), "URL", "https://example.com/page")


class ScrapeFields(FormBody):
    """The scrape form's fields, their error lines, and a line on top for problems of no single field."""

    MODEL = ScrapeRequest
    SPECS = (URL, *OPTION_SPECS)
    FOCUS = FOCUS

    def compose(self) -> ComposeResult:
        yield Static("", id="form-problem", markup=False)
        yield from URL.compose()
        yield ScrapeOptionsFields(id="scrape-options")
        yield Static("ctrl+s: scrape · ctrl+y: copy as curl · Esc: close", classes="field-hint")

    def wire_values(self) -> dict[str, Any]:
        return {**super().wire_values(), **self.query_one(ScrapeOptionsFields).wire_values()}

    def checks(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        return [] if values.get("url") else [URL_REQUIRED]
