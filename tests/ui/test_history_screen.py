"""The history screen (H) over a journal of 30 seeded days: its charts and lists, its spans, its export, and the
sentences it says instead when there is no journal, a journal turned off or disabled, or nothing in the span."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static, TabbedContent

from tests.support.dashboard import NOW, PaneHost, frozen_clock, wait_until
from tests.ui.history_seed import (
    HISTORY_NOW,
    KEYS,
    TODAY,
    Monitoring,
    day_name,
    expected_calls,
    expected_causes,
    seeded_journal,
    thirty_days,
    watching,
)
from tui.api.client import WdsClient
from tui.contract.redact import mask_key
from tui.dashboard.features.history.journal_state import JOURNAL_OFF, MONITORING_OFF, OPENING
from tui.dashboard.features.history.screen import HistoryScreen
from tui.dashboard.kit.export_dialog import ExportScreen
from tui.dashboard.kit.widgets.chart_bars import ChartBars
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.intents import OpenHistory
from tui.dashboard.shell.navigation import Navigator
from tui.monitor.journal import ActivityRecord, Journal


def history_host(client: WdsClient, monitoring: Monitoring) -> PaneHost:
    """A host that opens what the history asks (the export dialog) as the dashboard does."""
    navigator = Navigator(client, clock=frozen_clock(NOW), hyperlinks=False, monitoring=monitoring)
    return PaneHost(lambda: Static("the dashboard"), navigator=navigator)


async def open_history(pilot: Pilot[Any], since: float | None = None) -> HistoryScreen:
    pilot.app.post_message(OpenHistory(since=since))
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen), "the history screen")
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    await wait_until(pilot, lambda: screen.figures is not None, "the journal's figures")
    await pilot.pause()
    return screen


def cells(screen: HistoryScreen, name: str) -> list[list[str]]:
    table = screen.query_one(f"#history-{name}", LiveTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


def message(screen: HistoryScreen) -> str:
    return str(screen.query_one("#history-message", Static).render())


async def test_thirty_days_on_every_tab(client: WdsClient, tmp_path: Path) -> None:
    records = thirty_days()
    journal = await seeded_journal(tmp_path / "prod.sqlite3", records)
    first = TODAY - 29 * 86400
    async with history_host(client, watching(journal)).run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot)
        assert str(screen.query_one("#history-title", Static).render()) == "History · last 30 days"
        calls = expected_calls(records, first)
        assert not screen.query_one("#history-message").display
        summary = str(screen.query_one("#history-summary", Static).render())
        assert summary.startswith(f"{sum(calls.values()):,} calls · ")

        bars = screen.query_one("#history-chart-calls").query(ChartBars)
        await wait_until(pilot, lambda: bool(bars.results()), "the calls' bars")
        drawn = screen.query_one("#history-chart-calls").query_one(ChartBars)
        assert drawn.labels == tuple(day_name(offset)[5:] for offset in range(-29, 1)) and drawn.stacked
        per_kind: Counter[str] = Counter()
        for (_day, kind), count in calls.items():
            per_kind[kind] += count
        assert {one.name: sum(one.values) for one in drawn.series} == dict(per_kind)

        rows = cells(screen, "calls")
        assert rows[0][0] == day_name(0) and len(rows) == len(calls)

        await pilot.press("f")
        assert screen.query_one(TabbedContent).active == "failures"
        causes = expected_causes(records, first)
        assert dict(screen.lists["causes"].rows) == dict(causes)  # what the list holds (and exports) whole
        # Outside text is shown as it is (cut to fit three lists in 120 columns), never read as markup.
        assert any(row[0].startswith("[bold]blocked[") for row in cells(screen, "causes"))
        assert {row[0] for row in cells(screen, "hosts")} == {
            "shop.example",
            "blog.example",
            "api.example",
            "docs.example",
        }
        failures = cells(screen, "failures")
        assert failures[0][0] == day_name(0)
        assert all(float(share) == round(100 * int(failed) / int(total), 1) for _day, total, failed, share in failures)

        await pilot.press("u")
        keys = {row[0] for row in cells(screen, "credits-per-key")}
        assert keys == {mask_key(key) for key in KEYS}  # never a whole key
        assert len(cells(screen, "credits-per-day")) == 29  # 30 readings a key: the first is the base

        await pilot.press("b")
        finished = cells(screen, "finished")
        assert finished and all(row[1] in ("crawl", "batch") for row in finished)
    await journal.aclose()


async def test_d_steps_the_span_and_a_since_span_starts_at_its_moment(client: WdsClient, tmp_path: Path) -> None:
    records = thirty_days()
    journal = await seeded_journal(tmp_path / "prod.sqlite3", records)
    async with history_host(client, watching(journal)).run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot)
        for title, days in (("last 7 days", 7), ("today (UTC)", 1), ("last 30 days", 30)):
            await pilot.press("d")
            await wait_until(pilot, lambda d=days: screen.figures is not None and len(screen.figures.days) == d, title)
            assert str(screen.query_one("#history-title", Static).render()) == f"History · {title}"
        await pilot.press("escape")

        since = TODAY - 2 * 86400 + 18 * 3600 + 120  # two days ago at 18:02
        screen = await open_history(pilot, since=since)
        assert str(screen.query_one("#history-title", Static).render()) == "History · since 06-13 18:02"
        assert screen.figures is not None and screen.figures.days == (day_name(-2), day_name(-1), day_name(0))
        assert sum(int(row[2]) for row in cells(screen, "calls")) == sum(expected_calls(records, since).values())
    await journal.aclose()


async def test_a_list_exports_as_csv(client: WdsClient, tmp_path: Path) -> None:
    records = thirty_days()
    journal = await seeded_journal(tmp_path / "prod.sqlite3", records)
    async with history_host(client, watching(journal)).run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot)
        await pilot.press("f")
        screen.query_one("#history-causes", LiveTable).focus()
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ExportScreen), "the export dialog")
        dialog = pilot.app.screen
        path = dialog.query_one("#export-path", Input)
        assert path.value == "history-causes-last-30-days.csv"
        path.value = str(tmp_path / "causes.csv")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: (tmp_path / "causes.csv").exists(), "the file")
    with open(tmp_path / "causes.csv", newline="") as file:
        exported = list(csv.DictReader(file))
    assert {row["cause"]: int(row["failures"]) for row in exported} == dict(
        expected_causes(records, TODAY - 29 * 86400)
    )
    await journal.aclose()


async def test_an_empty_journal_says_how_history_comes(client: WdsClient, tmp_path: Path) -> None:
    journal = await seeded_journal(tmp_path / "new.sqlite3", [])
    async with history_host(client, watching(journal)).run_test(size=(80, 24)) as pilot:
        screen = await open_history(pilot)
        assert message(screen) == (
            "Nothing in the journal for this span (last 30 days): it fills while a dashboard "
            "or 'wds-tui watch' runs for this context."
        )
        assert not screen.query_one("#history-tabs").display
        await pilot.press("s", "f")  # nothing to export, no tab to show: nothing happens
        assert pilot.app.screen is screen
    await journal.aclose()


async def test_no_monitoring_a_problem_opening_no_journal_or_a_disabled_one_each_say_why(
    client: WdsClient, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the journal's folder should be")
    disabled = Journal(blocker / "prod.sqlite3", clock=lambda: HISTORY_NOW)
    assert disabled.disabled is not None
    for monitoring, said in (
        (Monitoring(None, monitor_settings=None), MONITORING_OFF),
        (Monitoring(None, monitor_problem="monitoring is off: Permission denied"), "No history: monitoring is off: "),
        (Monitoring(None), OPENING),
        (watching(None), JOURNAL_OFF),
        (watching(disabled), f"The journal is off: {disabled.disabled.reason}."),
    ):
        async with history_host(client, monitoring).run_test(size=(80, 24)) as pilot:
            pilot.app.post_message(OpenHistory())
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen), "the history screen")
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen)
            await pilot.pause()
            assert message(screen).startswith(said) and screen.figures is None
            assert not screen.query_one("#history-tabs").display


async def test_hosts_and_causes_from_outside_are_shown_as_text(client: WdsClient, tmp_path: Path) -> None:
    hostile = [
        ActivityRecord(
            "h1", "scrape", HISTORY_NOW - 60, "https://[red]x.example/", "failed", "[blink]bad[/blink]\x1b[31m"
        ),
        ActivityRecord("h2", "scrape", HISTORY_NOW - 30, "https://ok.example/\x1b]8;;evil\x07", "failed", "ok\x9b2J"),
    ]
    journal = await seeded_journal(tmp_path / "prod.sqlite3", hostile)
    async with history_host(client, watching(journal)).run_test(size=(160, 40)) as pilot:
        screen = await open_history(pilot)
        await pilot.press("f")
        shown = [cell for name in ("hosts", "causes") for row in cells(screen, name) for cell in row]
        assert "https://[red]x.example/" in shown and any(cell.startswith("[blink]bad[/blink]") for cell in shown)
        assert not any(control in cell for cell in shown for control in ("\x1b", "\x9b", "\x07"))
    await journal.aclose()
