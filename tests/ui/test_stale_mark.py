"""A pane says "stale since" only over data it once had; before any, it says there is none yet and why."""

from __future__ import annotations

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    frozen_clock,
    seeded_emulator,
    wait_until,
)
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.kit.pane import PaneStatus


def host(transport: SwitchableTransport) -> PaneHost:
    client = client_on(transport)
    return PaneHost(lambda: ActivityPane(client, interval=3600, clock=frozen_clock(NOW), id="activity"))


async def test_a_pane_that_never_had_data_says_so_not_stale() -> None:
    transport = SwitchableTransport(seeded_emulator())
    transport.failing = True
    app = host(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await wait_until(pilot, lambda: pane.failure is not None, "the first failure")
        await pilot.pause()
        status = str(pane.query_one(PaneStatus).content)
        assert "stale" not in status
        assert "no data yet: " in status and "Service unavailable" in status


async def test_a_pane_that_had_data_is_stale_since_its_last_answer() -> None:
    transport = SwitchableTransport(seeded_emulator())
    app = host(transport)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await wait_until(pilot, lambda: pane.data is not None, "the first page")
        transport.failing = True
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.failure is not None, "the failure")
        await pilot.pause()
        status = str(pane.query_one(PaneStatus).content)
        assert "stale since" in status and "no data yet" not in status
