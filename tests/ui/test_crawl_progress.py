"""The crawls pane's progress column, its ended crawls, and cancelling, against the in-process emulator.

The pane's clock is the emulator's (a manual clock), so a test moves both:
crawls progress and ended crawls age together.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from datetime import UTC, datetime

import httpx
import pytest
from textual.widgets import Static

from tests.support.dashboard import (
    BASE_URL,
    PaneHost,
    SwitchableTransport,
    client_over,
    seeded_emulator,
    settle,
    wait_until,
)
from tui.api.client import WdsClient
from tui.dashboard.features.crawls.pane import NO_CANCEL, CrawlsPane, CrawlTable
from tui.dashboard.features.crawls.rows import progress_bar, progress_cell
from tui.dashboard.features.crawls.tracker import STATUS_CONCURRENCY, Progress, TrackedJob
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.kit.pane import PaneStatus
from tui.dashboard.shell.navigation import Navigator
from tui.dashboard.shell.sightings import ACTIVE_LIST, CRAWL, RECENT_WINDOW
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

STATUS_PATH = re.compile(r"^/v2/crawl/[0-9a-f-]{36}$")


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: the crawls on screen are the ones each test starts.
    return seeded_emulator(seed=5, clock=clock, history=False)


class Faults(httpx.AsyncBaseTransport):
    """The emulator behind `SwitchableTransport`, with canned answers for chosen requests.

    `answers[(method, path)]` is a status code answered instead of the
    emulator's; it also counts the status calls in flight at once.
    """

    def __init__(self, inner: SwitchableTransport, delay: float = 0.0) -> None:
        self.inner = inner
        self.answers: dict[tuple[str, str], int] = {}
        self.delay = delay
        self.in_flight = 0
        self.most_in_flight = 0
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        status = self.answers.get((request.method, request.url.path))
        if status is not None:
            if status == 405:  # a service without the route: not even JSON
                return httpx.Response(405, text="Method Not Allowed")
            body = {"success": False, "error": f"canned {status}", "code": "CANNED"}
            return httpx.Response(status, json=body)
        if request.method == "GET" and STATUS_PATH.match(request.url.path):
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            try:
                await asyncio.sleep(self.delay)
                return await self.inner.handle_async_request(request)
            finally:
                self.in_flight -= 1
        return await self.inner.handle_async_request(request)

    def status_calls(self, crawl_id: str) -> list[httpx.Request]:
        return [r for r in self.requests if r.method == "GET" and r.url.path == f"/v2/crawl/{crawl_id}"]


@pytest.fixture
def faults(transport: SwitchableTransport) -> Faults:
    return Faults(transport)


@pytest.fixture
async def faulty_client(faults: Faults):
    async with httpx.AsyncClient(transport=faults, base_url=BASE_URL) as http:
        yield client_over(http)


def host(client: WdsClient, clock: ManualClock) -> PaneHost:
    """The crawls pane alone on the emulator's clock, refreshed by hand; it opens the screens it asks for."""
    navigator = Navigator(client, clock=clock.now, crawl_poll_seconds=3600)
    return PaneHost(lambda: CrawlsPane(client, interval=3600, clock=clock.now, id="crawls"), navigator=navigator)


def progress_of(pane: CrawlsPane, crawl_id: str) -> str:
    return str(pane.query_one(CrawlTable).get_row(crawl_id)[1])


async def refresh(pilot, pane: CrawlsPane) -> None:
    pane.refresh_data()
    await settle(pilot)


def test_the_bar_is_text_and_never_empty_or_full_while_under_way() -> None:
    assert progress_bar(0, 50) == "▱▱▱▱▱▱"
    assert progress_bar(1, 50) == "▰▱▱▱▱▱"  # one page done shows
    assert progress_bar(25, 50) == "▰▰▰▱▱▱"
    assert progress_bar(49, 50) == "▰▰▰▰▰▱"  # one page missing shows
    assert progress_bar(50, 50) == "▰▰▰▰▰▰"
    assert progress_bar(60, 50) == "▰▰▰▰▰▰"  # more done than planned: full, not more
    assert progress_bar(3, 0) == "▱▱▱▱▱▱"  # total unknown


def tracked(state: str | None, completed: int = 0, total: int = 0, **kw: object) -> TrackedJob:
    progress = Progress(state, completed, total) if state is not None else None
    job = TrackedJob(CRAWL, "7f3e4b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b", ACTIVE_LIST, "https://a.test/", progress=progress)
    return replace(job, **kw)  # type: ignore[arg-type]


