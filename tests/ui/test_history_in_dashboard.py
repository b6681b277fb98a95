"""The history in the whole dashboard, on its own monitor's journal: H and the palette open it, the away line shows
once the journal (written by a run before) is open, Enter opens its span, and the run's end is written before the
journal closes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from textual.widgets import Static

from tests.support.dashboard import NOW, dashboard, seeded_emulator, wait_until
from tests.ui.history_seed import HISTORY_NOW, TODAY, seeded_journal, thirty_days
from tests.ui.test_commands import run_hit, search
from tui.dashboard.features.history.away import AwayLine
from tui.dashboard.features.history.screen import HistoryScreen
from tui.monitor.journal import DashboardSeen, Journal
from tui.monitor.settings import MonitorSettings

LEFT = TODAY + 6 * 3600  # the last run ended at 06:00 today; the seed goes on to 12:00


async def test_the_away_line_opens_its_span_and_the_run_is_recorded_until_its_end(tmp_path: Path) -> None:
    before = await seeded_journal(tmp_path / "default.sqlite3", [*thirty_days(), DashboardSeen(LEFT)])
    await before.aclose()  # a run that ended: its journal closed
    moments = [NOW]
    app = dashboard(seeded_emulator(), clock=lambda: moments[0], monitoring=MonitorSettings(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        line = app.query_one(AwayLine)
        await wait_until(pilot, lambda: line.display and line.has_focus, "the away line, with the focus", seconds=10)
        assert str(line.render()).startswith("while you were away (since 06:00): ")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        await wait_until(pilot, lambda: screen.figures is not None, "the figures")
        assert str(screen.query_one("#history-title", Static).render()) == "History · since 06:00"
        await pilot.press("escape")
        moments[0] = NOW + timedelta(hours=1)
    after = Journal(tmp_path / "default.sqlite3")
    assert after.read_now(lambda queries: queries.dashboard_seen()) == HISTORY_NOW + 3600
    after.close()


async def test_h_and_the_palette_open_thirty_days(tmp_path: Path) -> None:
    journal = await seeded_journal(tmp_path / "default.sqlite3")
    await journal.aclose()
    app = dashboard(seeded_emulator(), monitoring=MonitorSettings(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor")
        hits = await search(pilot, "history")
        assert hits["App: History (the journal)"] == "key H"
        await run_hit(pilot, "App: History (the journal)")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        await wait_until(pilot, lambda: screen.figures is not None, "the figures")
        assert screen.figures is not None and len(screen.figures.days) == 30 and not screen.figures.empty
        await pilot.press("escape")
        await pilot.press("H")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history by its key")
