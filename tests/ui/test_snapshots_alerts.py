"""Pictures of the alerts screen (A), at 120x40 and 80x24: this run's alerts firing, and one the journal resolved.

The dashboard's clock is frozen at NOW, so every time on screen is fixed; the
journal lives in the test's folder, with one alert an earlier run (or
`wds-tui watch`) fired and saw resolve. Update after an intended change with
`pytest tests/ui/test_snapshots_alerts.py --snapshot-update` and look at the pictures.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import NOW, dashboard, freeze_cursors, seeded_emulator, settle, wait_until
from tests.ui.alerts_helpers import ONE_SEEDED_FAILURE, firing, rules
from tui.dashboard.features.alerts.screen import AlertsScreen
from tui.monitor.alert_notices import alert_id
from tui.monitor.journal import AlertRecord, Journal

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
CRAWL = "5f0c2a9e-1b7d-4c3e-9a8f-2d6b1e4c7a90"


def journal_with_a_resolved_crawl(folder: Path) -> None:
    fired = NOW - timedelta(hours=3)
    journal = Journal(folder / "default.sqlite3")
    journal.add(
        AlertRecord(
            alert_id("crawl_failed", CRAWL, fired),
            "crawl_failed",
            "resolved",
            fired.timestamp(),
            resolved_at=(fired + timedelta(hours=1)).timestamp(),
            detail={
                "subject": CRAWL,
                "sentence": f"crawl {CRAWL} was cancelled after 12 of 40 pages",
                "repeats": 1,
                "opens": {"kind": "crawl", "id": CRAWL},
            },
        )
    )
    journal.close()


@size_ids
def test_alerts_screen(snap_compare, size, tmp_path: Path) -> None:
    journal_with_a_resolved_crawl(tmp_path)
    app = dashboard(
        seeded_emulator(), monitoring=rules(job_failed=ONE_SEEDED_FAILURE, credits={"min_remaining_percent": 99.5}),
        journal_dir=tmp_path,
    )  # fmt: skip

    async def run(pilot: Pilot) -> None:
        await wait_until(pilot, lambda: bool(firing(app, "credits")), "the credits alert")
        await settle(pilot)  # every row's state asked: at 120x40 the failed scrape is on screen, and fires
        app.clear_notifications()  # the toasts said it already: the picture is the screen's
        await pilot.press("A")
        await wait_until(pilot, lambda: isinstance(app.screen, AlertsScreen), "the alerts screen")
        await pilot.pause()
        freeze_cursors(app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)
