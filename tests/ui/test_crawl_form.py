"""The "Start a crawl" form (C), driven as a person would, on the in-process emulator.

A preview fills the 15 parameters; a value out of its limits is marked at its
field and nothing typed is lost; ctrl+s starts the crawl on the emulator and
opens its status screen; ctrl+y copies the curl command, its key read from $WDS_API_KEY;
each refusal of the service gets its own message.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import httpx
from textual.screen import Screen
from textual.widgets import Checkbox, Input, Select, Static, TextArea

from tests.support.dashboard import KEY, PaneHost, SwitchableTransport, client_on, dashboard, settle, wait_until
from tui.api.client import WdsClient
from tui.dashboard.features.crawls import params_fields as params
from tui.dashboard.features.crawls.form import CrawlFormScreen
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.shell.app_memory import AppMemory
from tui.dashboard.shell.intents import OpenCrawl, OpenCrawlForm
from tui.dashboard.shell.navigation import Navigator
from tui.dashboard.shell.sightings import CRAWL, STARTED_HERE, JobSighting, JobsSeen
from tui.emulator.service import Emulator

URL = "https://northwind.dev"
PROMPT = "only the blog, up to 50 pages, depth 2"


def text_of(screen: CrawlFormScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def open_form(pilot: Any) -> CrawlFormScreen:
    app = pilot.app
    await settle(pilot)
    await pilot.press("C")
    await wait_until(pilot, lambda: isinstance(app.screen, CrawlFormScreen), "the crawl form")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, CrawlFormScreen)
    return screen


async def preview(pilot: Any, screen: CrawlFormScreen, url: str = URL, prompt: str = PROMPT) -> None:
    screen.query_one("#param-url", Input).value = url
    screen.query_one("#prompt", TextArea).text = prompt
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: not screen.previewing and screen.query_one("#param-limit", Input).value, "preview")


def labels(screen: CrawlFormScreen) -> list[str]:
    return [str(screen.query_one(f"#{field.field_id}-label", Static).render()) for field in params.PARAM_FIELDS]


async def test_C_opens_the_form_with_each_parameter_labelled_with_its_type_and_limits(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        shown = labels(screen)
        assert len(shown) == 15
        assert "limit · integer ≥ 1" in shown
        assert "delay · number 0 to 3600" in shown
        assert "maxDepth · integer ≥ 0" in shown
        assert "sitemap · skip | include | only" in shown
        assert "crawlEntireDomain · boolean" in shown
        assert "includePaths · strings, one a line" in shown
        # Typed into a field, C is a letter, not a second form.
        await pilot.press("C")
        assert screen.query_one("#param-url", Input).value == "C"
        assert app.screen is screen


async def test_the_palette_offers_start_a_crawl(emulator: Emulator) -> None:
    from tui.dashboard.keys.keymap import palette_actions

    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        actions = {action.description: action for action in palette_actions(app.screen)}
        assert "Start a crawl" in actions
        await actions["Start a crawl"].run()
        await wait_until(pilot, lambda: isinstance(app.screen, CrawlFormScreen), "the crawl form")


async def test_a_preview_fills_the_15_parameters(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        await preview(pilot, screen)
        values = screen.fields.wire_values()
        assert set(values) == {field.wires[0] for field in params.PARAM_FIELDS} - {"excludePaths"}  # [] reads as none
        assert values["url"] == URL
        assert values["includePaths"] == ["^/blog(/.*)?$"]
        assert values["maxDepth"] == "2" and values["limit"] == "50"
        assert values["deduplicateSimilarURLs"] is True and values["crawlEntireDomain"] is False
        assert screen.query_one("#param-sitemap", Select).value == "include"
        assert screen.query_one("#param-robotsUserAgent", Input).value == "WdsBot"
        assert "Filled from the preview" in text_of(screen, "#preview-state")


async def test_a_value_out_of_its_limits_is_marked_at_its_field_and_nothing_typed_is_lost(emulator: Emulator) -> None:
    transport = SwitchableTransport(emulator)
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        await preview(pilot, screen)
        screen.query_one("#param-limit", Input).value = "0"
        screen.query_one("#param-delay", Input).value = "5000"
        screen.query_one("#param-allowSubdomains", Checkbox).value = True
        screen.query_one("#webhook", Input).value = "inbox please"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "greater than or equal to 1" in text_of(screen, "#param-limit-error")
        assert "absolute http:// or https:// URL" in text_of(screen, "#webhook-error")
        assert "less than or equal to 3600" in text_of(screen, "#param-delay-error")
        assert screen.query_one("#param-limit", Input).has_class("-invalid")
        assert not screen.query_one("#param-maxDepth-error", Static).display
        assert "/v2/crawl" not in transport.paths  # refused before sending
        assert app.screen is screen
        # Everything typed is still there.
        assert screen.query_one("#param-limit", Input).value == "0"
        assert screen.query_one("#param-allowSubdomains", Checkbox).value is True
        assert screen.query_one("#prompt", TextArea).text == PROMPT
        assert screen.query_one("#param-includePaths", TextArea).text == "^/blog(/.*)?$"


async def test_start_posts_the_crawl_and_opens_its_status_screen(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        await preview(pilot, screen)
        screen.query_one("#param-limit", Input).value = "7"
        before = len((await app.client.crawl.active()).crawls)
        await pilot.press("ctrl+s", "ctrl+s")  # a second press while the first is sent starts nothing more
        await wait_until(pilot, lambda: isinstance(app.screen, CrawlStatusScreen), "the crawl's status screen")
        status = app.screen
        assert isinstance(status, CrawlStatusScreen)
        assert status.url == URL
        active = await app.client.crawl.active()
        assert len(active.crawls) == before + 1
        crawl = next(crawl for crawl in active.crawls if crawl.id == status.crawl_id)  # the emulator has it
        assert crawl.url == URL
        assert crawl.options.limit == 7 and crawl.options.include_paths == ["^/blog(/.*)?$"]
        # Back on the dashboard, the crawls pane lists it.
        await pilot.press("escape")
        await settle(pilot)
        from tui.dashboard.features.crawls.pane import CrawlsPane

        assert app.query_one(CrawlsPane).job_by_id(status.crawl_id) is not None


async def test_a_started_crawl_reaches_the_crawls_pane_through_the_app(emulator: Emulator, monkeypatch: Any) -> None:
    # The form tells the app (JobsSeen), which tells the pane: the form never looks the pane up.
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        from tui.dashboard.features.crawls.pane import CrawlsPane

        pane = app.screen_stack[0].query_one(CrawlsPane)
        asked: list[bool] = []
        monkeypatch.setattr(pane, "fetch_soon", lambda: asked.append(True))
        crawl_id = "5c0ffee0-0000-4000-8000-000000000001"  # an id as the service makes them (others are not taken)
        screen.post_message(JobsSeen((JobSighting(CRAWL, crawl_id, STARTED_HERE, started=True),)))
        await wait_until(pilot, lambda: asked == [True], "the crawls pane told to look again")
        assert app.screen is screen


async def test_ctrl_y_copies_the_request_as_curl_that_reads_the_key_from_the_environment(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        await preview(pilot, screen)
        await pilot.press("ctrl+y")
        await pilot.pause()
        copied = app.clipboard
        assert copied.startswith("curl -X POST http://emulator.test/v2/crawl")
        assert KEY not in copied and "…" + KEY[-4:] not in copied
        assert '"Authorization: Bearer $WDS_API_KEY"' in copied
        body = json.loads(copied.split("-d '", 1)[1].rstrip("'"))
        assert body["url"] == URL and body["limit"] == 50 and body["includePaths"] == ["^/blog(/.*)?$"]
        # Shown too, for SSH where OSC 52 may not reach: the same request, its body one member a line
        # (in the launch form's curl panel under the form, as the scrape, map and batch forms show it).
        shown = text_of(screen, "#curl-text")
        assert KEY not in shown and shown.split("-d '")[0] == copied.split("-d '")[0]
        assert json.loads(shown.split("-d '", 1)[1].rstrip("'")) == body
        assert '\n  "limit": 50' in shown
        assert screen.query_one("#curl-panel").display


async def test_a_400_of_the_service_is_shown_at_its_field(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        screen.query_one("#param-url", Input).value = URL
        screen.query_one("#param-excludePaths", TextArea).text = "^/ok/.*\n/(unclosed"  # no regex: the service says
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.query_one("#param-excludePaths-error", Static).display, "the error")
        assert "excludePaths[1]" in text_of(screen, "#param-excludePaths-error")
        assert "(400)" in text_of(screen, "#form-problem")
        assert app.screen is screen
        assert screen.query_one("#param-excludePaths", TextArea).text == "^/ok/.*\n/(unclosed"


# --- every other refusal, on a service that answers what the test says -----------------


def canned(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> httpx.MockTransport:
    return httpx.MockTransport(lambda request: httpx.Response(status, json=body, headers=headers))


def lost(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


def form_host(client: WdsClient, address: str | None = None) -> PaneHost:
    navigator = Navigator(client, AppMemory(webhooks=SimpleNamespace(address=address)))  # type: ignore[arg-type]
    return PaneHost(lambda: Static("dashboard"), navigator=navigator)


async def refusal_shown(transport: httpx.AsyncBaseTransport, key: str = "ctrl+s") -> str:
    host = form_host(client_on(transport))
    async with host.run_test(size=(120, 40)) as pilot:
        host.post_message(OpenCrawlForm())
        await wait_until(pilot, lambda: isinstance(host.screen, CrawlFormScreen), "the form")
        screen = host.screen
        assert isinstance(screen, CrawlFormScreen)
        screen.query_one("#param-url", Input).value = URL
        screen.query_one("#prompt", TextArea).text = PROMPT
        await pilot.press(key)
        await wait_until(pilot, lambda: screen.query_one("#form-problem", Static).display, "the refusal")
        assert screen.query_one("#param-url", Input).value == URL and host.screen is screen
        return text_of(screen, "#form-problem")


async def test_each_refusal_of_the_service_has_its_own_message() -> None:
    unauthorised = await refusal_shown(canned(401, {"success": False, "error": "Unauthorized"}))
    assert "refused the API key (401)" in unauthorised
    limited = await refusal_shown(
        canned(429, {"success": False, "error": "Rate limit exceeded"}, {"Retry-After": "12"})
    )
    assert "too many requests (429)" in limited and "12 s" in limited
    failing = await refusal_shown(canned(503, {"success": False, "error": "Service unavailable."}))
    assert failing.startswith("Start: the service failed (503") and "may not have started" in failing
    gone = await refusal_shown(httpx.MockTransport(lost))
    assert "connection lost" in gone and "http://emulator.test" in gone
    preview_refused = await refusal_shown(canned(500, {"success": False, "error": "LLM down"}), key="ctrl+r")
    assert preview_refused.startswith("Preview: the service failed (500")


async def test_esc_cancels_a_preview_under_way_and_keeps_the_form() -> None:
    asked = asyncio.Event()

    async def never(request: httpx.Request) -> httpx.Response:
        asked.set()
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    class Hanging(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            return await never(request)

    host = form_host(client_on(Hanging()))
    async with host.run_test(size=(120, 40)) as pilot:
        host.post_message(OpenCrawlForm())
        await wait_until(pilot, lambda: isinstance(host.screen, CrawlFormScreen), "the form")
        screen = host.screen
        assert isinstance(screen, CrawlFormScreen)
        screen.query_one("#param-url", Input).value = URL
        screen.query_one("#prompt", TextArea).text = PROMPT
        await pilot.press("ctrl+r")
        await wait_until(pilot, asked.is_set, "the preview request")
        assert "esc cancels" in text_of(screen, "#preview-state")
        await pilot.press("escape")
        await pilot.pause()
        assert host.screen is screen and not screen.previewing
        assert "cancelled" in text_of(screen, "#preview-state")
        assert screen.query_one("#prompt", TextArea).text == PROMPT
        await pilot.press("escape")  # nothing under way now: esc closes
        await pilot.pause()
        assert host.screen is not screen


async def test_the_webhook_field_offers_the_inbox_address_when_it_listens(emulator: Emulator) -> None:
    address = "http://127.0.0.1:8099/"
    host = form_host(client_on(SwitchableTransport(emulator)), address)
    async with host.run_test(size=(120, 40)) as pilot:
        host.post_message(OpenCrawlForm())
        await wait_until(pilot, lambda: isinstance(host.screen, CrawlFormScreen), "the form")
        screen = host.screen
        assert screen.query_one("#webhook", Input).value == address
        screen.query_one("#param-url", Input).value = URL
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: any(isinstance(i, OpenCrawl) for i in host.intents), "the start")
        crawl_id = next(i for i in host.intents if isinstance(i, OpenCrawl)).crawl_id
        assert crawl_id
    host = form_host(client_on(SwitchableTransport(emulator)), None)
    async with host.run_test(size=(120, 40)) as pilot:
        host.post_message(OpenCrawlForm())
        await wait_until(pilot, lambda: isinstance(host.screen, CrawlFormScreen), "the form")
        assert host.screen.query_one("#webhook", Input).value == ""
        assert "w starts the inbox" in text_of(host.screen, "#webhook-hint")


async def test_a_form_closed_unsent_opens_again_as_it_was_and_a_started_one_afresh(emulator: Emulator) -> None:
    app = dashboard(emulator)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_form(pilot)
        await preview(pilot, screen)
        screen.query_one("#param-limit", Input).value = "9"
        screen.query_one("#param-allowSubdomains", Checkbox).value = True
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, CrawlFormScreen), "the form closed")
        screen = await open_form(pilot)
        assert screen.query_one("#param-limit", Input).value == "9"
        assert screen.query_one("#param-allowSubdomains", Checkbox).value is True
        assert screen.query_one("#prompt", TextArea).text == PROMPT
        assert screen.query_one("#param-sitemap", Select).value == "include"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, CrawlStatusScreen), "the crawl's status screen")
        await pilot.press("escape")
        screen = await open_form(pilot)
        assert screen.query_one("#param-limit", Input).value == ""
        assert screen.query_one("#prompt", TextArea).text == ""


async def test_a_webhook_field_emptied_on_purpose_stays_empty(emulator: Emulator) -> None:
    host = form_host(client_on(SwitchableTransport(emulator)), "http://127.0.0.1:8099/")
    async with host.run_test(size=(120, 40)) as pilot:
        host.post_message(OpenCrawlForm())
        await wait_until(pilot, lambda: isinstance(host.screen, CrawlFormScreen), "the form")
        screen = host.screen
        screen.query_one("#webhook", Input).value = ""
        await host.push_screen(Screen())  # another screen over the form (the help, say), then back
        await pilot.pause()
        await host.pop_screen()
        await pilot.pause()
        assert host.screen is screen and screen.query_one("#webhook", Input).value == ""
        await pilot.press("escape")  # close unsent, open again
        await pilot.pause()
        host.post_message(OpenCrawlForm())
        await wait_until(pilot, lambda: isinstance(host.screen, CrawlFormScreen), "the form again")
        assert host.screen.query_one("#webhook", Input).value == ""
        assert "is listening here" in text_of(host.screen, "#webhook-hint")
