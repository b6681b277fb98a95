"""The crawls pane hears of every crawl and batch the dashboard sees, and keeps the finished ones for a window.

On the whole dashboard over the in-process emulator, its manual clock also the
dashboard's: a crawl that starts and ends between two polls of the active list
reaches the pane through the activity list, a webhook event or the form that
started it, and its final state is asked once. Requests are counted at the
transport.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import timedelta

import httpx
import pytest
from pydantic import SecretStr
from textual.pilot import Pilot

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    dashboard,
    seeded_emulator,
    settle,
    wait_until,
)
from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.contract.models.crawl import CrawlStatus
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.batch.form import BatchFormScreen
from tui.dashboard.features.batch.status import BatchStatusScreen
from tui.dashboard.features.crawls.live_crawls import LiveCrawls
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.dashboard.features.crawls.rows import RECENT_KEY, border_count
from tui.dashboard.features.crawls.tracker import Progress, TrackedJob
from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.features.inbox.store import check_delivery
from tui.dashboard.shell.intents import OpenBatchForm
from tui.dashboard.shell.sightings import ACTIVITY, CRAWL, JobSighting
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

SECRET = "whsec-recent-crawls"


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: the jobs on screen are the ones each test starts.
    return seeded_emulator(seed=5, clock=clock, history=False)


class Canned(httpx.AsyncBaseTransport):
    """The emulator, with a status code answered instead for chosen paths, and every request counted."""

    def __init__(self, inner: SwitchableTransport) -> None:
        self.inner = inner
        self.answers: dict[str, int] = {}
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        status = self.answers.get(request.url.path)
        if status is not None:
            return httpx.Response(status, json={"success": False, "error": f"canned {status}", "code": "CANNED"})
        return await self.inner.handle_async_request(request)

    def asked(self, path: str) -> int:
        """The crawls pane's status calls to `path`: it asks for one document (the activity pane's status
        column asks for its visible rows on its own, with its own cache)."""
        return sum(
            1 for r in self.requests if r.method == "GET" and r.url.path == path and r.url.params.get("limit") == "1"
        )


@pytest.fixture
def canned(transport: SwitchableTransport) -> Canned:
    return Canned(transport)


def rows(pane: CrawlsPane) -> list[tuple[str, list[str]]]:
    table = pane.query_one(CrawlTable)
    return [(key, [str(cell) for cell in table.get_row(key)]) for key in table.row_keys]


async def loaded(pilot: Pilot) -> tuple[CrawlsPane, ActivityPane]:
    await wait_until(pilot, lambda: pilot.app.query_one(CrawlsPane).data is not None, "the first fetch")
    await settle(pilot)
    crawls = pilot.app.query_one(CrawlsPane)
    crawls.action_toggle_maximize()  # the whole width: every column whole
    await pilot.pause()
    return crawls, pilot.app.query_one(ActivityPane)


async def refreshed(pilot: Pilot, *panes: CrawlsPane | ActivityPane) -> None:
    for pane in panes:
        pane.refresh_data()
        await settle(pilot)


async def test_a_crawl_that_started_and_ended_between_two_polls_shows_finished_its_state_asked_once(
    emulator: Emulator, clock: ManualClock, canned: Canned
) -> None:
    app = dashboard(emulator, canned, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        crawls, activity = await loaded(pilot)
        quick = await app.client.crawl.start("https://acme-outdoor.com/", limit=3)
        clock.advance(10)  # it ran and ended between two polls
        await refreshed(pilot, crawls)
        assert rows(crawls) == [] and canned.asked(f"/v2/crawl/{quick.id}") == 0  # the active list never had it

        await refreshed(pilot, activity)  # the activity list has it: the pane learns of it there
        assert rows(crawls) == [
            (RECENT_KEY, ["", "── recent · 1 h", "", "", ""]),
            (quick.id, [quick.id[:8], "✓ completed 3/3", "acme-outdoor.com/", "12:00:00", "seen in activity"]),
        ]
        assert crawls.border_subtitle == "No crawls running · 1 finished in the last hour"
        assert canned.asked(f"/v2/crawl/{quick.id}") == 1

        long = await app.client.crawl.start("https://northwind.dev/", limit=40)  # a new activity entry too
        await refreshed(pilot, activity, crawls, crawls)
        assert [key for key, _ in rows(crawls)] == [long.id, RECENT_KEY, quick.id]  # running above, finished below
        assert crawls.border_subtitle == "1 running · 1 finished in the last hour"
        assert canned.asked(f"/v2/crawl/{quick.id}") == 1  # seen again, listed again: never asked again


async def test_finished_jobs_are_newest_first(emulator: Emulator, clock: ManualClock, canned: Canned) -> None:
    app = dashboard(emulator, canned, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        crawls, activity = await loaded(pilot)
        first = await app.client.crawl.start("https://acme-outdoor.com/", limit=3)
        clock.advance(300)
        second = await app.client.crawl.start("https://fernwood.co/", limit=3)
        clock.advance(300)
        third = await app.client.crawl.start("https://northwind.dev/", limit=3)
        clock.advance(10)  # all three ended before the pane heard of any
        await refreshed(pilot, activity)
        assert [key for key, _ in rows(crawls)] == [RECENT_KEY, third.id, second.id, first.id]


async def test_the_window_drops_what_ended_before_it(emulator: Emulator, clock: ManualClock, canned: Canned) -> None:
    app = dashboard(emulator, canned, clock=clock.now, recent_window=timedelta(minutes=10))
    async with app.run_test(size=(120, 40)) as pilot:
        crawls, activity = await loaded(pilot)
        quick = await app.client.crawl.start("https://acme-outdoor.com/", limit=3)
        clock.advance(10)
        await refreshed(pilot, activity)
        assert rows(crawls)[0] == (RECENT_KEY, ["", "── recent · 10 min", "", "", ""])
        assert crawls.border_subtitle == "No crawls running · 1 finished in the last 10 min"

        clock.advance(600 - 10 - 1)  # a second before ten minutes after its start, the last sign of it
        await refreshed(pilot, crawls)
        assert quick.id in crawls.query_one(CrawlTable).row_keys
        clock.advance(1)
        await refreshed(pilot, crawls)
        assert rows(crawls) == [] and crawls.border_subtitle == ""
        assert crawls.query_one("#crawls-empty").display

        await refreshed(pilot, activity)  # the activity list still has it, but older than the window: not taken
        await refreshed(pilot, crawls)
        assert rows(crawls) == [] and canned.asked(f"/v2/crawl/{quick.id}") == 1


@pytest.mark.parametrize(("window", "listed"), [(timedelta(hours=1), False), (timedelta(hours=2), True)])
async def test_activity_older_than_the_window_is_not_taken(clock: ManualClock, window: timedelta, listed: bool) -> None:
    history = seeded_emulator(clock=clock)  # the standard picture: 24 hours of the team's activity
    canned = Canned(SwitchableTransport(history))
    app = dashboard(history, canned, clock=clock.now, recent_window=window)
    async with app.run_test(size=(120, 40)) as pilot:
        crawls, activity = await loaded(pilot)
        page = activity.data
        assert page is not None
        older = [
            entry.id
            for entry in page.page.entries
            if entry.endpoint == CRAWL and timedelta(hours=1) < NOW - entry.created_at < timedelta(hours=2)
        ]
        assert older, "the seeded first page has a crawl between one and two hours old"
        shown = crawls.query_one(CrawlTable).row_keys
        assert all((crawl_id in shown) == listed for crawl_id in older)
        # Not even kept to be asked about (the activity pane's status column asks for its own rows, so
        # requests cannot tell here; test_the_window_drops_what_ended_before_it counts them).
        assert all((crawls.tracker.get(crawl_id) is not None) == listed for crawl_id in older)


def event(event_type: str, job_id: str, hook_id: str) -> bytes:
    return json.dumps({"success": True, "type": event_type, "id": job_id, "webhookId": hook_id, "data": []}).encode()


async def test_a_crawl_seen_only_by_a_webhook_event_shows_and_a_forged_event_is_not_taken(
    emulator: Emulator, clock: ManualClock, canned: Canned
) -> None:
    webhooks = InboxService(secret=SecretStr(SECRET))
    app = dashboard(emulator, canned, clock=clock.now, webhooks=webhooks)
    async with app.run_test(size=(120, 40)) as pilot:
        crawls, activity = await loaded(pilot)
        activity.toggle_pause()  # the activity list would show them too: here only the inbox does
        heard = await app.client.crawl.start("https://acme-outdoor.com/", limit=3)
        forged = await app.client.crawl.start("https://fernwood.co/", limit=3)
        clock.advance(10)

        def deliver(body: bytes, secret: str) -> None:
            headers = {SIGNATURE_HEADER: sign(body, secret)}
            webhooks.inbox.add(check_delivery(body, headers, webhooks.inbox.secret, peer="127.0.0.1", now=clock.now()))

        deliver(event("crawl.started", heard.id, "hook-1"), SECRET)
        for page in range(3):  # a page event a page: nothing new once the crawl is known
            deliver(event("crawl.page", heard.id, f"hook-page-{page}"), SECRET)
        deliver(event("crawl.completed", heard.id, "hook-2"), SECRET)
        deliver(event("crawl.completed", forged.id, "hook-3"), "guessed")  # its signature does not verify
        await wait_until(pilot, lambda: heard.id in crawls.query_one(CrawlTable).row_keys, "the crawl heard of")
        await settle(pilot)
        assert rows(crawls)[1] == (
            heard.id,
            [heard.id[:8], "✓ completed 3/3", "?", "12:00:10", "seen by webhook"],  # no URL in its events
        )
        assert forged.id not in crawls.query_one(CrawlTable).row_keys
        assert canned.asked(f"/v2/crawl/{heard.id}") == 1 and canned.asked(f"/v2/crawl/{forged.id}") == 0


async def test_a_batch_started_here_is_followed_and_stays_among_the_recent_once_done(
    emulator: Emulator, clock: ManualClock, canned: Canned
) -> None:
    app = dashboard(emulator, canned, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        crawls, activity = await loaded(pilot)
        activity.toggle_pause()  # the form alone tells of it
        urls = ("https://bigbox-supply.com/", "https://bigbox-supply.com/about")
        app.post_message(OpenBatchForm(urls=urls))
        await wait_until(pilot, lambda: isinstance(app.screen, BatchFormScreen), "the batch form")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch's status")
        batch_id = app.screen.batch_id
        await pilot.press("escape")
        await settle(pilot)
        [(key, cells)] = rows(crawls)
        assert (
            key == batch_id
            and cells[1].startswith("◌ ")
            and cells[2:] == ["bigbox-supply.com/ · batch", "12:00:00", "started here"]
        )
        assert crawls.border_subtitle == "1 running"

        clock.advance(10)
        await refreshed(pilot, crawls)
        assert rows(crawls)[1] == (
            batch_id,
            [batch_id[:8], "✓ completed 2/2", "bigbox-supply.com/ · batch", "12:00:00", "started here"],
        )
        asked = canned.asked(f"/v2/batch/scrape/{batch_id}")
        await refreshed(pilot, crawls)
        assert canned.asked(f"/v2/batch/scrape/{batch_id}") == asked  # done: not asked again

        table = crawls.query_one(CrawlTable)
        table.focus()
        table.move_cursor(row=0)
        await pilot.pause()
        enter = app.screen.active_bindings.get("enter")
        assert enter is None or not enter.enabled  # the heading opens nothing: no ⏎ in the footer
        table.move_cursor(row=table.get_row_index(batch_id))
        await pilot.pause()
        assert app.screen.active_bindings["enter"].binding.description == "Status"
        await pilot.press("enter")  # a batch opens the batch's own status screen
        await wait_until(pilot, lambda: isinstance(app.screen, BatchStatusScreen), "the batch's status again")


def pane_alone(transport: httpx.AsyncBaseTransport, clock: ManualClock) -> PaneHost:
    client = client_on(transport)
    return PaneHost(lambda: CrawlsPane(client, interval=3600, clock=clock.now, id="crawls"))


async def test_a_failing_status_call_is_marked_and_asked_again_and_a_404_says_the_service_forgot(
    emulator: Emulator, clock: ManualClock, canned: Canned
) -> None:
    app = pane_alone(canned, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        client = client_on(canned)
        failing = await client.crawl.start("https://acme-outdoor.com/", limit=3)
        forgotten = await client.crawl.start("https://fernwood.co/", limit=3)
        clock.advance(10)
        canned.answers[f"/v2/crawl/{failing.id}"] = 500
        canned.answers[f"/v2/crawl/{forgotten.id}"] = 404
        pane.take_sightings([JobSighting(CRAWL, job_id, ACTIVITY) for job_id in (failing.id, forgotten.id)])
        await settle(pilot)
        shown = dict(rows(pane))
        assert shown[failing.id][1].startswith("⚠ Server error")  # not known to have ended: among the running
        assert shown[forgotten.id][1] == "? ended · no longer on the service"
        assert [key for key, _ in rows(pane)] == [failing.id, RECENT_KEY, forgotten.id]

        del canned.answers[f"/v2/crawl/{failing.id}"]
        await refreshed(pilot, pane)
        assert dict(rows(pane))[failing.id][1] == "✓ completed 3/3"
        await refreshed(pilot, pane)
        assert canned.asked(f"/v2/crawl/{failing.id}") == 2  # failed, then answered: no more
        assert canned.asked(f"/v2/crawl/{forgotten.id}") == 1  # a 404 is an answer


def test_a_narrow_border_says_the_count_shorter_rather_than_cut() -> None:
    running = TrackedJob(CRAWL, "a", ACTIVITY)
    done = TrackedJob(CRAWL, "b", ACTIVITY, progress=Progress("completed", 3, 3))
    hour = timedelta(hours=1)
    assert border_count([done], hour, 60) == "No crawls running · 1 finished in the last hour"
    assert border_count([done], hour, 34) == "none running · 1 finished in 1 h"
    assert border_count([running, done], timedelta(minutes=90), 34) == "1 running · 1 finished in 1 h 30 min"
    assert border_count([running], hour, 34) == "1 running"
    assert border_count([], hour, 34) == ""


class HeldList(httpx.AsyncBaseTransport):
    """The emulator, with `GET /v2/crawl/active` held while `hold` is clear; its requests counted."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.hold = asyncio.Event()
        self.hold.set()
        self.lists = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v2/crawl/active":
            self.lists += 1
            await self.hold.wait()
        return await self.inner.handle_async_request(request)