def test_each_state_reads_with_its_symbol() -> None:
    left = datetime(2025, 6, 15, 12, tzinfo=UTC)
    cases = {
        "◌ 3/12 ▰▰▱▱▱▱": tracked("scraping", 3, 12),
        "◌ 3/? ▱▱▱▱▱▱": tracked("scraping", 3, 0),
        "✓ completed 12/12": tracked("completed", 12, 12, left_at=left),
        "✗ failed 2/12": tracked("failed", 2, 12, left_at=left),
        "⊘ cancelled 4/25": tracked("cancelled", 4, 25, left_at=left),
        "⚠ 3/12 ▰▰▱▱▱▱ · Rate limited: slow down": tracked("scraping", 3, 12, error="Rate limited: slow down"),
        "⚠ Server error: boom": tracked(None, error="Server error: boom"),
        "◌ …": tracked(None),
        "⚠ ended · state unknown: Server error: boom": tracked(
            "scraping", 3, 12, left_at=left, error="Server error: boom"
        ),
        "? ended · no longer on the service": tracked("scraping", 3, 12, left_at=left, gone=True),
    }
    assert {text: str(progress_cell(row)) for text, row in cases.items()} == {text: text for text in cases}
    assert progress_cell(cases["✗ failed 2/12"]).style == "bold red"  # the look every screen gives a failure


async def test_progress_follows_the_crawl_then_it_stays_completed_for_a_while_then_goes(
    faulty_client: WdsClient, faults: Faults, clock: ManualClock
) -> None:
    started = await faulty_client.crawl.start("https://acme-outdoor.com/", limit=12)
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        assert progress_of(pane, started.id) == "◌ 0/12 ▱▱▱▱▱▱"
        calls = faults.status_calls(started.id)
        assert calls and all(call.url.params.get("limit") == "1" for call in calls)  # the counts, not the pages

        clock.advance(3)
        await refresh(pilot, pane)
        status = await faulty_client.crawl.get(started.id)
        done = f"{status.completed}/12 {progress_bar(status.completed, 12)}"
        assert 0 < status.completed < 12 and progress_of(pane, started.id) == f"◌ {done}"

        clock.advance(3600)  # the crawl ends and leaves the active list
        await refresh(pilot, pane)
        assert progress_of(pane, started.id) == "✓ completed 12/12"
        asked = len(faults.status_calls(started.id))

        clock.advance(RECENT_WINDOW.total_seconds() - 1)
        await refresh(pilot, pane)
        assert progress_of(pane, started.id) == "✓ completed 12/12"
        assert len(faults.status_calls(started.id)) == asked  # a finished crawl is not asked about again

        clock.advance(1)
        await refresh(pilot, pane)
        assert pane.query_one(CrawlTable).row_count == 0
        assert pane.query_one("#crawls-empty", Static).display


async def test_a_failing_status_call_marks_its_row_not_the_pane(
    faulty_client: WdsClient, faults: Faults, clock: ManualClock
) -> None:
    broken = await faulty_client.crawl.start("https://acme-outdoor.com/", limit=12)
    fine = await faulty_client.crawl.start("https://northwind.dev/", limit=12)
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        faults.answers[("GET", f"/v2/crawl/{broken.id}")] = 500
        clock.advance(3)
        await refresh(pilot, pane)
        marked = progress_of(pane, broken.id)
        assert marked.startswith("⚠ 0/12 ▱▱▱▱▱▱ · Server error")  # the last progress known, and why
        assert progress_of(pane, fine.id).startswith("◌ ") and "/12 ▰" in progress_of(pane, fine.id)
        assert pane.stale_since is None and not pane.query_one(PaneStatus).display

        del faults.answers[("GET", f"/v2/crawl/{broken.id}")]  # the next poll asks again, and recovers
        await refresh(pilot, pane)
        assert progress_of(pane, broken.id).startswith("◌ ") and "⚠" not in progress_of(pane, broken.id)


async def test_an_ended_crawl_whose_end_cannot_be_learned_says_so_and_is_asked_again(
    faulty_client: WdsClient, faults: Faults, clock: ManualClock
) -> None:
    started = await faulty_client.crawl.start("https://acme-outdoor.com/", limit=12)
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        faults.answers[("GET", f"/v2/crawl/{started.id}")] = 503
        clock.advance(3600)
        await refresh(pilot, pane)
        assert progress_of(pane, started.id).startswith("⚠ ended · state unknown: Service unavailable")

        del faults.answers[("GET", f"/v2/crawl/{started.id}")]
        await refresh(pilot, pane)
        assert progress_of(pane, started.id) == "✓ completed 12/12"


