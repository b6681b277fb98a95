"""Scrape one URL now (`POST /v2/scrape`): a form checked against the contract, then the page it got.

The launch form (`tui.dashboard.kit.launch_form`) sends, counts the seconds, lets
Esc abandon the request and copies it as curl; a refusal is worded by
`tui.dashboard.features.scrape.refusals`. The page opens in place
(`tui.dashboard.features.scrape.result`): Esc returns to the form to change an option
and send again, and `i` goes on to interact with the scrape's browser.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.limits import BATCH_TIMEOUT_DEFAULT
from tui.contract.models.scrape import ScrapeResult
from tui.contract.requests import ScrapeRequest
from tui.dashboard.features.scrape.fields import ScrapeFields
from tui.dashboard.features.scrape.refusals import explain
from tui.dashboard.features.scrape.result import ScrapeResultView
from tui.dashboard.kit.error_words import Words
from tui.dashboard.kit.launch_form import LaunchFormScreen, launch_bindings
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.shell.intents import OpenInteract


class ScrapeFormScreen(LaunchFormScreen):
    """The scrape form and, once a page came back, its result; Esc steps back one level."""

    NAME = "scrape"
    GROUP = "scrape"
    HEADING = "Scrape a URL · POST /v2/scrape"
    PATH = "/v2/scrape"
    NOTHING_DONE = "Nothing was scraped; the form says why and keeps what you typed."
    CANCELLED = ("Cancelled: the answer will not be shown (the service may still finish the scrape "
                 "and bill it). The form is as you left it; ctrl+s sends again.")
    ANSWER = "scrape-result"  # the result view scrolls its own document
    CANCEL_ACTION = "cancel_scrape"

    BINDINGS: ClassVar[list[BindingType]] = [
        *launch_bindings("scrape_form", "Scrape", "Cancel the scrape", CANCEL_ACTION),
        Binding("i", "interact", "Interact", id="scrape_form.interact"),
        Binding("d", "show_tab('document')", "Document", id="scrape_form.show_tab.document"),
        Binding("j", "show_tab('json')", "JSON", id="scrape_form.show_tab.json"),
    ]

    def __init__(self, client: WdsClient) -> None:
        super().__init__(client)
        self.result: ScrapeResult | None = None

    def make_fields(self) -> ScrapeFields:
        return ScrapeFields(id="scrape-form")

    async def call(self, request: ScrapeRequest) -> ScrapeResult:
        return await self.client.scrape.create(request=request)

    def refusal(self, error: WdsError, request: ScrapeRequest) -> Words:
        return explain(error, request)

    def progress(self, request: ScrapeRequest, elapsed: int) -> str:
        timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
        wait = f" + waitFor {request.wait_for / 1000:g} s" if request.wait_for else ""
        return f"Scraping {request.url} … {elapsed} s (its timeout is {timeout / 1000:g} s{wait}) · Esc cancels"

    async def answered(self, answer: ScrapeResult, request: ScrapeRequest) -> None:
        self.result = answer
        await self.show_answer(ScrapeResultView(answer, id="scrape-result-view"), request,
                               f"Scrape a URL · {request.url}", "#scrape-document-scroll")

    @property
    def showing_result(self) -> bool:
        """Whether the page that came back is on screen (rather than the form)."""
        return self.showing_answer

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_tab":
            return self.showing_answer
        if action == "interact":
            return self.showing_answer and bool(self.result and self.result.job_id)
        return super().check_action(action, parameters)

    def action_cancel_scrape(self) -> None:
        self.action_cancel_send()

    def action_show_tab(self, tab: str) -> None:
        self.query_one(ScrapeResultView).show_tab(tab)

    @mutates("interacting with a scrape's browser")
    def action_interact(self) -> None:
        """Go on to the scrape's browser, from the page state it left (the app opens the console)."""
        if self.result is not None and self.result.job_id:
            self.post_message(OpenInteract(self.result.job_id))
