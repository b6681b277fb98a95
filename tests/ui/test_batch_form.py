"""The batch scrape form (B), end to end on the in-process emulator.

A user opens it empty or with the map explorer's selection, pastes URLs,
sets options, and starts the batch; what they typed survives every refusal
(ours before sending, the service's 400 and 5xx, a timeout, a lost
connection, an unreadable answer); the request copies as curl with every
URL and the key read from $WDS_API_KEY; a started batch opens its status screen with the
URLs refused as invalid listed.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static, TextArea

from tests.support.dashboard import (
    KEY,
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    dashboard,
    frozen_clock,
    wait_until,
)
from tui.api.errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    InternalServerError,
    InvalidResponseError,
    RateLimitError,
)
from tui.dashboard.features.batch.form import BATCH_WORDS, BatchFormScreen
from tui.dashboard.features.batch.status import BatchStatusScreen
from tui.dashboard.kit.form_body import INBOX_HINT
from tui.dashboard.kit.form_issues import refusal as refusal_of
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.app_memory import AppMemory
from tui.dashboard.shell.intents import OpenBatch, OpenBatchForm
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.service import Emulator

URLS = ["https://bigbox-supply.com/", "https://bigbox-supply.com/about", "https://example.com/blog"]


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport) -> WdsApp:
    return dashboard(emulator, transport)


async def open_form(pilot: Pilot[Any]) -> BatchFormScreen:
    await pilot.pause()
    await pilot.press("B")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, BatchFormScreen), "the batch form")
    form = pilot.app.screen
    assert isinstance(form, BatchFormScreen)
    return form


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def host(transport: httpx.AsyncBaseTransport, webhooks: Any = None) -> PaneHost:
    """An empty host that opens the screens asked for, as the dashboard does."""
    navigator = Navigator(client_on(transport), AppMemory(webhooks), clock=frozen_clock(NOW), crawl_poll_seconds=0.05)
    return PaneHost(lambda: Static(""), navigator=navigator)


async def test_urls_given_by_the_map_explorer_are_filled_in_and_counted(transport: SwitchableTransport) -> None:
    app = host(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenBatchForm(urls=tuple(URLS)))
        await wait_until(pilot, lambda: isinstance(app.screen, BatchFormScreen), "the batch form")
        form = app.screen
        assert isinstance(form, BatchFormScreen)
        await pilot.pause()
        assert form.query_one("#urls", TextArea).text == "\n".join(URLS)
        assert text_of(form, "#urls-count") == "3 URLs"
        await pilot.press("enter", *"not a url")
        await pilot.pause()
        assert text_of(form, "#urls-count") == "4 URLs, 1 not an http(s) URL"

        await pilot.press("escape")  # from inside the URL list too
        await wait_until(pilot, lambda: not isinstance(app.screen, BatchFormScreen), "the form closed")


async def test_a_limit_is_refused_before_sending_and_nothing_typed_is_lost(
    app: WdsApp, transport: SwitchableTransport
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await pilot.press(*URLS[0])
        form.query_one("#timeout", Input).value = "500"
        form.query_one("#max-concurrency", Input).value = "0"
        form.query_one("#webhook", Input).value = "ftp://hooks.example"
        await pilot.press("ctrl+s")
        await pilot.pause()

        assert "/v2/batch/scrape" not in transport.paths
        assert app.screen is form
        assert "greater than or equal to 1000" in text_of(form, "#timeout-error")
        assert "greater than or equal to 1" in text_of(form, "#max-concurrency-error")
        assert "http:// or https://" in text_of(form, "#webhook-error")
        assert form.query_one("#urls", TextArea).text == URLS[0]
        assert form.query_one("#timeout", Input).value == "500"


async def test_no_urls_and_invalid_urls_without_ignore_are_refused_before_sending(
    app: WdsApp, transport: SwitchableTransport
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "at least one URL" in text_of(form, "#urls-error")

        form.query_one("#urls", TextArea).text = "https://example.com/\nnot-a-url"
        form.query_one("#ignore-invalid", Checkbox).value = False
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "not-a-url" in text_of(form, "#urls-error") and "ignoreInvalidURLs" in text_of(form, "#urls-error")
        assert "/v2/batch/scrape" not in transport.paths


async def test_a_server_error_keeps_the_form_as_typed(app: WdsApp, transport: SwitchableTransport) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#urls", TextArea).text = "\n".join(URLS)
        form.query_one("#lockdown", Checkbox).value = True
        transport.failing = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.query_one("#form-problem").display, "the refusal")

        assert app.screen is form and not form.sending
        assert "503" in text_of(form, "#form-problem")
        assert form.query_one("#urls", TextArea).text == "\n".join(URLS)
        assert form.query_one("#lockdown", Checkbox).value

        transport.failing = False  # the service is back: the same form sends
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch's status")


async def test_invalid_urls_are_carried_to_the_status_screen(transport: SwitchableTransport) -> None:
    app = host(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenBatchForm(urls=(URLS[0], "not a url", "ftp://files.example/x")))
        await wait_until(pilot, lambda: isinstance(app.screen, BatchFormScreen), "the batch form")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch's status")
        [opened] = [intent for intent in app.intents if isinstance(intent, OpenBatch)]
        assert opened.invalid_urls == ("not a url", "ftp://files.example/x")
        status = app.screen
        assert isinstance(status, BatchStatusScreen)
        await wait_until(pilot, lambda: status.status is not None, "the first look")
        invalid = text_of(status, "#batch-invalid")
        assert invalid.startswith("1 accepted · 2 URLs refused as invalid, not scraped")
        assert "not a url" in invalid and "ftp://files.example/x" in invalid


async def test_copy_as_curl_has_every_url_and_no_key(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#urls", TextArea).text = "\n".join(URLS)
        form.query_one("#max-concurrency", Input).value = "2"
        await pilot.press("ctrl+y")
        await pilot.pause()

        copied = app.clipboard
        assert copied.startswith("curl -X POST http://emulator.test/v2/batch/scrape")
        assert KEY not in copied and app.client.api_key_hint not in copied
        assert '"Authorization: Bearer $WDS_API_KEY"' in copied
        body = json.loads(copied.split("-d ", 1)[1].strip("'"))
        assert body["urls"] == URLS and body["maxConcurrency"] == 2
        shown = text_of(form, "#curl-text")  # the same command, its body indented
        assert form.query_one("#curl-panel").display and f'    "{URLS[1]}",' in shown
        assert json.loads(shown.split("-d ", 1)[1].strip("'")) == body


async def test_escape_abandons_a_slow_start_and_keeps_the_form(emulator: Emulator) -> None:
    class Slow(SwitchableTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/v2/batch/scrape":
                await asyncio.sleep(30)
            return await super().handle_async_request(request)

    app = dashboard(emulator, Slow(emulator))
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#urls", TextArea).text = URLS[0]
        await pilot.press("ctrl+s")
        await pilot.pause()
        progress = text_of(form, "#batch-progress")
        assert form.sending and "Starting a batch of 1 URL" in progress and "Esc cancels" in progress

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is form and not form.sending
        assert "Cancelled" in text_of(form, "#batch-progress")
        assert form.query_one("#urls", TextArea).text == URLS[0]


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (httpx.ConnectError("connection refused"), "could not be reached"),
        (httpx.ReadTimeout("read timed out"), "no answer in time"),
        (httpx.Response(200, text="<html>gateway</html>", headers={"content-type": "text/html"}), "not a batch id"),
        (
            httpx.Response(
                400,
                json={
                    "success": False,
                    "error": "Bad",
                    "code": "BAD_REQUEST",
                    "details": [{"path": ["urls", 0], "message": "Invalid URL"}],
                },
            ),
            "urls[0]",
        ),
    ],
    ids=["connection", "timeout", "unreadable", "400"],
)
async def test_every_failure_keeps_the_form_with_its_own_words(emulator: Emulator, answer: Any, words: str) -> None:
    class Failing(SwitchableTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/v2/batch/scrape":
                if isinstance(answer, Exception):
                    raise answer
                return answer
            return await super().handle_async_request(request)

    app = dashboard(emulator, Failing(emulator))
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#urls", TextArea).text = "\n".join(URLS)
        await pilot.press("ctrl+s")
        await wait_until(
            pilot,
            lambda: (
                not form.sending and (form.query_one("#form-problem").display or form.query_one("#urls-error").display)
            ),
            "the refusal",
        )
        shown = text_of(form, "#form-problem") + text_of(form, "#urls-error")
        assert words in shown.lower() if words.islower() else words in shown
        assert app.screen is form and form.query_one("#urls", TextArea).text == "\n".join(URLS)


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (AuthenticationError("Unauthorized", status=401), "API key"),
        (RateLimitError("Too many", status=429, retry_after=3), "Wait 3 s"),
        (InternalServerError("Boom", status=500, code="UNKNOWN_ERROR", request_id="r1"), "request id r1"),
        (APIConnectionError("connection reset"), "activity pane"),
        (APITimeoutError("timed out"), "may have started"),
        (InvalidResponseError("not JSON", status=200, content_type="text/html", excerpt="<html>"), "not a batch id"),
    ],
)
def test_each_refusal_has_its_own_words(error: Exception, words: str) -> None:
    refusal = refusal_of(error, BATCH_WORDS)  # type: ignore[arg-type]
    assert words in refusal.text and not refusal.issues


class Inbox:
    """A stand-in for the webhook inbox: only its address is read."""

    address: str | None = "http://127.0.0.1:8765/webhook"


async def test_the_webhook_offers_the_inbox_address_when_it_listens(transport: SwitchableTransport) -> None:
    app = host(transport, webhooks=Inbox())
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenBatchForm(urls=(URLS[0],)))
        await wait_until(pilot, lambda: isinstance(app.screen, BatchFormScreen), "the batch form")
        form = app.screen
        await pilot.pause()
        assert form.query_one("#webhook", Input).value == Inbox.address
        assert text_of(form, "#webhook-hint") == INBOX_HINT
        assert form.fields.wire_values()["webhook"] == {"url": Inbox.address}


async def test_the_palette_finds_the_batch_form(app: WdsApp) -> None:
    from tests.ui.test_commands import run_hit, search

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        hits = await search(pilot, "batch scrape")
        assert hits.get("App: Batch scrape") == "key B"
        await run_hit(pilot, "App: Batch scrape")
        await wait_until(pilot, lambda: isinstance(app.screen, BatchFormScreen), "the batch form")
