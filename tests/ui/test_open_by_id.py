"""Any job by id (g) and copying a job's id (y) or status URL (Y), on the seeded emulator.

The standard picture's first activity page (25 rows) holds scrapes, crawls and
maps; its batch scrapes, agent and extract jobs are further back, so `g`
finds those by asking the service.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.support.dashboard import (
    BASE_URL,
    SwitchableTransport,
    client_on,
    dashboard,
    open_pane,
    seeded_emulator,
    settle,
    wait_until,
)
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.contract.models import ActivityEntry
from tui.dashboard.features.activity.failed_view import FailedJobsScreen
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.activity.pane import ActivityPane, ActivityTable
from tui.dashboard.features.batch.status import BatchStatusScreen
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.features.console.session_detail import SessionDetailScreen
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.features.jump.dialog import OpenByIdScreen
from tui.dashboard.features.jump.reference import JobReference, read_reference
from tui.dashboard.features.jump.seen_jobs import SeenJobs
from tui.dashboard.keys.palette import DashboardCommands
from tui.dashboard.shell.app import WdsApp
from tui.emulator.service import Emulator

SCREENS: dict[str, type[Any]] = {
    "crawl": CrawlStatusScreen,
    "batch_scrape": BatchStatusScreen,
    "scrape": JobDetailScreen,
    "agent": JobDetailScreen,
    "extract": JobDetailScreen,
}
"""The screen each kind of job opens on."""

PATHS = {
    "crawl": "/v2/crawl/{id}",
    "batch_scrape": "/v2/batch/scrape/{id}",
    "scrape": "/v2/scrape/{id}",
    "extract": "/v2/extract/{id}",
    "agent": "/v2/extract/{id}",
}


@pytest.fixture
async def emulator(backend: RecordingBackend) -> AsyncIterator[Emulator]:
    emulator = seeded_emulator(browser_backend=backend)  # sessions on a recording backend: no Chromium needed
    yield emulator
    await emulator.aclose()


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport) -> WdsApp:
    return dashboard(emulator, transport)


async def entries(client: WdsClient) -> list[ActivityEntry]:
    """The whole 24 hours of activity, newest first."""
    found: list[ActivityEntry] = []
    cursor: str | None = None
    while True:
        page = await client.team.activity(limit=100, cursor=cursor)
        found.extend(page.entries)
        if page.next_cursor is None:
            return found
        cursor = page.next_cursor


def shown_ids(app: WdsApp) -> set[str]:
    data = app.query_one(ActivityPane).data
    assert data is not None
    return {entry.id for entry in data.page.entries}


async def entry_of(client: WdsClient, kind: str) -> ActivityEntry:
    return next(entry for entry in await entries(client) if entry.endpoint == kind)


def spy_notifications(app: WdsApp) -> list[str]:
    said: list[str] = []
    original = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        said.append(message)
        original(message, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return said


async def open_dialog(pilot: Pilot[Any]) -> OpenByIdScreen:
    await pilot.press("g")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, OpenByIdScreen), "the open-by-id dialog")
    screen = pilot.app.screen
    assert isinstance(screen, OpenByIdScreen)
    return screen


async def paste_and_enter(pilot: Pilot[Any], text: str) -> OpenByIdScreen:
    """Press g, paste `text` into the dialog (as a terminal pastes), and press Enter."""
    dialog = await open_dialog(pilot)
    field = dialog.query_one(Input)
    field.post_message(events.Paste(text))
    await wait_until(pilot, lambda: field.value == text, "the pasted text")
    await pilot.press("enter")
    return dialog


def note(dialog: OpenByIdScreen) -> str:
    return str(dialog.query_one("#open-by-id-note", Static).content)


def asked_about(transport: SwitchableTransport, job_id: str) -> list[str]:
    """The paths requested that name `job_id`, in order."""
    return [path for path in transport.paths if job_id in path]


def test_an_id_is_read_alone_quoted_or_inside_a_url() -> None:
    job_id = "3f2c1a9e-5b6d-4c7e-8f90-a1b2c3d4e5f6"
    assert read_reference(f'  "{job_id}"  ') == JobReference(job_id)
    assert read_reference(f"'{job_id.upper()}'") == JobReference(job_id)
    assert read_reference(f"https://api.example.com/v2/crawl/{job_id}") == JobReference(job_id, "crawl")
    assert read_reference(f"https://api.example.com/v2/batch/scrape/{job_id}?limit=1") == JobReference(
        job_id, "batch_scrape"
    )
    assert read_reference(f"https://api.example.com/v2/scrape/{job_id}") == JobReference(job_id, "scrape")
    assert read_reference(f"https://app.example.com/app/crawls/{job_id}?tab=pages") == JobReference(job_id, "crawl")
    assert read_reference(f"https://app.example.com/logs?job={job_id}") == JobReference(job_id)
    assert read_reference("no id here") is None


def test_the_jobs_seen_keep_the_newest_up_to_their_limit() -> None:
    seen = SeenJobs(limit=2)
    seen.learn([("A", "crawl"), ("b", "scrape")])
    seen.learn([("a", "crawl"), ("c", "map")])  # a seen again: newer than b
    assert (seen.kind_of("a"), seen.kind_of("b"), seen.kind_of("C")) == ("crawl", None, "map")
    assert len(seen) == 2


@pytest.mark.parametrize("kind", ["crawl", "scrape", "map"])
async def test_g_opens_an_id_seen_in_activity_without_asking_around(
    app: WdsApp, client: WdsClient, transport: SwitchableTransport, kind: str
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        entry = next(e for e in await entries(client) if e.endpoint == kind and e.id in shown_ids(app))
        await paste_and_enter(pilot, entry.id)
        expected = SCREENS.get(kind, JobDetailScreen)  # a map has nothing to retrieve: its screen says so
        await wait_until(pilot, lambda: isinstance(app.screen, expected), f"the {kind} screen")
        if isinstance(app.screen, JobDetailScreen):
            assert app.screen.endpoint == kind
        await settle(pilot)
        own = [PATHS[kind].format(id=entry.id)] if kind in PATHS else []
        assert set(asked_about(transport, entry.id)) == set(own), "no other endpoint asked"


@pytest.mark.parametrize("kind", ["batch_scrape", "agent", "extract"])
async def test_g_opens_an_id_of_each_kind_not_seen_by_asking_the_endpoints_in_turn(
    app: WdsApp, client: WdsClient, transport: SwitchableTransport, kind: str
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        entry = await entry_of(client, kind)
        assert entry.id not in shown_ids(app), "not seen: the dialog has to ask"
        await paste_and_enter(pilot, f"  {entry.id} ")
        await wait_until(pilot, lambda: isinstance(app.screen, SCREENS[kind]), f"the {kind} screen")
        asked = asked_about(transport, entry.id)
        in_turn = {"batch_scrape": ["crawl", "batch_scrape"], "agent": ["crawl", "batch_scrape", "scrape", "extract"]}
        order = in_turn.get(kind, in_turn["agent"])
        probes = [PATHS[each].format(id=entry.id) for each in order]
        assert asked[: len(probes)] == probes, "asked in turn, stopping at the first that knows it"


async def test_g_asks_first_the_endpoint_a_pasted_url_names(
    app: WdsApp, client: WdsClient, transport: SwitchableTransport
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        batch = await entry_of(client, "batch_scrape")
        await paste_and_enter(pilot, f"https://api.example.com/v2/batch/scrape/{batch.id}")
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch status screen")
        assert asked_about(transport, batch.id)[0] == f"/v2/batch/scrape/{batch.id}", "asked there first"
        assert f"/v2/crawl/{batch.id}" not in transport.paths


async def test_g_opens_a_browser_session_by_its_id(app: WdsApp, client: WdsClient) -> None:
    created = await client.browser.create(ttl=600)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await paste_and_enter(pilot, f"https://dashboard.example.com/browser/{created.id}")
        await wait_until(pilot, lambda: isinstance(app.screen, ConsoleScreen), "the session's console")


async def test_g_opens_what_is_known_of_an_ended_session(app: WdsApp, client: WdsClient) -> None:
    created = await client.browser.create(ttl=600)
    await client.browser.delete(created.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await paste_and_enter(pilot, created.id)
        await wait_until(pilot, lambda: isinstance(app.screen, SessionDetailScreen), "the ended session's detail")


async def test_g_works_in_read_only_mode(emulator: Emulator) -> None:
    transport = SwitchableTransport(emulator)
    app = dashboard(emulator, transport)
    app.service = replace(app.service, read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        batch = await entry_of(client_on(transport), "batch_scrape")
        await paste_and_enter(pilot, batch.id)
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch status screen")


async def test_an_unknown_id_is_said_with_what_was_asked_and_the_text_stays(app: WdsApp) -> None:
    unknown = str(uuid.UUID(int=7, version=4))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        dialog = await paste_and_enter(pilot, unknown)
        expected = f"no job with id {unknown} (asked: crawl, batch_scrape, scrape, extract, browser)"
        await wait_until(pilot, lambda: note(dialog) == expected, "the not-found note")
        assert app.screen is dialog and dialog.query_one(Input).value == unknown

        field = dialog.query_one(Input)
        field.value = "not an id"
        await pilot.press("enter")
        await wait_until(pilot, lambda: note(dialog).startswith("No job id in that"), "the no-id note")
        await pilot.press("escape")
        assert not isinstance(app.screen, OpenByIdScreen)


async def test_a_service_failure_is_explained_and_the_text_stays(
    app: WdsApp, client: WdsClient, transport: SwitchableTransport
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        batch = await entry_of(client, "batch_scrape")
        transport.failing = True
        before = len(transport.paths)
        dialog = await paste_and_enter(pilot, batch.id)
        await wait_until(pilot, lambda: note(dialog).startswith("The service failed"), "the failure note")
        assert len(transport.paths) - before == 1, "a failure other than 404 stops the search"
        assert app.screen is dialog and dialog.query_one(Input).value == batch.id


async def test_the_palette_lists_open_job_by_id_with_its_key(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        commands = {name: help_text for name, _, help_text in DashboardCommands(app.screen)._commands()}
        assert commands["App: Open job by id"] == "key g"


async def test_y_and_Y_copy_the_highlighted_activity_jobs_id_and_status_url(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, ActivityPane)
        said = spy_notifications(app)
        table = pane.query_one(ActivityTable)
        data = pane.data
        assert data is not None
        scrape_row = next(i for i, e in enumerate(data.page.entries) if e.endpoint == "scrape")
        table.move_cursor(row=scrape_row)
        entry = pane.selected_entry()
        assert entry is not None and entry.endpoint == "scrape"

        await pilot.press("y")
        assert app.clipboard == entry.id
        assert said[-1] == f"copied the id of scrape job {entry.id}"
        await pilot.press("Y")
        assert app.clipboard == f"{BASE_URL}/v2/scrape/{entry.id}"
        assert said[-1] == f"copied the status URL of scrape job {entry.id}"

        map_row = next(i for i, e in enumerate(data.page.entries) if e.endpoint == "map")
        table.move_cursor(row=map_row)
        await pilot.press("Y")
        assert said[-1] == "a map job has no status URL: y copies its id"
        assert app.clipboard == f"{BASE_URL}/v2/scrape/{entry.id}", "nothing copied"


async def test_y_and_Y_in_the_failed_view(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, FailedJobsScreen), "the failed view")
        screen = app.screen
        assert isinstance(screen, FailedJobsScreen)
        await wait_until(pilot, lambda: screen.selected() is not None, "a failed job")
        found = screen.selected()
        assert found is not None
        await pilot.press("y")
        assert app.clipboard == found.entry.id
        await pilot.press("Y")
        assert app.clipboard == BASE_URL + PATHS[found.entry.endpoint].format(id=found.entry.id)


async def test_y_and_Y_in_the_crawls_pane_and_on_a_batch(app: WdsApp, client: WdsClient) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=50)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, CrawlsPane)
        table = pane.query_one(CrawlTable)
        await wait_until(pilot, lambda: started.id in table.row_keys, "the crawl's row")
        table.move_cursor(row=table.get_row_index(started.id))
        await pilot.press("y")
        assert app.clipboard == started.id
        await pilot.press("Y")
        assert app.clipboard == f"{BASE_URL}/v2/crawl/{started.id}"

        batch = await entry_of(client, "batch_scrape")
        await paste_and_enter(pilot, batch.id)
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch status screen")
        await pilot.press("y")
        assert app.clipboard == batch.id
        await pilot.press("Y")
        assert app.clipboard == f"{BASE_URL}/v2/batch/scrape/{batch.id}"
