"""A dashboard started after `wds-tui watch` reads what watch wrote, from its first frames: the real watch
process records a served emulator until a failed job has raised an alert, is stopped with SIGTERM, and the
dashboard opened on the same context (its journal in the same state folder) says what happened while you
were away, lists watch's alert as the journal's (A), and shows the calls in its history (H)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support.dashboard import SLOW, wait_until
from tests.support.processes import served_emulator
from tests.watch.watch_process import KEY, call, journal_file, watching, write_config
from tui.api.client import WdsClient
from tui.contract.redact import mask_key
from tui.dashboard.features.alerts.screen import AlertsScreen
from tui.dashboard.features.history.away import AwayLine
from tui.dashboard.features.history.screen import HistoryScreen
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.service_info import ServiceInfo
from tui.dashboard.startup.app_factory import make_app
from tui.monitor.settings import MonitorSettings, read_monitor_settings

pytestmark = pytest.mark.socket

CONTEXT = "emu"
HOST = "shop.away.test"
"""The only host watch's rule counts (one failure raises it); the dashboard's rules need three."""


def watch_config(home: Path, base_url: str) -> None:
    write_config(
        home,
        f"""current = "{CONTEXT}"

[contexts.{CONTEXT}]
base_url = "{base_url}"

[contexts.{CONTEXT}.alerts.job_failed]
count = 1
hosts = ["{HOST}"]
""",
    )


def dashboard_rules() -> MonitorSettings:
    """The dashboard's own rules: the defaults (three failures before job_failed), no terminal notification."""
    settings, warnings = read_monitor_settings({"delivery": {"notification": "off", "bell": False}}, None)
    assert warnings == []
    return settings


def rows(table: LiveTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


async def test_a_dashboard_opened_after_watch_shows_what_watch_saw(tmp_path: Path) -> None:
    with served_emulator(KEY, 5) as base_url:
        watch_config(tmp_path, base_url)
        with watching(tmp_path, "--refresh", "1") as watch:
            watch.wait_for(lambda line: line["event"] == "watching")
            failed = call(base_url, "POST", "/v2/scrape", json={"url": f"https://{HOST}/gone/1"}).json()
            assert failed["data"]["metadata"]["statusCode"] == 404
            fired = watch.wait_for(lambda line: line["event"] == "alert" and line["subject"] == HOST)
            assert fired["what"] == "fired" and fired["context"] == CONTEXT
            assert watch.stop() == 0
        # watch's journal is the context's file in the state folder: where the dashboard looks for it.
        journal_dir = tmp_path / "state" / "wds-tui" / "journal"
        assert journal_file(tmp_path, CONTEXT).parent == journal_dir and journal_file(tmp_path, CONTEXT).exists()

        client = WdsClient(base_url, KEY, max_retries=0)
        service = ServiceInfo(host=base_url.removeprefix("http://"), masked_key=mask_key(KEY), context=CONTEXT)
        app = make_app(
            client,
            service,
            clock=lambda: datetime.now(UTC),
            refresh=SLOW,
            monitoring=dashboard_rules(),
            journal_dir=journal_dir,
        )
        async with app.run_test(size=(120, 40)) as pilot:
            line = app.query_one(AwayLine)
            await wait_until(pilot, lambda: line.display, "the away line", seconds=15)
            said = str(line.render())
            assert said.startswith("while you were away (since ") and "1 failed scrape" in said

            await pilot.press("escape", "A")
            await wait_until(pilot, lambda: isinstance(app.screen, AlertsScreen), "the alerts screen")
            alerts = app.screen
            table = alerts.query_one(LiveTable)
            await wait_until(pilot, lambda: any(HOST in row for row in rows(table)), "watch's alert")
            row = next(row for row in rows(table) if HOST in row)
            assert row[1:3] == ["job_failed", HOST] and row[5] == "journal"
            while alerts.query_one(LiveTable).selected_key() != next(
                key for key in table.row_keys if HOST in [str(cell) for cell in table.get_row(key)]
            ):
                await pilot.press("down")
            assert "from the journal" in str(alerts.query_one("#alerts-detail", Static).render())

            await pilot.press("escape", "H")
            await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
            history = app.screen
            assert isinstance(history, HistoryScreen)
            await wait_until(pilot, lambda: history.figures is not None, "the figures", seconds=15)
            figures = history.figures
            assert figures is not None and not figures.empty
            scrapes = sum(count for (_day, kind), count in figures.calls.items() if kind == "scrape")
            assert scrapes >= 1 and figures.total_failed >= 1
        await client.aclose()
