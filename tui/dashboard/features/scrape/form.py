"""Scrape one URL now (`POST /v2/scrape`): a form checked against the contract, then the page it got.

The launch form (`tui.dashboard.kit.launch_form`) does the rest. A refusal is
worded by `tui.dashboard.kit.error_words` with what only a scrape can add
(`scrape_words`): the cache-only misses are explained at length, as a 404 on a
page that exists reads like a bug until one knows that `lockdown` and `minAge`
never contact the site. The page opens in place (`tui.dashboard.features.scrape.result`):
Esc returns to the form to change an option and send again, and `i` goes on to
interact with the scrape's browser.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from tui.api.client import WdsClient
from tui.api.errors import (
    APITimeoutError,
    InsufficientCreditsError,
    InternalServerError,
    InvalidResponseError,
    LockdownCacheMissError,
    NoCachedDataError,
    RequestTimeoutError,
    WdsError,
)
from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, BATCH_TIMEOUT_MAX
from tui.contract.models.scrape import ScrapeResult
from tui.contract.requests import ScrapeRequest
from tui.dashboard.features.scrape.fields import ScrapeFields
from tui.dashboard.features.scrape.result import ScrapeResultView
from tui.dashboard.kit.error_words import Say, Words, request_id_text, sentence, status_code
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
    CANCELLED = (
        "Cancelled: the answer will not be shown (the service may still finish the scrape "
        "and bill it). The form is as you left it; ctrl+s sends again."
    )
    BODY = ScrapeFields
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

    async def call(self, request: ScrapeRequest) -> ScrapeResult:
        return await self.client.scrape.create(request=request)

    def words(self, request: ScrapeRequest) -> dict[type[WdsError], Say]:
        return scrape_words(request)

    def progress(self, request: ScrapeRequest, elapsed: int) -> str:
        timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
        wait = f" + waitFor {request.wait_for / 1000:g} s" if request.wait_for else ""
        return f"Scraping {request.url} … {elapsed} s (its timeout is {timeout / 1000:g} s{wait}) · Esc cancels"

    async def answered(self, answer: ScrapeResult, request: ScrapeRequest) -> None:
        self.result = answer
        await self.show_answer(
            ScrapeResultView(answer, id="scrape-result-view"),
            request,
            f"Scrape a URL · {request.url}",
            "#scrape-document-scroll",
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_tab":
            return self.showing_answer
        if action == "interact":
            return self.showing_answer and bool(self.result and self.result.job_id)
        return super().check_action(action, parameters)

    def action_show_tab(self, tab: str) -> None:
        self.query_one(ScrapeResultView).show_tab(tab)

    @mutates("interacting with a scrape's browser")
    def action_interact(self) -> None:
        """Go on to the scrape's browser, from the page state it left (the app opens the console)."""
        if self.result is not None and self.result.job_id:
            self.post_message(OpenInteract(self.result.job_id))


def scrape_words(request: ScrapeRequest) -> dict[type[WdsError], Say]:
    """The scrape form's own words, for a refusal of `request`."""
    timeout = request.timeout or BATCH_TIMEOUT_DEFAULT
    wait = f" plus waitFor {request.wait_for:,} ms" if request.wait_for else ""
    return {
        LockdownCacheMissError: lambda e: Words(
            "Lockdown: not in the cache",
            f"No cached copy of {request.url} exists for your team (404 SCRAPE_LOCKDOWN_CACHE_MISS). "
            "Lockdown only serves pages from the cache and never contacts the site, so a page that "
            "was never scraped (or whose copy is older than maxAge) cannot be served. Scrape it once "
            "with lockdown off to cache it, then lockdown finds it. A miss is billed 1 credit.",
        ),
        NoCachedDataError: lambda e: Words(
            "No cached data",
            f"No cached copy of {request.url} at least {request.min_age or 1:,} ms old exists for your team "
            "(404 SCRAPE_NO_CACHED_DATA). minAge asks for the cache only and never triggers a fresh "
            "scrape. Lower minAge (1 accepts any cached copy), or clear it to let the service fetch the page.",
        ),
        RequestTimeoutError: lambda e: Words(
            "The page took too long",
            f"The service gave up after the scrape's timeout of {timeout:,} ms{wait} ({status_code(e)}): "
            f"{sentence(e.message)} Raise timeout (at most {BATCH_TIMEOUT_MAX:,} ms) or lower waitFor.",
        ),
        APITimeoutError: lambda e: Words(
            "No answer in time",
            f"The service sent no answer within the scrape's timeout and a margin: {sentence(e.message)} "
            "The scrape may still have run on the service. Send again with ctrl+s.",
        ),
        InsufficientCreditsError: lambda e: Words(
            "No credits left",
            f"The team has no credits left for this scrape ({status_code(e)}: {e.message}). Options "
            "such as proxy enhanced (up to 5 credits) or lockdown (5 on a hit) cost more than a basic scrape.",
        ),
        InternalServerError: lambda e: Words(
            "The service failed",
            f"The service failed on its side ({status_code(e)}: {e.message}){request_id_text(e)}. "
            "Nothing in the form is wrong; send again later, or ask support quoting the request id.",
        ),
        InvalidResponseError: lambda e: Words(
            "Unreadable answer",
            f"The service answered HTTP {e.status} with something that is not a scrape result: {e.message}",
        ),
    }
