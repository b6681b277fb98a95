"""The capacity line of the usage pane: queue, credits left and last success, on the emulator's real state.

The emulator answers `GET /v2/team/queue-status` and `GET /v2/team/credit-usage`
from its jobs and its ledger; the tests make it saturated by starting a crawl
through the client and short of credits by the team's balance, and stand in for
a service without those calls with a transport that answers them 404, 405 or 501.
"""

from __future__ import annotations

import httpx
import pytest
from rich.cells import cell_len
from textual.pilot import Pilot

from tests.support.dashboard import (
    BASE_URL,
    KEY,
    NOW,
    PaneHost,
    SwitchableTransport,
    client_over,
    dashboard,
    open_pane,
    wait_until,
)
from tui.api.client import WdsClient
from tui.dashboard.features.usage.capacity import ago
from tui.dashboard.features.usage.capacity_line import ASK_AGAIN_SECONDS, QUEUE_SECONDS, CapacityLine
from tui.dashboard.features.usage.pane import UsagePane
from tui.dashboard.kit.chart_series import human
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

QUEUE = "/v2/team/queue-status"
CREDITS = "/v2/team/credit-usage"
USAGE = "/v2/team/token-usage/historical"
WORKERS = "/v2/concurrency-check"
SITE = "https://acme-outdoor.com/"


def rows(line: CapacityLine) -> list[str]:
    return str(line.content).split("\n") if line.display else []


async def answered(pilot: Pilot, line: CapacityLine) -> None:
    await wait_until(pilot, lambda: line.data is not None and not line.fetching, "the capacity line's answer")
    await pilot.pause()


def assert_whole(line: CapacityLine) -> None:
    """Every row fits the line's width: nothing is cut, mid-word or otherwise."""
    width = line.content_region.width
    for row in rows(line):
        assert cell_len(row) <= width, f"{row!r} is wider than {width}"
        assert "…" not in row


