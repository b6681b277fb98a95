"""The team activity pane on a seeded emulator: cursor paging, filter, opening entries, failures."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from tests.support.dashboard import KEY, LOCAL_NOW, NOW, PaneHost, SwitchableTransport, frozen_clock, wait_until
from tui.api.client import WdsClient
from tui.contract.models import ActivityEntry
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.activity.pane import ActivityPane, ActivityTable, entry_row, keyed_entries
from tui.dashboard.kit.pane import PaneStatus
from tui.dashboard.kit.widgets.document_view import DocumentView
from tui.dashboard.shell.intents import OpenInteract
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator

# The emulator is the standard picture (tests/ui/conftest.py): seed 11, with seeded history.


class ActivityHost(PaneHost):
    """The activity pane alone, opening what it asks for as the dashboard does, noting interact requests."""

    def __init__(self, client: WdsClient) -> None:
        # A long interval: the tests trigger refreshes themselves.
        super().__init__(
            lambda: ActivityPane(client, interval=3600, clock=frozen_clock(NOW), id="activity"),
            navigator=Navigator(client, clock=frozen_clock(NOW)),
        )

    @property
    def interact_requests(self) -> list[str]:
        return [intent.job_id for intent in self.intents if isinstance(intent, OpenInteract)]


async def settled(pilot: Pilot[None], pane: ActivityPane) -> list[str]:
    """Wait for the page the pane is on to be shown; return its entry ids in order."""
    await wait_until(pilot, lambda: pane._is_current(pane.data), f"page {pane.page_number}")
    await pilot.pause()
    assert pane.data is not None
    return [entry.id for entry in pane.data.page.entries]


def shown_entries(pane: ActivityPane) -> list[ActivityEntry]:
    table = pane.query_one(ActivityTable)
    return [pane._entries[str(key)] for key in table.row_keys]


def page_label(pane: ActivityPane) -> str:
    return str(pane.border_subtitle)


async def test_three_pages_forward_and_back_show_the_same_entries(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-size", Select).value = 10
        pages = [await settled(pilot, pane)]
        assert len(pages[0]) == 10
        assert pane.check_action("previous_page", ()) is None  # page 1: nothing before it
        pane.focus_first()
        for number in (2, 3, 4):
            await pilot.press("n")
            pages.append(await settled(pilot, pane))
            assert pane.page_number == number
        assert page_label(pane).startswith("page 4")
        assert len({entry for page in pages for entry in page}) == 40, "pages overlap"
        assert pane.data is not None
        times = [entry.created_at for entry in pane.data.page.entries]
        assert times == sorted(times, reverse=True)  # newest first

        for number in (3, 2, 1):
            await pilot.press("b")
            assert await settled(pilot, pane) == pages[number - 1]
            assert [entry.id for entry in shown_entries(pane)] == pages[number - 1]
        assert pane.page_number == 1
        await pilot.press("b")  # greyed out on page 1: nothing happens
        assert pane.page_number == 1


async def test_refresh_stays_on_the_current_page(client: WdsClient, emulator: Emulator) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await settled(pilot, pane)
        pane.focus_first()
        await pilot.press("n")
        second = await settled(pilot, pane)
        # New calls arrive meanwhile; the refresh re-reads page 2's cursor, it does not jump to page 1.
        team = next(iter(emulator.teams.values()))
        emulator.record_call(Caller(team, KEY), "map", "https://example.org/")
        pane.refresh_data()
        await wait_until(pilot, lambda: not pane.fetching, "the refresh")
        assert await settled(pilot, pane) == second
        assert pane.page_number == 2


async def test_filter_lists_only_that_endpoint_and_returns_to_page_1(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        everything = await settled(pilot, pane)
        pane.focus_first()
        await pilot.press("n")
        await settled(pilot, pane)
        assert pane.page_number == 2

        await pilot.press("f")
        assert app.focused is pane.query_one("#activity-endpoint", Select)
        pane.query_one("#activity-endpoint", Select).value = "crawl"
        crawls = await settled(pilot, pane)
        assert pane.page_number == 1
        entries = shown_entries(pane)
        assert entries and all(entry.endpoint == "crawl" for entry in entries)
        assert crawls != everything[: len(crawls)]

        pane.query_one("#activity-endpoint", Select).value = "all"
        assert await settled(pilot, pane) == everything


async def test_page_size_changes_rows_and_returns_to_page_1(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        assert len(await settled(pilot, pane)) == 25
        pane.focus_first()
        await pilot.press("n")
        await settled(pilot, pane)
        pane.query_one("#activity-size", Select).value = 50
        assert len(await settled(pilot, pane)) == 50
        assert pane.page_number == 1
        assert len(pane.query_one(ActivityTable).row_keys) == 50


def test_rows_keep_apart_two_entries_of_one_job() -> None:
    at = NOW.isoformat()
    scrape = ActivityEntry.model_validate({"id": "j1", "endpoint": "scrape", "created_at": at, "target": "https://a/"})
    again = ActivityEntry.model_validate({"id": "j1", "endpoint": "scrape", "created_at": at, "target": "https://a/"})
    interact = ActivityEntry.model_validate({"id": "j1", "endpoint": "interact", "created_at": at})
    keys = [key for key, _ in keyed_entries([scrape, again, interact])]
    assert len(set(keys)) == 3
    assert entry_row(interact)[1:3] == ("interact", "j1")


def test_page_size_outside_the_contract_is_refused(client: WdsClient) -> None:
    with pytest.raises(ValueError, match="1 to 100"):
        ActivityPane(client, page_size=101)


async def select_entry(pilot: Pilot[None], pane: ActivityPane, endpoint: str) -> ActivityEntry:
    """Put the table cursor on the first shown entry of this kind (paging forward as needed)."""
    pane.query_one("#activity-endpoint", Select).value = endpoint
    await settled(pilot, pane)
    table = pane.query_one(ActivityTable)
    table.focus()
    assert table.row_count, f"no {endpoint} entry in the seeded history"
    table.move_cursor(row=0)
    await pilot.pause()
    entry = pane.selected_entry()
    assert entry is not None and entry.endpoint == endpoint
    return entry


async def test_enter_on_a_scrape_opens_its_document(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        entry = await select_entry(pilot, pane, "scrape")
        expected = await client.scrape.get(entry.id)
        assert expected.data is not None and expected.data.metadata.title

        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, JobDetailScreen), "the job screen")
        screen = app.screen
        await wait_until(pilot, lambda: bool(screen.query(DocumentView)), "the document")
        values = [str(label.content) for label in screen.query(".field-value")]
        assert expected.data.metadata.title in values
        assert (expected.data.metadata.url or expected.data.metadata.source_url) in values
        await pilot.press("escape")
        assert app.screen is not screen


async def test_enter_on_a_map_entry_says_there_is_no_retrieval(
    client: WdsClient, transport: SwitchableTransport
) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await select_entry(pilot, pane, "map")
        transport.paths.clear()
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.screen.query("#job-notice")), "the job screen")
        notice = str(app.screen.query_one("#job-notice").content)
        assert "map calls have no retrieval endpoint in the contract" in notice
        await pilot.pause(0.05)  # a request sent on opening would have reached the transport by now
        assert transport.paths == []  # nothing was asked of the service


async def test_interact_is_offered_for_scrape_entries_only(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await select_entry(pilot, pane, "map")
        assert pane.check_action("interact", ()) is None
        await pilot.press("i")
        assert app.interact_requests == []

        entry = await select_entry(pilot, pane, "scrape")
        assert pane.check_action("interact", ()) is True
        await pilot.press("i")
        await pilot.pause()
        assert app.interact_requests == [entry.id]


async def test_interact_from_the_scrape_document(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        entry = await select_entry(pilot, pane, "scrape")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, JobDetailScreen), "the job screen")
        await pilot.press("i")
        await wait_until(pilot, lambda: app.interact_requests == [entry.id], "the interact request")
        assert not isinstance(app.screen, JobDetailScreen)


async def test_a_refused_cursor_goes_back_to_page_1(client: WdsClient) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        first = await settled(pilot, pane)
        pane._go_to([None, "bm90LWEtY3Vyc29y"])  # a cursor the service never issued
        await wait_until(pilot, lambda: pane.page_number == 1 and pane._is_current(pane.data), "page 1")
        assert await settled(pilot, pane) == first
        assert any("back to page 1" in n.message for n in app._notifications)
        assert pane.stale_since is None


async def test_a_failed_fetch_keeps_the_rows_and_marks_them_stale(
    client: WdsClient, transport: SwitchableTransport
) -> None:
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        before = await settled(pilot, pane)
        transport.failing = True
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.stale_since is not None, "the stale mark")
        await pilot.pause()
        assert [entry.id for entry in shown_entries(pane)] == before
        status = str(pane.query_one(PaneStatus).content)
        assert f"stale since {LOCAL_NOW}" in status  # the last good fetch, on the frozen clock
        assert "Service unavailable" in status

        transport.failing = False
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.stale_since is None, "recovery")
        assert not pane.query_one(PaneStatus).display
