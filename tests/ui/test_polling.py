"""The polling loop (`PollLoop`, hosted in each pane): refresh now, poll on the interval, pause, and never a stale page over a newer one."""

from __future__ import annotations

import asyncio

import httpx

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    frozen_clock,
    seeded_emulator,
    settle,
    wait_until,
)
from tui.api.client import WdsClient
from tui.api.polling import PollLoop
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.crawls.pane import CrawlsPane

ACTIVE = "/v2/crawl/active"


def crawls_host(client: WdsClient, interval: float) -> PaneHost:
    return PaneHost(lambda: CrawlsPane(client, interval=interval, clock=frozen_clock(NOW), id="crawls"))


async def test_r_fetches_at_once(client: WdsClient, transport: SwitchableTransport) -> None:
    app = crawls_host(client, interval=3600)
    async with app.run_test() as pilot:
        pane = app.query_one(CrawlsPane)
        await settle(pilot)
        pane.focus_first()
        before = transport.paths.count(ACTIVE)
        await pilot.press("r")
        await settle(pilot)
        assert transport.paths.count(ACTIVE) == before + 1


async def test_polls_on_its_interval_and_not_while_paused_or_hidden(
    client: WdsClient, transport: SwitchableTransport
) -> None:
    app = crawls_host(client, interval=0.05)
    async with app.run_test() as pilot:
        pane = app.query_one(CrawlsPane)
        await wait_until(pilot, lambda: transport.paths.count(ACTIVE) >= 4, "a few polls")

        pane.focus_first()
        await pilot.press("p")
        await settle(pilot)
        paused_at = transport.paths.count(ACTIVE)
        await pilot.pause(0.15)  # three intervals: a poll the pause failed to stop would be sent
        assert transport.paths.count(ACTIVE) == paused_at

        await pilot.press("p")  # resuming fetches at once, then polling goes on
        await wait_until(pilot, lambda: transport.paths.count(ACTIVE) >= paused_at + 3, "polls again")

        pane.display = False
        await settle(pilot)
        hidden_at = transport.paths.count(ACTIVE)
        await pilot.pause(0.15)  # three intervals, as above
        assert transport.paths.count(ACTIVE) == hidden_at


class SlowPages(httpx.AsyncBaseTransport):
    """Every page after the first answers only after `delay` seconds."""

    def __init__(self, inner: httpx.AsyncBaseTransport, delay: float) -> None:
        self.inner = inner
        self.delay = delay
        self.slow_requests = 0
        self.slow_requests_over = 0  # answered, or called off by the client

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if "cursor" not in request.url.params:
            return await self.inner.handle_async_request(request)
        self.slow_requests += 1
        try:
            await asyncio.sleep(self.delay)
            return await self.inner.handle_async_request(request)
        finally:
            self.slow_requests_over += 1


async def test_a_late_answer_never_replaces_the_page_asked_for_since() -> None:
    transport = SlowPages(SwitchableTransport(seeded_emulator()), delay=0.5)
    client = client_on(transport)
    app = PaneHost(lambda: ActivityPane(client, interval=3600, clock=frozen_clock(NOW), id="activity"))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await settle(pilot)
        assert pane.data is not None
        first = [entry.id for entry in pane.data.page.entries]
        pane.focus_first()

        await pilot.press("n")  # page 2 is slow to come...
        await wait_until(pilot, lambda: transport.slow_requests == 1, "the request for page 2")
        await pilot.press("b")  # ...and the reader is back on page 1 before it does
        await wait_until(pilot, lambda: transport.slow_requests_over == 1, "the end of the request for page 2")
        await settle(pilot)  # page 2's answer, had it come, has been shown

        assert pane.page_number == 1 and pane.data.number == 1
        assert [entry.id for entry in pane.data.page.entries] == first
        assert str(pane.border_subtitle).startswith("page 1 ·")


# --- the loop itself (tui.api.polling), without Textual -------------------------------------


async def test_the_loop_says_same_answers_keeps_going_after_failures_and_stops_when_told() -> None:
    answers = iter([1, 1, RuntimeError("bug"), 2, 2])
    seen: list[tuple[int, bool]] = []
    failures: list[str] = []

    async def fetch() -> int:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def deliver(answer: int, same: bool) -> None:
        seen.append((answer, same))
        if len(seen) == 4:
            loop.stop()

    loop = PollLoop(fetch, deliver=deliver, fail=lambda error: failures.append(str(error)), interval=0)
    await asyncio.wait_for(loop.run(), 5)
    assert seen == [(1, False), (1, True), (2, False), (2, True)]
    assert failures == ["bug"] and loop.stopped


async def test_the_loop_skips_a_timed_fetch_that_is_not_due_but_not_the_first() -> None:
    fetched = 0

    async def fetch() -> int:
        nonlocal fetched
        fetched += 1
        return fetched

    loop = PollLoop(fetch, deliver=lambda *_: None, fail=lambda _: None, interval=0.01, due=lambda: False)
    task = asyncio.create_task(loop.run())
    await asyncio.sleep(0.05)  # five intervals: a fetch that was not due would have been made
    task.cancel()
    assert fetched == 1  # asked for at once; nobody watching since


async def test_wake_ends_the_sleep_at_once_and_a_wake_during_a_fetch_adds_no_fetch() -> None:
    fetched = 0
    in_fetch = asyncio.Event()
    release = asyncio.Event()

    async def fetch() -> int:
        nonlocal fetched
        fetched += 1
        if fetched == 3:
            in_fetch.set()
            await release.wait()
        return fetched

    loop = PollLoop(fetch, deliver=lambda *_: None, fail=lambda _: None, interval=3600)
    task = asyncio.create_task(loop.run())
    await asyncio.sleep(0.05)
    assert fetched == 1  # the first, then an hour's sleep

    loop.wake()
    await asyncio.sleep(0.05)
    assert fetched == 2  # woken: fetched at once, then asleep again

    loop.wake()
    await asyncio.wait_for(in_fetch.wait(), 1)
    loop.wake()  # while the third fetch is on its way: that fetch answers it
    release.set()
    await asyncio.sleep(0.05)
    task.cancel()
    assert fetched == 3