async def test_the_line_shows_the_emulators_figures(emulator: Emulator, client: WdsClient) -> None:
    app = dashboard(emulator, clock=emulator.clock.now)
    queue = await client.team.queue_status()
    balance = await client.team.credit_usage()
    assert queue.most_recent_success is not None, "the seeded history has successes"
    async with app.run_test(size=(120, 40)) as pilot:
        line = app.query_one(CapacityLine)
        await answered(pilot, line)
        shown = " / ".join(rows(line))
        active, waiting, most = queue.active_jobs_in_queue, queue.waiting_jobs_in_queue, queue.max_concurrency
        assert f"Queue: {active} active, {waiting} waiting, max {most}" in shown
        percent = int(balance.remaining_credits * 100 // balance.plan_credits)  # type: ignore[operator]
        assert f"Credits {balance.remaining_credits:,.0f} left ({percent}%)" in shown
        assert f"last success {ago(queue.most_recent_success, NOW)[0]}" in shown
        assert "⚠" not in shown and not line.has_class("-alarm")
        assert_whole(line)


@pytest.mark.parametrize(("size", "mark"), [((120, 40), "⚠ saturated"), ((80, 24), "⚠ full")], ids=["120x40", "80x24"])
async def test_a_saturated_queue_is_marked_in_words(
    emulator: Emulator, client: WdsClient, clock: ManualClock, size: tuple[int, int], mark: str
) -> None:
    await client.crawl.start(SITE, limit=20)
    clock.advance(2)  # the team's two workers busy, the rest of the pages waiting
    queue = await client.team.queue_status()
    assert queue.saturated and queue.waiting_jobs_in_queue > 0
    app = dashboard(emulator, clock=clock.now)
    async with app.run_test(size=size) as pilot:
        line = app.query_one(CapacityLine)
        await answered(pilot, line)
        [queue_row, _] = rows(line)
        assert queue_row.endswith(mark) and f"{queue.waiting_jobs_in_queue} waiting" in queue_row
        assert line.has_class("-alarm")
        assert_whole(line)

        clock.advance(120)  # the crawl is done: nothing waits any more
        app.query_one(UsagePane).refresh_data()
        await wait_until(pilot, lambda: "⚠" not in str(line.content), "the mark to go")
        assert not line.has_class("-alarm") and "0 waiting" in rows(line)[0]


async def test_credits_under_a_tenth_are_marked_low(emulator: Emulator, client: WdsClient) -> None:
    team = emulator.team_by_key(KEY)
    assert team is not None
    used = (await client.team.credit_usage()).plan_credits - team.credits_remaining  # type: ignore[operator]
    assert used > 0, "the seeded history billed this month"
    team.credits_remaining = int(used // 9) + 1  # a tenth of the plan and a little more: not low yet
    app = dashboard(emulator, clock=emulator.clock.now)
    async with app.run_test(size=(80, 24)) as pilot:
        line = app.query_one(CapacityLine)
        await answered(pilot, line)
        assert "(10%)" in str(line.content) and "⚠" not in str(line.content)

        team.credits_remaining = int(used // 20)  # under 5% left
        app.query_one(UsagePane).refresh_data()
        await wait_until(pilot, lambda: "⚠ low" in str(line.content), "the low mark")
        [_, credits_row] = rows(line)
        assert credits_row.startswith(f"{human(team.credits_remaining)} credits (4%) ⚠ low")
        assert line.has_class("-alarm")
        assert_whole(line)


class WithoutCapacityCalls(SwitchableTransport):
    """The emulator as a service that does not offer some capacity calls (all three unless said): it answers them `status`."""

    def __init__(self, emulator: Emulator, status: int, missing: tuple[str, ...] = (QUEUE, CREDITS, WORKERS)) -> None:
        super().__init__(emulator)
        self.status = status
        self.missing = missing

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path in self.missing:
            self.paths.append(request.url.path)
            return httpx.Response(self.status, json={"success": False, "error": "Not Found"})
        return await super().handle_async_request(request)


def usage_pane_host(transport: httpx.AsyncBaseTransport, clock: ManualClock) -> tuple[PaneHost, list[UsagePane]]:
    """The usage pane alone, polling every 50 ms, on `clock`."""
    panes: list[UsagePane] = []

    def make() -> UsagePane:
        http = httpx.AsyncClient(transport=transport, base_url=BASE_URL)
        panes.append(UsagePane(client_over(http), interval=0.05, clock=clock.now, id="usage"))
        return panes[0]

    return PaneHost(make), panes


@pytest.mark.parametrize("status", [404, 405, 501])
async def test_a_service_without_the_calls_keeps_the_line_quiet_and_asks_rarely(
    emulator: Emulator, clock: ManualClock, status: int
) -> None:
    transport = WithoutCapacityCalls(emulator, status)
    host, panes = usage_pane_host(transport, clock)
    async with host.run_test(size=(80, 24)) as pilot:
        [pane] = panes
        line = pane.query_one(CapacityLine)
        await wait_until(pilot, lambda: transport.paths.count(USAGE) >= 6, "a few polls of the pane")
        assert (transport.paths.count(QUEUE), transport.paths.count(CREDITS)) == (1, 1), "asked once, not each poll"
        assert not line.display and line.stale_since is None and pane.stale_since is None

        clock.advance(ASK_AGAIN_SECONDS)
        await wait_until(pilot, lambda: transport.paths.count(QUEUE) == 2, "the rare second question")
        await wait_until(pilot, lambda: transport.paths.count(USAGE) >= 12, "more polls")
        assert (transport.paths.count(QUEUE), transport.paths.count(CREDITS)) == (2, 2)
        assert not line.display and line.stale_since is None

        transport.status = 503  # trouble the next time it asks: still nothing to say
        clock.advance(ASK_AGAIN_SECONDS)
        await wait_until(pilot, lambda: line.stale_since is not None, "the failed third question")
        await pilot.pause()
        assert not line.display and pane.stale_since is None


class TimingOut(SwitchableTransport):
    """The emulator, whose answers stop coming while `failing` (each call times out)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.failing:
            self.paths.append(request.url.path)
            raise httpx.ReadTimeout("no answer", request=request)
        return await super().handle_async_request(request)


@pytest.mark.parametrize("trouble", [SwitchableTransport, TimingOut], ids=["503", "timeout"])
async def test_a_transient_failure_marks_the_line_stale_and_keeps_its_figures(
    emulator: Emulator, clock: ManualClock, trouble: type[SwitchableTransport]
) -> None:
    transport = trouble(emulator)
    host, panes = usage_pane_host(transport, clock)
    async with host.run_test(size=(80, 24)) as pilot:
        [pane] = panes
        line = pane.query_one(CapacityLine)
        await answered(pilot, line)
        figures = rows(line)
        assert len(figures) == 2
        transport.failing = True  # every call answers 503, or never
        await wait_until(pilot, lambda: line.stale_since is not None, "the stale mark")
        await pilot.pause()
        [queue_row, credits_row] = rows(line)
        assert queue_row.startswith(f"⚠ stale since {NOW:%H:%M:%S}") and "Queue" in queue_row, queue_row
        assert credits_row == figures[1] and line.has_class("-stale")
        assert_whole(line)

        transport.failing = False  # trouble, not absence: asked again at the next poll
        asked = transport.paths.count(QUEUE)
        await wait_until(pilot, lambda: line.stale_since is None, "recovery")
        assert transport.paths.count(QUEUE) > asked and rows(line) == figures and not line.has_class("-stale")


async def test_the_line_asks_only_while_its_pane_is_seen_and_not_paused(
    transport: SwitchableTransport, clock: ManualClock
) -> None:
    host, panes = usage_pane_host(transport, clock)
    async with host.run_test(size=(120, 40)) as pilot:
        [pane] = panes
        line = pane.query_one(CapacityLine)
        await answered(pilot, line)
        await wait_until(pilot, lambda: transport.paths.count(QUEUE) >= 3, "a few polls")

        pane.toggle_pause()
        await pilot.pause(0.1)  # a poll that was on its way lands
        asked = transport.paths.count(QUEUE)
        await pilot.pause(0.4)
        assert transport.paths.count(QUEUE) == asked, "no question while paused"

        pane.toggle_pause()
        await wait_until(pilot, lambda: transport.paths.count(QUEUE) > asked, "questions again")
        pane.display = False  # out of sight (another pane zoomed)
        await pilot.pause(0.1)
        asked = transport.paths.count(QUEUE)
        await pilot.pause(0.4)
        assert transport.paths.count(QUEUE) == asked, "no question while out of sight"


async def test_a_service_without_the_queue_call_shows_the_credits_alone(emulator: Emulator, clock: ManualClock) -> None:
    transport = WithoutCapacityCalls(emulator, 404, missing=(QUEUE,))
    host, panes = usage_pane_host(transport, clock)
    async with host.run_test(size=(120, 40)) as pilot:
        line = panes[0].query_one(CapacityLine)
        await answered(pilot, line)
        await wait_until(pilot, lambda: transport.paths.count(CREDITS) >= 4, "a few polls")
        [row] = rows(line)
        assert row.startswith("Credits") and "Queue" not in row and "success" not in row and "⚠" not in row
        assert transport.paths.count(QUEUE) == 1


async def test_r_on_the_usage_pane_asks_the_line_at_once(emulator: Emulator, transport: SwitchableTransport) -> None:
    app = dashboard(emulator, transport)  # panes poll hourly: only r asks again
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        line = pane.query_one(CapacityLine)
        await answered(pilot, line)
        assert line.interval == QUEUE_SECONDS < pane.interval, "an hourly pane's line polls every 15 s"
        asked = transport.paths.count(QUEUE), transport.paths.count(CREDITS)
        await pilot.press("r")
        await wait_until(pilot, lambda: transport.paths.count(CREDITS) > asked[1], "the line's questions")
        assert transport.paths.count(QUEUE) == asked[0] + 1
