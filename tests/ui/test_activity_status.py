"""The activity pane's status column: each kind's state, few requests, only for rows on screen."""

from __future__ import annotations

import asyncio

import httpx
from textual.pilot import Pilot

from tests.ui.conftest import PaneHost, SwitchableTransport, dashboard, frozen_clock, settle, wait_until, NOW
from tui.api.client import WdsClient
from tui.emulator.service import Emulator
from tui.panes.activity import ActivityPane, ActivityTable

RETRIEVAL_PREFIXES = ("/v2/scrape/", "/v2/crawl/", "/v2/batch/scrape/", "/v2/extract/")


def status_paths(paths: list[str]) -> list[str]:
    return [path for path in paths if path.startswith(RETRIEVAL_PREFIXES) and not path.endswith("/active")]


async def statuses_settled(pilot: Pilot, pane: ActivityPane) -> None:
    await settle(pilot)
    await wait_until(
        pilot,
        lambda: pane._status_worker is not None and pane._status_worker.is_finished,
        "the status checks",
    )
    await pilot.pause()


def shown(pane: ActivityPane) -> dict[str, tuple[str, str]]:
    """Row key -> (kind, status text) of every row."""
    table = pane.query_one(ActivityTable)
    return {key: (str(table.get_row(key)[1]), str(table.get_row(key)[2])) for key in table.row_keys}


async def test_explore(emulator: Emulator, transport: SwitchableTransport) -> None:
    app = dashboard(emulator, transport)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(ActivityPane)
        await statuses_settled(pilot, pane)
        table = pane.query_one(ActivityTable)
        print(len(table.visible_keys()), len(status_paths(transport.paths)))
        for key, row in shown(pane).items():
            print(row, key in table.visible_keys())
        print(table.virtual_size, table.size, [c.get_render_width(table) for c in table.ordered_columns])
        assert 0
