"""The activity pane's status column: each kind's state, few requests, only for the rows on screen.

Requests are counted where they reach the emulator (the test transport's log),
so "nothing fetched for rows nobody sees" and "a finished state is kept for
good" are measured, not assumed.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    dashboard,
    frozen_clock,
    settle,
    wait_until,
)
from tui.api.client import WdsClient
from tui.api.errors import NotFoundError, RateLimitError
from tui.contract.models import ActivityEntry
from tui.contract.models.job_summary import JobSummary
from tui.dashboard.features.activity.job_states import GONE, NO_STATUS, StatusChecker
from tui.dashboard.features.activity.pane import ActivityPane, ActivityTable
from tui.dashboard.shell.intents import AskSupport
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

RETRIEVAL_PREFIXES = ("/v2/scrape/", "/v2/crawl/", "/v2/batch/scrape/", "/v2/extract/")


def status_paths(paths: list[str]) -> list[str]:
    """The status requests among `paths` (the crawls pane's /v2/crawl/active is not one)."""
    return [path for path in paths if path.startswith(RETRIEVAL_PREFIXES) and path != "/v2/crawl/active"]


class ScriptedTransport(SwitchableTransport):
    """The emulator, with chosen answers for chosen paths, a delay, and a count of requests in flight."""

    def __init__(self, emulator: Emulator, delay: float = 0.0) -> None:
        super().__init__(emulator)
        self.answers: dict[str, httpx.Response] = {}
        self.delay = delay
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path in self.answers:
            self.paths.append(path)
            answer = self.answers[path]
            return httpx.Response(answer.status_code, content=answer.content, headers=answer.headers)
        if not status_paths([path]):
            return await super().handle_async_request(request)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            return await super().handle_async_request(request)
        finally:
            self.in_flight -= 1


def error(status: int, message: str, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json={"success": False, "error": message, "code": code}, headers=headers)


class ActivityHost(PaneHost):
    """The activity pane alone, noting the intents it posts."""

    def __init__(self, client: WdsClient, page_size: int = 25) -> None:
        super().__init__(
            lambda: ActivityPane(client, interval=3600, clock=frozen_clock(NOW), id="activity", page_size=page_size)
        )


async def statuses_settled(pilot: Pilot, pane: ActivityPane) -> None:
    """The page is shown and the checks it started (and any they started) are over."""
    await settle(pilot)
    # `checking_statuses` also covers rows that just came into view and are about to be asked about.
    await wait_until(pilot, lambda: pane._status_worker is not None and not pane.checking_statuses, "the status checks")
    await pilot.pause()


def statuses(pane: ActivityPane) -> dict[str, str]:
    """Row key -> the status cell's text."""
    table = pane.query_one(ActivityTable)
    return {key: str(table.get_row(key)[2]) for key in table.row_keys}


def entry_of(pane: ActivityPane, key: str) -> ActivityEntry:
    return pane._entries[key]


def job_path(entry: ActivityEntry) -> str:
    prefix = {"scrape": "/v2/scrape/", "crawl": "/v2/crawl/", "batch_scrape": "/v2/batch/scrape/"}
    return prefix.get(entry.endpoint, "/v2/extract/") + entry.id


async def test_each_kind_shows_its_state_and_kinds_without_one_a_dash(
    emulator: Emulator, transport: SwitchableTransport
) -> None:
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await statuses_settled(pilot, pane)
        table = pane.query_one(ActivityTable)
        shown = statuses(pane)
        visible = table.visible_keys()
        kinds = {key: entry_of(pane, key).endpoint for key in visible}
        assert {shown[key] for key in visible if kinds[key] in ("map", "search", "browser", "interact")} == {"—"}
        assert {shown[key] for key in visible if kinds[key] == "crawl"} == {"✓ completed"}
        assert "✗ HTTP 404" in {shown[key] for key in visible if kinds[key] == "scrape"}  # its page answered 404
        # Rows below the viewport are not asked about: they wait with "…".
        below = [
            key
            for key in table.row_keys
            if key not in visible and kinds.get(key, entry_of(pane, key).endpoint) == "scrape"
        ]
        assert below and {shown[key] for key in below} == {"…"}


async def test_a_poll_asks_only_for_visible_rows_and_never_again_for_finished_jobs(
    emulator: Emulator, transport: SwitchableTransport
) -> None:
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await statuses_settled(pilot, pane)
        table = pane.query_one(ActivityTable)
        visible = table.visible_keys()
        askable = {
            job_path(entry_of(pane, key))
            for key in visible
            if pane.statuses.known(entry_of(pane, key).endpoint, "x") is None
        }
        asked = status_paths(transport.paths)
        assert len(visible) < table.row_count  # some rows are out of sight
        assert sorted(asked) == sorted(askable)  # one request per visible job, none for the others

        transport.paths.clear()
        pane.refresh_data()  # the next poll: every visible job has finished, nothing to ask
        await statuses_settled(pilot, pane)
        assert transport.paths == ["/v2/team/activity"]

        table.scroll_to(y=table.max_scroll_y, animate=False)  # the rows below come into view
        await statuses_settled(pilot, pane)
        newly = set(table.visible_keys()) - set(visible)
        wanted = {
            job_path(entry_of(pane, key))
            for key in newly
            if entry_of(pane, key).endpoint in ("scrape", "crawl", "batch_scrape", "agent", "extract")
        }
        assert wanted and set(status_paths(transport.paths)) == wanted
        assert "…" not in {statuses(pane)[key] for key in table.visible_keys()}


async def test_a_running_job_is_asked_again_each_poll_until_it_finishes(clock: ManualClock, emulator: Emulator) -> None:
    transport = SwitchableTransport(emulator)
    client = client_on(transport)
    started = await client.crawl.start("https://northwind.dev/", limit=12)
    clock.advance(1)
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await statuses_settled(pilot, pane)
        key = next(key for key in pane._entries if key.startswith(started.id))
        assert statuses(pane)[key] == "◌ scraping"
        for _ in range(2):
            transport.paths.clear()
            pane.refresh_data()
            await statuses_settled(pilot, pane)
            assert status_paths(transport.paths) == [f"/v2/crawl/{started.id}"]  # the one unfinished job
        clock.advance(600)
        pane.refresh_data()
        await statuses_settled(pilot, pane)
        assert statuses(pane)[key] == "✓ completed"
        transport.paths.clear()
        pane.refresh_data()
        await statuses_settled(pilot, pane)
        assert status_paths(transport.paths) == []


async def test_at_most_four_requests_are_in_flight(emulator: Emulator) -> None:
    transport = ScriptedTransport(emulator, delay=0.05)
    app = ActivityHost(client_on(transport), page_size=100)
    async with app.run_test(size=(120, 60)) as pilot:
        pane = app.query_one(ActivityPane)
        await statuses_settled(pilot, pane)
        assert len(status_paths(transport.paths)) > 8
        assert transport.most_in_flight == 4


async def test_a_404_reads_expired_and_another_error_marks_its_row_only(emulator: Emulator) -> None:
    transport = ScriptedTransport(emulator)
    client = client_on(transport)
    page = await client.team.activity(endpoint="scrape", limit=3)
    gone, broken, fine = page.entries
    transport.answers[job_path(gone)] = error(404, "Job expired", "NOT_FOUND")
    transport.answers[job_path(broken)] = error(500, "Something broke", "UNKNOWN_ERROR")
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-endpoint", Select).value = "scrape"
        await wait_until(pilot, lambda: pane.endpoint == "scrape" and pane._is_current(pane.data), "the scrapes")
        await statuses_settled(pilot, pane)
        by_id = {entry_of(pane, key).id: text for key, text in statuses(pane).items()}
        assert by_id[gone.id] == "? expired"
        assert by_id[broken.id] == "⚠ 500"
        assert by_id[fine.id].startswith(("✓", "✗"))
        assert pane.stale_since is None  # the page itself is fine
        transport.paths.clear()
        del transport.answers[job_path(broken)]
        pane.refresh_data()  # the broken one is asked again; the expired one is not
        await statuses_settled(pilot, pane)
        assert status_paths(transport.paths) == [job_path(broken)]
        assert {entry_of(pane, key).id: text for key, text in statuses(pane).items()}[broken.id] != "⚠ 500"


@pytest.mark.serial  # a 3 s Retry-After on the wall clock: a starved loop outlives it (a loaded CI run sent 25 checks 'during' it)
async def test_a_429_pauses_every_check_for_its_retry_after(emulator: Emulator) -> None:
    transport = ScriptedTransport(emulator)
    client = client_on(transport)
    first = (await client.team.activity(endpoint="scrape", limit=1)).entries[0]
    transport.answers[job_path(first)] = error(429, "Rate limit exceeded", "RATE_LIMITED", {"Retry-After": "3"})
    app = ActivityHost(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-endpoint", Select).value = "scrape"
        await wait_until(pilot, lambda: "status paused: rate limited" in str(pane.border_subtitle), "the pause")
        del transport.answers[job_path(first)]
        during = len(status_paths(transport.paths))
        assert during <= 4  # the ones already in flight, no more
        # Checks that ignored the pause would be sent within milliseconds; 0.5 s costs nothing, as the
        # test waits out the 3 s Retry-After below anyway.
        await pilot.pause(0.5)
        assert len(status_paths(transport.paths)) == during  # nothing asked while paused
        await wait_until(pilot, lambda: "paused" not in str(pane.border_subtitle), "the end of the pause", 6)
        await statuses_settled(pilot, pane)
        visible = pane.query_one(ActivityTable).visible_keys()
        assert "…" not in {statuses(pane)[key] for key in visible}


async def test_a_asks_support_with_what_the_row_knows(emulator: Emulator, transport: SwitchableTransport) -> None:
    app = ActivityHost(client_on(transport))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        pane.query_one("#activity-endpoint", Select).value = "scrape"
        await wait_until(pilot, lambda: pane.endpoint == "scrape" and pane._is_current(pane.data), "the scrapes")
        await statuses_settled(pilot, pane)
        table = pane.query_one(ActivityTable)
        failed = next(row for row, key in enumerate(table.row_keys) if statuses(pane)[key].startswith("✗ HTTP"))
        table.focus()
        table.move_cursor(row=failed)
        await pilot.pause()
        entry = pane.selected_entry()
        assert entry is not None
        await pilot.press("a")
        await pilot.pause()
        intent = app.intents[-1]
        assert isinstance(intent, AskSupport)
        assert (intent.job_id, intent.kind, intent.status, intent.target) == (
            entry.id,
            "scrape",
            "failed",
            entry.target,
        )
        shown_status = statuses(pane)[table.row_keys[failed]].removeprefix("✗ ")  # "HTTP 404"
        assert intent.error is not None and intent.error.startswith(shown_status)


class FakeJobs:
    """Answers every summary as finished, or with the error given for a job id."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.errors: dict[str, Exception] = {}

    async def summary(self, kind: str, job_id: str) -> JobSummary:
        self.asked.append(job_id)
        if job_id in self.errors:
            raise self.errors.pop(job_id)
        return JobSummary("completed", finished=True)


async def test_the_cache_of_finished_states_is_bounded() -> None:
    jobs = FakeJobs()
    checker = StatusChecker(jobs, cache_size=3)
    for n in range(5):
        await checker.check("crawl", f"job{n}")
    assert checker.cached == 3
    assert checker.known("crawl", "job4") is not None and checker.known("crawl", "job0") is None
    assert checker.known("map", "job9") is NO_STATUS and jobs.asked == [f"job{n}" for n in range(5)]


async def test_the_checker_reads_404_as_gone_and_honours_retry_after() -> None:
    jobs = FakeJobs()
    now = [100.0]
    checker = StatusChecker(jobs, monotonic=lambda: now[0])
    jobs.errors["a"] = NotFoundError("Job expired", status=404)
    assert await checker.check("scrape", "a") is GONE
    assert await checker.check("scrape", "a") is GONE and jobs.asked == ["a"]  # kept for good
    jobs.errors["b"] = RateLimitError("slow down", status=429, retry_after=7)
    assert await checker.check("scrape", "b") is None
    assert checker.paused_for() == 7
    assert await checker.check("scrape", "c") is None and jobs.asked == ["a", "b"]  # paused: nothing sent
    now[0] += 7
    assert (await checker.check("scrape", "c")) is not None


async def test_no_sideways_scrollbar_at_120_columns_in_the_grid_or_zoomed(
    emulator: Emulator, transport: SwitchableTransport
) -> None:
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await statuses_settled(pilot, pane)
        table = pane.query_one(ActivityTable)
        for zoomed in (False, True):
            if zoomed:
                pane.focus_first()
                await pilot.press("z")
                await statuses_settled(pilot, pane)
            assert not table.show_horizontal_scrollbar, f"zoomed={zoomed}"
            assert table.virtual_size.width <= table.scrollable_content_region.width
            targets = [str(table.get_row(key)[4]) for key in table.row_keys]
            assert any("…" in target for target in targets) != zoomed  # cut in the grid, whole when zoomed
        pane.query_one("#activity-size", Select).value = 100
        await wait_until(pilot, lambda: pane.page_size == 100 and pane._is_current(pane.data), "100 rows")
        await statuses_settled(pilot, pane)
        times = [str(table.get_row(key)[0]) for key in table.row_keys]
        assert "11:41:46" in times and "06-14 23:07" in times  # today's bare, yesterday's dated
        assert not table.show_horizontal_scrollbar
        await pilot.resize_terminal(80, 24)
        await statuses_settled(pilot, pane)
        assert not table.show_horizontal_scrollbar