async def test_sightings_during_a_slow_fetch_do_not_cancel_it_but_bring_one_more(
    emulator: Emulator, clock: ManualClock, transport: SwitchableTransport
) -> None:
    held = HeldList(transport)
    app = pane_alone(held, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        client = client_on(transport)
        ids = [(await client.crawl.start(f"https://site-{n}.test/", limit=3)).id for n in range(3)]
        held.hold.clear()
        pane.refresh_data()
        await wait_until(pilot, lambda: held.lists == 2, "a slow fetch on its way")
        for job_id in ids:  # a stream of webhook events, one by one
            pane.take_sightings([JobSighting(CRAWL, job_id, ACTIVITY)])
            await pilot.pause()
        assert held.lists == 2  # the fetch in flight is not cancelled and asked again
        held.hold.set()
        await settle(pilot)
        assert held.lists == 3  # one more fetch for all three
        assert set(ids) <= {key for key, _ in rows(pane)}


async def test_a_paused_pane_asks_nothing_for_a_sighting_until_resumed(
    emulator: Emulator, clock: ManualClock, canned: Canned
) -> None:
    app = pane_alone(canned, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        job_id = (await client_on(canned).crawl.start("https://acme-outdoor.com/", limit=3)).id
        pane.toggle_pause()
        sent = len(canned.requests)
        pane.take_sightings([JobSighting(CRAWL, job_id, ACTIVITY)])
        await pilot.pause(0.2)
        assert len(canned.requests) == sent  # paused: no request at all
        pane.toggle_pause()
        await settle(pilot)
        assert job_id in {key for key, _ in rows(pane)} and canned.asked(f"/v2/crawl/{job_id}") == 1


class LaggingSocket(LiveCrawls):
    """Live crawls whose last push for one crawl still says it runs, and that follow nothing more."""

    def __init__(self, pane: CrawlsPane, crawl_id: str) -> None:
        super().__init__(pane.client, pane.tracker, pane)
        self.crawl_id = crawl_id

    def latest(self, crawl_id: str) -> CrawlStatus | None:
        return CrawlStatus(status="scraping", completed=1, total=3) if crawl_id == self.crawl_id else None

    def follow(self, running: Sequence[str]) -> None:
        pass


async def test_a_crawl_that_left_the_list_is_asked_not_answered_by_its_last_push(
    emulator: Emulator, clock: ManualClock, canned: Canned
) -> None:
    app = pane_alone(canned, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(CrawlsPane)
        client = client_on(canned)
        crawl_id = (await client.crawl.start("https://acme-outdoor.com/", limit=3)).id
        await refreshed(pilot, pane)
        pane.live = LaggingSocket(pane, crawl_id)
        await client.crawl.cancel(crawl_id)  # off the active list; its socket has not told yet
        await refreshed(pilot, pane)
        assert dict(rows(pane))[crawl_id][1].startswith("⊘ cancelled")
        assert canned.asked(f"/v2/crawl/{crawl_id}") == 2  # at the first poll, and once it left
