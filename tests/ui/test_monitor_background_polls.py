"""The dashboard's monitor does not depend on what is on screen: its background polls journal what no pane shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.dashboard import SwitchableTransport, client_on, dashboard, seeded_emulator, wait_until
from tui.dashboard.shell import monitoring
from tui.monitor.settings import MonitorSettings

PANE_PAGE = 25
"""Rows the activity pane shows on a page: what the panes alone could have fed."""


def activity_rows(app) -> int:  # type: ignore[no-untyped-def]
    journal = app.monitor.journal
    return journal.read_now(lambda q: q._connection.execute("SELECT count(*) FROM activity").fetchone()[0])


async def test_every_activity_entry_reaches_the_journal_while_another_screen_covers_the_panes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(monitoring, "FIRST_BACKGROUND_POLL", 0.0)
    emulator = seeded_emulator()
    transport = SwitchableTransport(emulator)
    app = dashboard(
        emulator, transport, monitoring=MonitorSettings(), journal_dir=tmp_path, monitor_client=client_on(transport)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("H")  # the history screen covers the panes: they stop polling
        await wait_until(pilot, lambda: app.monitor is not None and app.monitor_poller is not None, "the polls")
        monitor = app.monitor
        assert monitor is not None and monitor.journal is not None

        async def flushed_rows() -> int:
            await monitor.journal.flush()  # type: ignore[union-attr]
            return activity_rows(app)

        for _ in range(100):
            if await flushed_rows() > PANE_PAGE:
                break
            await pilot.pause(0.1)
        assert await flushed_rows() > PANE_PAGE
        assert app.monitor_poller.stats.polls["activity"] >= 1  # type: ignore[union-attr]


async def test_without_a_monitor_client_no_background_polls_run(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), monitoring=MonitorSettings(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor")
        await pilot.pause(0.2)
        assert app.monitor_poller is None
