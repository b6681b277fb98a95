"""The crawl status screen: its progress label, Enter on a page, and asking support about the crawl."""

from __future__ import annotations

import uuid

import pytest
from textual.geometry import Region
from textual.widgets import Label, Markdown, ProgressBar, Static, TabbedContent
from textual.widgets._progress_bar import PercentageStatus

from tests.support.dashboard import NOW, PaneHost, frozen_clock, seeded_emulator, wait_until
from tui.api.client import WdsClient
from tui.contract.models import CrawlStatus
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.kit.document import DocumentScreen
from tui.dashboard.kit.job_follow import crawl_error
from tui.dashboard.kit.widgets.document_view import DocumentView
from tui.dashboard.kit.widgets.json_tree import JsonTree
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.intents import AskSupport, OpenDocument
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: the crawls on screen are the ones each test starts.
    return seeded_emulator(seed=5, clock=clock, history=False)


def host(client: WdsClient) -> PaneHost:
    """An empty host that opens the screens asked for, as the dashboard does."""
    navigator = Navigator(client, clock=frozen_clock(NOW), crawl_poll_seconds=0.05)
    return PaneHost(lambda: Static(""), navigator=navigator)


def shown_text(widget: PercentageStatus) -> str:
    """What the widget puts on screen, at the size the layout gave it."""
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "".join(segment.text for strip in strips for segment in strip).strip()


async def test_the_percentage_keeps_its_sign_when_the_crawl_reaches_100(client: WdsClient, clock: ManualClock) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=12)
    clock.advance(3)  # part way: a two-digit percentage first
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = CrawlStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the crawl status")
        await pilot.pause()
        label = screen.query_one("#crawl-progress", ProgressBar).query_one(PercentageStatus)
        part = shown_text(label)
        assert part.endswith("%") and part != "100%"

        clock.advance(3600)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        await pilot.pause()
        assert shown_text(label) == "100%"


async def test_enter_on_a_page_opens_its_document_and_escape_comes_back(client: WdsClient, clock: ManualClock) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=6)
    clock.advance(3600)  # finished: every page listed
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = CrawlStatusScreen(client, started.id, url="https://acme-outdoor.com/", clock=frozen_clock(NOW))
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the crawl status")
        await pilot.pause()
        pages = screen.query_one("#crawl-pages", LiveTable)
        pages.focus()
        pages.move_cursor(row=2)
        await pilot.pause()
        assert screen.active_bindings["enter"].binding.description == "Open page"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DocumentScreen), "the document screen")
        opened = app.intents[-1]
        assert isinstance(opened, OpenDocument)
        assert screen.status is not None and opened.document is screen.status.data[2]
        document = app.screen
        assert isinstance(document, DocumentScreen)
        await pilot.pause()
        meta = screen.status.data[2].metadata
        title = str(document.query_one(".document-title", Label).content)
        assert title == f"Crawl {started.id[:8]} · page 3 of {len(screen.status.data)}"
        status_line = document.query_one("#document-status", Static)
        assert str(status_line.content) == f"✓ HTTP {meta.status_code} · {meta.url}"
        view = document.query_one(DocumentView)
        assert view.query(Markdown), "the page's markdown is shown as Markdown"
        await pilot.press("j")  # the JSON the service sent, as a tree
        await pilot.pause()
        assert document.query_one(TabbedContent).active == "json"
        assert document.query_one(JsonTree).has_focus
        await pilot.press("d")
        await pilot.pause()
        assert document.query_one(TabbedContent).active == "document"

        await pilot.press("escape")
        assert app.screen is screen


async def test_a_asks_support_about_the_crawl_with_what_the_screen_knows(client: WdsClient, clock: ManualClock) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=6)
    clock.advance(3600)
    app = PaneHost(lambda: Static(""))  # records intents, opens nothing (the support screen is not built here)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = CrawlStatusScreen(client, started.id, url="https://acme-outdoor.com/", clock=frozen_clock(NOW))
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the crawl status")
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        asked = app.intents[-1]
        assert isinstance(asked, AskSupport)
        assert (asked.job_id, asked.kind, asked.status, asked.target) == (
            started.id,
            "crawl",
            "completed",
            "https://acme-outdoor.com/",
        )
        assert asked.error == crawl_error(screen.status)
        assert screen.active_bindings["a"].binding.description == "Ask support"  # in the footer and the palette


async def test_a_on_a_crawl_the_service_does_not_know_says_so_to_support(client: WdsClient) -> None:
    missing = str(uuid.uuid4())
    app = PaneHost(lambda: Static(""))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = CrawlStatusScreen(client, missing, clock=frozen_clock(NOW))
        await app.push_screen(screen)
        await wait_until(pilot, lambda: bool(screen.query_one("#crawl-error", Static).display), "the error line")
        await pilot.press("a")
        await pilot.pause()
        asked = app.intents[-1]
        assert isinstance(asked, AskSupport) and asked.job_id == missing and asked.status is None
        assert asked.error is not None and asked.error.startswith("Not found: ")


def status_with_pages(*codes: int | None, **extra: object) -> CrawlStatus:
    pages = [{"metadata": {"url": f"https://a.test/{i}", "statusCode": code}} for i, code in enumerate(codes)]
    return CrawlStatus.model_validate(
        {"status": "completed", "completed": len(codes), "total": len(codes), "data": pages, **extra}
    )


def test_crawl_error_counts_the_pages_that_answered_an_error() -> None:
    assert crawl_error(status_with_pages(200, 200, None)) is None
    assert crawl_error(status_with_pages(404, 200, 500, 404)) == "3 of 4 listed pages answered an HTTP error (404, 500)"
    # A service that says more than the contract is quoted.
    assert crawl_error(status_with_pages(404, error="Robots.txt disallows crawling")) == "Robots.txt disallows crawling"
