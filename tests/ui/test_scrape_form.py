"""The "Scrape a URL" screen (S), end to end on the in-process emulator.

A user opens it from the dashboard, types a URL and options, scrapes, and
reads the page; what they typed survives every refusal; a cache-only miss is
explained in words; the request copies as curl with the key read from $WDS_API_KEY; `i` goes
on to interact with the scrape's browser.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static

from tests.support.dashboard import KEY, PaneHost, SwitchableTransport, client_on, dashboard, wait_until
from tui.api.errors import (
    APIConnectionError,
    AuthenticationError,
    InsufficientCreditsError,
    InternalServerError,
    RateLimitError,
    RequestTimeoutError,
)
from tui.contract.requests import ScrapeRequest
from tui.dashboard.features.scrape.form import ScrapeFormScreen, scrape_words
from tui.dashboard.features.scrape.result import ScrapeResultView
from tui.dashboard.kit.form_issues import refusal as refusal_of
from tui.dashboard.kit.widgets.document_view import DocumentView
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.intents import OpenInteract
from tui.emulator.service import Emulator


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport) -> WdsApp:
    return dashboard(emulator, transport)


async def open_form(pilot: Pilot[Any]) -> ScrapeFormScreen:
    await pilot.pause()
    await pilot.press("S")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ScrapeFormScreen), "the scrape form")
    screen = pilot.app.screen
    assert isinstance(screen, ScrapeFormScreen)
    return screen


def text_of(screen: ScrapeFormScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def scrape(pilot: Pilot[Any], form: ScrapeFormScreen, url: str) -> None:
    form.query_one("#url", Input).value = url
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: form.result is not None or form.query_one("#form-problem").display, "an answer")
    await pilot.pause()


async def test_a_scrape_shows_its_document_with_the_page_status_apart(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await pilot.press(*"https://example.com/blog")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.result is not None, "the scraped page")
        await pilot.pause()

        assert form.showing_answer and form.result is not None and form.result.job_id
        view = form.query_one(ScrapeResultView)
        status = text_of(form, "#scrape-status")
        assert (
            status.startswith("✓ HTTP 200 OK") and "job scraped" in status and f"job {form.result.job_id[:8]}" in status
        )
        assert view.query_one(DocumentView).job is form.result
        assert form.result is not None and form.result.data is not None
        assert "Blog" in (form.result.data.markdown or "")

        await pilot.press("escape")  # back to the form, as it was sent
        assert not form.showing_answer and app.screen is form
        assert form.query_one("#url", Input).value == "https://example.com/blog"
        await pilot.press("escape")
        assert not isinstance(app.screen, ScrapeFormScreen)


async def test_a_value_out_of_its_limits_is_said_under_its_field_and_nothing_typed_is_lost(
    app: WdsApp, transport: SwitchableTransport
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await pilot.press(*"https://example.com/")
        form.query_one("#timeout", Input).value = "500"
        form.query_one("#country", Input).value = "USA"
        form.query_one("#format-links", Checkbox).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()

        assert app.screen is form and not form.showing_answer
        timeout_error = text_of(form, "#timeout-error")
        assert form.query_one("#timeout-error").display and "timeout" in timeout_error and "1000" in timeout_error
        assert form.query_one("#country-error").display and "country" in text_of(form, "#country-error")
        assert not form.query_one("#url-error").display
        assert [form.query_one(f"#{name}", Input).value for name in ("url", "timeout", "country")] == [
            "https://example.com/",
            "500",
            "USA",
        ]
        assert form.query_one("#format-links", Checkbox).value
        assert "/v2/scrape" not in transport.paths, "an invalid form must not be sent"

        form.query_one("#timeout", Input).value = "30000"
        form.query_one("#country", Input).value = "DE"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.result is not None, "the scraped page")
        assert form.sent is not None and form.sent.to_wire()["location"] == {"country": "DE"}
        assert form.sent.timeout == 30000 and form.sent.formats == ["markdown", "links"]


async def test_a_lockdown_miss_is_explained_and_the_form_kept(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#lockdown", Checkbox).value = True
        await scrape(pilot, form, "https://example.com/never-scraped-before")

        assert form.result is None and app.screen is form
        problem = text_of(form, "#form-problem")
        assert "SCRAPE_LOCKDOWN_CACHE_MISS" in problem and "never contacts the site" in problem
        assert "Scrape it once with lockdown off" in problem
        assert form.query_one("#url", Input).value == "https://example.com/never-scraped-before"
        assert form.query_one("#lockdown", Checkbox).value


async def test_copy_as_curl_reads_the_key_from_the_environment_and_shows_the_command(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/blog"
        form.query_one("#mobile", Checkbox).value = True
        await pilot.press("ctrl+y")
        await pilot.pause()

        copied = app.clipboard
        assert copied.startswith("curl -X POST http://emulator.test/v2/scrape")
        assert KEY not in copied and app.client.api_key_hint not in copied
        assert '"Authorization: Bearer $WDS_API_KEY"' in copied
        assert '"mobile":true' in copied and '"url":"https://example.com/blog"' in copied
        assert form.query_one("#curl-panel").display and text_of(form, "#curl-text") == copied


async def test_escape_abandons_a_slow_scrape_and_gives_the_form_back(emulator: Emulator) -> None:
    class Slow(SwitchableTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/v2/scrape":
                await asyncio.sleep(30)
            return await super().handle_async_request(request)

    app = dashboard(emulator, Slow(emulator))
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#url", Input).value = "https://example.com/blog"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert form.sending and "Scraping https://example.com/blog" in text_of(form, "#scrape-progress")
        assert "Esc cancels" in text_of(form, "#scrape-progress")

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is form and not form.sending and form.result is None
        assert "Cancelled" in text_of(form, "#scrape-progress")
        assert form.query_one("#url", Input).value == "https://example.com/blog"


async def test_i_goes_on_to_interact_with_the_scrape(transport: SwitchableTransport) -> None:
    host = PaneHost(lambda: Static("dashboard"))
    async with host.run_test(size=(120, 40)) as pilot:
        form = ScrapeFormScreen(client_on(transport))
        await host.push_screen(form)
        await scrape(pilot, form, "https://example.com/blog")
        assert form.result is not None and form.result.job_id
        await pilot.press("i")
        await pilot.pause()
        [intent] = [intent for intent in host.intents if isinstance(intent, OpenInteract)]
        assert intent.job_id == form.result.job_id


async def test_s_typed_in_a_field_is_text(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await pilot.press("S")
        assert app.screen is form and form.query_one("#url", Input).value == "S"


REQUEST = ScrapeRequest(url="https://example.com/", timeout=2000, wait_for=500)


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (AuthenticationError("Unauthorized", status=401), "API key"),
        (InsufficientCreditsError("Insufficient credits", status=402), "no credits left"),
        (RequestTimeoutError("Scrape timed out.", status=408, code="SCRAPE_TIMEOUT"), "timeout of 2,000 ms"),
        (RateLimitError("Too many", status=429, retry_after=3), "Wait 3 s"),
        (InternalServerError("Boom", status=500, code="UNKNOWN_ERROR", request_id="r1"), "request id r1"),
        (APIConnectionError("connection reset"), "could not be reached"),
    ],
)
def test_each_refusal_has_its_own_words(error: Exception, words: str) -> None:
    refusal = refusal_of(error, scrape_words(REQUEST))  # type: ignore[arg-type]
    assert words in refusal.text and not refusal.issues


async def test_the_palette_finds_the_scrape_form(app: WdsApp) -> None:
    from tests.ui.test_commands import run_hit, search

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        hits = await search(pilot, "scrape a url")
        assert hits.get("App: Scrape a URL") == "key S"
        await run_hit(pilot, "App: Scrape a URL")
        await wait_until(pilot, lambda: isinstance(app.screen, ScrapeFormScreen), "the scrape form")


async def test_the_services_400_lands_under_the_field_it_names(emulator: Emulator) -> None:
    class Refusing(SwitchableTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/v2/scrape":
                issue = {"path": ["location", "country"], "message": "no such country"}
                body = {"success": False, "error": "Invalid request body.", "code": "BAD_REQUEST", "details": [issue]}
                return httpx.Response(400, json=body)
            return await super().handle_async_request(request)

    app = dashboard(emulator, Refusing(emulator))
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#country", Input).value = "ZZ"
        form.query_one("#url", Input).value = "https://example.com/blog"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.query_one("#country-error").display, "the field's error")
        assert text_of(form, "#country-error") == "location.country: no such country"
        assert form.query_one("#country", Input).value == "ZZ" and form.result is None


async def test_a_page_that_answered_404_reads_as_a_failure(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await scrape(pilot, form, "https://example.com/blog/this-post-was-removed")
        assert form.result is not None
        assert text_of(form, "#scrape-status").startswith("✗ HTTP 404 Not Found · job scraped")
