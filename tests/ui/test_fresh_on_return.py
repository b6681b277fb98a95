"""Back from a screen, a pane shows fresh data or says how old its data is, and the header never claims more.

The dashboard runs on the emulator's manual clock: the test leaves it on the
help screen for longer than the panes' interval, changes the service's data,
and comes back. Requests are held at a gate, so the test sees the age mark
first, then the new data once the answers are let through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from textual.pilot import Pilot

from tests.support.dashboard import KEY, SLOW, SwitchableTransport, dashboard, settle, wait_until
from tui.dashboard.features.usage.pane import UsagePane
from tui.dashboard.kit.pane import Pane, PaneStatus
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.kit.widgets.status_header import StatusHeader
from tui.dashboard.shell.app import WdsApp
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


class Gate(httpx.AsyncBaseTransport):
    """Requests wait while the gate is closed."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.open = asyncio.Event()
        self.open.set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await self.open.wait()
        return await self.inner.handle_async_request(request)


def panes(app: WdsApp) -> list[Pane]:
    return list(app.screen_stack[0].query(Pane))


def status(pane: Pane) -> str:
    line = pane.query_one(PaneStatus)
    return str(line.render()) if line.display else ""


def this_month_tokens(pane: UsagePane) -> str:
    table = pane.query_one(LiveTable)
    return str(table.get_row(next(iter(table.row_keys)))[2])


def header_no_newer_than_the_oldest_pane(app: WdsApp) -> None:
    header = app.query_one(StatusHeader)
    oldest = min(pane.last_success for pane in panes(app) if pane.last_success is not None)
    assert header.last_refresh is not None and header.last_refresh <= oldest


async def back_from_help(pilot: Pilot[object], clock: ManualClock, change: Callable[[], object]) -> None:
    """Open the help, let more than an interval pass while `change` alters the service, close the help."""
    await pilot.press("question_mark")
    await wait_until(pilot, lambda: len(pilot.app.screen_stack) == 2, "the help screen")
    clock.advance(SLOW + 60)  # longer than every pane's interval
    change()
    await pilot.press("escape")
    await wait_until(pilot, lambda: len(pilot.app.screen_stack) == 1, "the dashboard again")


async def test_back_from_a_screen_old_data_is_marked_until_the_fresh_answer_lands(
    emulator: Emulator, clock: ManualClock
) -> None:
    gate = Gate(SwitchableTransport(emulator))
    app = dashboard(emulator, gate, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        usage = app.query_one(UsagePane)
        before = this_month_tokens(usage)
        header = app.query_one(StatusHeader)
        assert header.render().plain.endswith("updated 12:00:00")

        team = emulator.team_by_name("ops")
        assert team is not None
        gate.open.clear()  # the refreshes asked for on return wait here
        await back_from_help(pilot, clock, lambda: emulator.charge(team, KEY, 10))

        # Within 1 s: every pane says how old its data is, and the header says it too.
        await wait_until(
            pilot,
            lambda: all(status(pane) == "as of 12:00 · refreshing" for pane in panes(app)),
            "every pane marked as of 12:00",
            seconds=1,
        )
        assert this_month_tokens(usage) == before  # still the old answer, and marked so
        assert header.render().plain.endswith("updated 12:00:00 · refreshing")
        header_no_newer_than_the_oldest_pane(app)

        gate.open.set()
        await wait_until(pilot, lambda: this_month_tokens(usage) != before, "the new usage", seconds=1)
        await wait_until(pilot, lambda: not any(status(pane) for pane in panes(app)), "the marks gone", seconds=1)
        header_no_newer_than_the_oldest_pane(app)
        assert header.render().plain.endswith("updated 13:01:00")


async def test_the_header_never_claims_more_than_the_oldest_pane_while_they_come_back_one_by_one(
    emulator: Emulator, clock: ManualClock
) -> None:
    transport = SwitchableTransport(emulator)
    app = dashboard(emulator, transport, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await back_from_help(pilot, clock, lambda: None)
        for _ in range(50):  # each step, whichever answers have landed: never a time newer than the oldest
            header_no_newer_than_the_oldest_pane(app)
            if all(pane.last_success == clock.now() for pane in panes(app)):
                break
            await pilot.pause(0.02)
        else:
            raise AssertionError("the panes did not all refresh within 1 s of coming back")
        await pilot.pause()
        assert app.query_one(StatusHeader).last_refresh == clock.now()


async def test_a_pane_back_from_a_zoom_with_old_data_fetches_at_once(emulator: Emulator, clock: ManualClock) -> None:
    transport = SwitchableTransport(emulator)
    app = dashboard(emulator, transport, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.zoom(app.query_one("#activity", Pane))
        await pilot.pause()
        clock.advance(SLOW + 60)
        usage = app.query_one(UsagePane)
        assert usage.last_success is not None and usage.last_success < clock.now()
        app.zoom(None)
        await wait_until(pilot, lambda: usage.last_success == clock.now(), "the usage pane's fetch", seconds=1)


async def test_a_pane_back_with_data_younger_than_its_interval_does_not_fetch(
    emulator: Emulator, clock: ManualClock
) -> None:
    transport = SwitchableTransport(emulator)
    app = dashboard(emulator, transport, clock=clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)

        def panes_asked() -> int:
            # Not the capacity line's calls: it polls at least every 15 s, so it asks again (its own tests).
            return sum(1 for path in transport.paths if path not in ("/v2/team/queue-status", "/v2/team/credit-usage"))

        asked = panes_asked()
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: len(app.screen_stack) == 2, "the help screen")
        clock.advance(SLOW - 60)
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert panes_asked() == asked
        assert not any(status(pane) for pane in panes(app))
