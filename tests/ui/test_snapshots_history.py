"""Pictures of the history screen over 30 seeded days, at 120x40 and 80x24: the calls tab, and the failures tab
with its hosts and causes (one cause reads like markup and shows as written).

The journal's clock and the screen's stand at the dashboard tests' NOW; days are UTC days.
Update after an intended change with
`pytest tests/ui/test_snapshots_history.py --snapshot-update` and look at the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    frozen_clock,
    seeded_emulator,
    wait_until,
)
from tests.ui.history_seed import HISTORY_NOW, thirty_days, watching
from tui.dashboard.features.history.screen import HistoryScreen
from tui.dashboard.shell.intents import OpenHistory
from tui.dashboard.shell.navigation import Navigator
from tui.monitor.journal import Journal

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


def history_app(path: Path) -> tuple[PaneHost, Journal]:
    """A host that opens the history as the dashboard does, over a journal being written with the 30 seeded days."""
    journal = Journal(path, clock=lambda: HISTORY_NOW)
    for record in thirty_days():
        journal.add(record)
    client = client_on(SwitchableTransport(seeded_emulator()))  # the navigator's; the history asks it nothing
    navigator = Navigator(client, clock=frozen_clock(NOW), hyperlinks=False, monitoring=watching(journal))
    return PaneHost(lambda: Static("the dashboard"), navigator=navigator), journal


def opened_on(journal: Journal, *keys: str) -> Any:
    async def run(pilot: Pilot) -> None:
        await journal.flush()
        pilot.app.post_message(OpenHistory())
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen), "the history")
        screen = pilot.app.screen
        assert isinstance(screen, HistoryScreen)
        await wait_until(pilot, lambda: screen.figures is not None, "the figures")
        await pilot.press(*keys)
        await wait_until(pilot, lambda: len(screen.query("ChartBars")) == 4, "every chart's bars")
        await pilot.pause()

    return run


@size_ids
def test_history_calls(snap_compare, size, tmp_path: Path) -> None:
    app, journal = history_app(tmp_path / "ops.sqlite3")
    try:
        assert snap_compare(app, terminal_size=size, run_before=opened_on(journal, "c"))
    finally:
        journal.close()


@size_ids
def test_history_failures(snap_compare, size, tmp_path: Path) -> None:
    app, journal = history_app(tmp_path / "ops.sqlite3")
    try:
        assert snap_compare(app, terminal_size=size, run_before=opened_on(journal, "f"))
    finally:
        journal.close()
