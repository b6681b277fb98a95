"""The batch status screen: followed to the end, paged, failed rows, documents opened, errors kept in place."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from textual.widgets import Label, ProgressBar, Static

from tests.support.dashboard import NOW, PaneHost, SwitchableTransport, frozen_clock, seeded_emulator, wait_until
from tui.api.client import WdsClient
from tui.dashboard.features.batch.status import BatchStatusScreen, url_rows
from tui.dashboard.features.batch.whole_status import next_page
from tui.dashboard.kit.document import DocumentScreen
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.intents import AskSupport, OpenDocument
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

URLS = [f"https://bigbox-supply.com/{path}" for path in ("", "about", "contact", "blog", "products")]


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: the batches on screen are the ones each test starts.
    return seeded_emulator(seed=5, clock=clock, history=False)


def host(client: WdsClient) -> PaneHost:
    """An empty host that opens the screens asked for, as the dashboard does."""
    navigator = Navigator(client, clock=frozen_clock(NOW), crawl_poll_seconds=0.05)
    return PaneHost(lambda: Static(""), navigator=navigator)


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Label | Static).render())  # type: ignore[arg-type]


def rows(screen: BatchStatusScreen) -> list[list[str]]:
    """The rows of the table, whole (on screen a long URL or error is cut to fit)."""
    table = screen.query_one("#batch-urls", LiveTable)
    assert screen.status is not None and table.row_count == len(screen.status.data)
    return [[str(cell) for cell in cells] for _, cells in url_rows(screen.status)]  # a URL cell is a link (a Text)


async def test_a_batch_is_followed_to_the_end_and_a_document_opens(client: WdsClient, clock: ManualClock) -> None:
    started = await client.batch.create(URLS)
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the first look")
        assert screen.status is not None and screen.status.status == "scraping"

        clock.advance(3600)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        assert text_of(screen, "#batch-state") == "completed"
        assert text_of(screen, "#batch-counts") == "5 / 5 done"
        bar = screen.query_one("#batch-progress", ProgressBar)
        assert bar.display and bar.progress == bar.total == 5
        assert [row[2] for row in rows(screen)] == URLS
        assert all(row[0] == "200" and row[1] == "scraped" for row in rows(screen))

        table = screen.query_one("#batch-urls", LiveTable)
        table.focus()
        table.move_cursor(row=1)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DocumentScreen), "the document")
        opened = app.intents[-1]
        assert isinstance(opened, OpenDocument) and opened.document is screen.status.data[1]
        assert "URL 2 of 5" in opened.title
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen, "back on the batch")


async def test_the_rows_of_every_page_are_shown(
    client: WdsClient, transport: SwitchableTransport, clock: ManualClock
) -> None:
    started = await client.batch.create(URLS)
    clock.advance(3600)
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05, page_size=2)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the batch")
        await pilot.pause()
        assert [row[2] for row in rows(screen)] == URLS  # 2 + 2 + 1
        assert screen.pages == 3 and text_of(screen, "#batch-counts") == "5 / 5 done · 3 pages"
        assert transport.paths.count(f"/v2/batch/scrape/{started.id}") == 3


async def test_a_batch_bigger_than_the_services_page_is_followed_page_by_page(
    client: WdsClient, transport: SwitchableTransport, clock: ManualClock
) -> None:
    urls = [f"https://bigbox-supply.com/?n={n}" for n in range(130)]  # the emulator's pages hold 100
    started = await client.batch.create(urls)
    clock.advance(24 * 3600 - 60)
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the batch")
        await pilot.pause()
        assert [row[2] for row in rows(screen)] == urls and screen.pages == 2


def test_a_next_link_gives_the_page_it_points_to() -> None:
    assert next_page("http://x/v2/batch/scrape/1?skip=100&limit=100", 0, 100) == (100, 100)
    assert next_page("http://x/v2/batch/scrape/1", 0, 100) == (100, None)  # no query: the page after


async def test_a_lockdown_batch_shows_its_cache_misses_as_failed_rows(client: WdsClient, clock: ManualClock) -> None:
    await client.scrape.create("https://bigbox-supply.com/about")  # cached: lockdown finds this one
    started = await client.batch.create(URLS[:3], lockdown=True)
    clock.advance(3600)
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the batch")
        await pilot.pause()
        shown = {row[2]: row for row in rows(screen)}
        assert shown[URLS[1]][:2] == ["200", "scraped"]
        for url in (URLS[0], URLS[2]):
            code, result, _, error = shown[url]
            assert (code, result) == ("404", "failed") and error.startswith("SCRAPE_LOCKDOWN_CACHE_MISS")
        assert text_of(screen, "#batch-counts") == "3 / 3 done · 2 failed"
        table = screen.query_one("#batch-urls", LiveTable)
        shown_results = [str(table.get_row_at(index)[1]) for index in range(table.row_count)]
        assert sorted(shown_results) == ["failed", "failed", "scraped"]

        await pilot.press("a")
        await pilot.pause()
        asked = [intent for intent in app.intents if isinstance(intent, AskSupport)][-1]
        assert asked.job_id == started.id and asked.kind == "batch_scrape" and asked.status == "completed"
        assert asked.error is not None and "404" in asked.error


async def test_a_failed_look_keeps_what_was_shown(
    client: WdsClient, transport: SwitchableTransport, clock: ManualClock
) -> None:
    started = await client.batch.create(URLS)
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the first look")
        before = rows(screen)
        transport.failing = True
        await wait_until(pilot, lambda: screen.query_one("#batch-error").display, "the stale mark")
        assert "stale since" in text_of(screen, "#batch-error") and "Service unavailable" in text_of(
            screen, "#batch-error"
        )
        assert rows(screen) == before and text_of(screen, "#batch-state") == "scraping"

        transport.failing = False
        clock.advance(3600)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        assert not screen.query_one("#batch-error").display


async def test_a_batch_the_service_does_not_know_is_said_and_polling_stops(
    client: WdsClient, transport: SwitchableTransport
) -> None:
    app = host(client)
    unknown = str(uuid.uuid4())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, unknown, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.query_one("#batch-error").display, "the error")
        assert "was not found" in text_of(screen, "#batch-error")
        assert text_of(screen, "#batch-state") == "unknown"
        asked_before = transport.paths.count(f"/v2/batch/scrape/{unknown}")
        await pilot.pause(0.15)  # three poll intervals: a poll still going would have been sent
        assert transport.paths.count(f"/v2/batch/scrape/{unknown}") == asked_before  # no more polling


async def test_an_expired_batch_keeps_its_rows(client: WdsClient, clock: ManualClock) -> None:
    started = await client.batch.create(URLS[:2])
    app = host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        clock.advance(3600)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        clock.advance(25 * 3600)  # past the 24 hours a batch is kept
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.query_one("#batch-error").display, "the error")
        assert "expired" in text_of(screen, "#batch-error").lower()
        assert len(rows(screen)) == 2 and text_of(screen, "#batch-state") == "completed"