async def test_an_ended_crawl_the_service_forgot_is_said_gone_and_not_asked_again(
    faulty_client: WdsClient, faults: Faults, clock: ManualClock
) -> None:
    started = await faulty_client.crawl.start("https://acme-outdoor.com/", limit=12)
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        faults.answers[("GET", f"/v2/crawl/{started.id}")] = 404
        clock.advance(3600)
        await refresh(pilot, pane)
        assert progress_of(pane, started.id) == "? ended · no longer on the service"
        asked = len(faults.status_calls(started.id))
        await refresh(pilot, pane)
        assert len(faults.status_calls(started.id)) == asked


async def test_status_calls_are_a_few_at_a_time(faulty_client: WdsClient, faults: Faults, clock: ManualClock) -> None:
    for n in range(STATUS_CONCURRENCY + 3):
        await faulty_client.crawl.start(f"https://acme-outdoor.com/{n}", limit=12)
    faults.delay = 0.05
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        assert pane.query_one(CrawlTable).row_count == STATUS_CONCURRENCY + 3
        assert faults.most_in_flight == STATUS_CONCURRENCY


# --- cancel -------------------------------------------------------------------------------


async def open_cancel(pilot, pane: CrawlsPane, crawl_id: str) -> ConfirmScreen:
    table = pane.query_one(CrawlTable)
    table.focus()
    table.move_cursor(row=table.get_row_index(crawl_id))
    await pilot.pause()
    await pilot.press("x")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation")
    return pilot.app.screen


async def test_x_cancels_the_crawl_after_a_confirmation(
    faulty_client: WdsClient, faults: Faults, clock: ManualClock, emulator: Emulator
) -> None:
    started = await faulty_client.crawl.start("https://acme-outdoor.com/", limit=12)
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        clock.advance(3)
        await refresh(pilot, pane)
        pane.query_one(CrawlTable).focus()
        await pilot.pause()
        assert app.screen.active_bindings["x"].binding.description == "Cancel crawl"

        confirm = await open_cancel(pilot, pane, started.id)
        message = str(confirm.query_one("#confirm-message", Static).content)
        assert message.startswith(f"Stop crawl {started.id[:8]} of acme-outdoor.com/?\n")
        assert max(len(line) for line in message.splitlines()) <= 56  # whole in the dialog at 80 columns
        await pilot.press("n")  # changed its mind: nothing sent
        await pilot.pause()
        assert not [r for r in faults.requests if r.method == "DELETE"]

        await open_cancel(pilot, pane, started.id)
        await pilot.press("y")
        await wait_until(pilot, lambda: "cancelled" in progress_of(pane, started.id), "the cancelled row")
        await settle(pilot)
        deletes = [r for r in faults.requests if r.method == "DELETE"]
        assert [r.url.path for r in deletes] == [f"/v2/crawl/{started.id}"]
        assert progress_of(pane, started.id).startswith("⊘ cancelled ")
        assert str((await faulty_client.crawl.get(started.id)).status) == "cancelled"  # the service agrees
        assert any(f"crawl {started.id[:8]} cancelled" in n.message for n in app._notifications)
        assert "x" not in app.screen.active_bindings  # an ended crawl cannot be cancelled again


@pytest.mark.parametrize(
    ("status", "said", "severity"),
    [
        (405, NO_CANCEL, "error"),
        (404, "not found: it is already gone from the service", "warning"),
        (500, "was not cancelled: 500 CANNED: canned 500", "error"),
    ],
    ids=["405-no-cancel-on-this-service", "404-already-gone", "500-server-fault"],
)
async def test_a_refused_cancel_says_why(
    faulty_client: WdsClient, faults: Faults, clock: ManualClock, status: int, said: str, severity: str
) -> None:
    started = await faulty_client.crawl.start("https://acme-outdoor.com/", limit=12)
    faults.answers[("DELETE", f"/v2/crawl/{started.id}")] = status
    app = host(faulty_client, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        await open_cancel(pilot, pane, started.id)
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(app._notifications), "the message")
        note = list(app._notifications)[-1]
        assert said in note.message and note.severity == severity
        await settle(pilot)
        assert progress_of(pane, started.id).startswith("◌ ")  # still running, as the service says
