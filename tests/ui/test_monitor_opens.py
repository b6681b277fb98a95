"""The dashboard's monitor: opened after the first frame, its journal per context, closed (and written) at exit."""

from __future__ import annotations

from pathlib import Path

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tui.monitor.settings import MonitorSettings


async def test_the_monitor_opens_after_start_and_its_journal_is_written_at_exit(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), monitoring=MonitorSettings(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor to open")
        assert app.monitor is not None and app.monitor.journal is not None
        assert app.monitor.journal.path == tmp_path / "default.sqlite3"
        assert app.monitor.journal.disabled is None
    assert app.monitor is None  # closed with the app
    assert (tmp_path / "default.sqlite3").exists()


async def test_without_monitoring_settings_there_is_no_monitor_and_no_file(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.monitor is None
    assert list(tmp_path.iterdir()) == []
