"""The history screen on a journal written by 30 emulated days of a seeded run (`history_run`): the real
emulator's traffic, polled by watch's real Poller into a real Monitor. Each tab shows the 30 days: calls per
day (as many as the traffic made), failures per day with their share, credits per day and per key (from the
usage snapshots' deltas), and the crawls and batches that ended each day (every one the traffic started)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    frozen_clock,
    seeded_emulator,
    wait_until,
)
from tests.ui.history_run import FIRST_DAY, KEYS, journal_at_the_end, thirty_days_watched
from tests.ui.history_seed import watching
from tui.contract.redact import mask_key
from tui.dashboard.features.history.figures import utc_day
from tui.dashboard.features.history.screen import HistoryScreen
from tui.dashboard.kit.widgets.chart_bars import ChartBars
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.intents import OpenHistory
from tui.dashboard.shell.navigation import Navigator

THIRTY_DAYS = tuple(utc_day(FIRST_DAY.timestamp() + day * 86400) for day in range(30))


def cells(screen: HistoryScreen, name: str) -> list[list[str]]:
    table = screen.query_one(f"#history-{name}", LiveTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


def count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute(sql).fetchone()[0])


async def open_history(pilot: Pilot[Any]) -> HistoryScreen:
    pilot.app.post_message(OpenHistory())
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen), "the history screen")
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    await wait_until(pilot, lambda: screen.figures is not None, "the journal's figures", seconds=15)
    await pilot.pause()
    return screen


async def test_thirty_days_polled_by_watch_show_on_every_tab(tmp_path: Path) -> None:
    run = await thirty_days_watched(tmp_path)
    journal = journal_at_the_end(run)
    assert run.refused == 0 and len({day for day, _kind in run.calls}) == 30
    in_span = f"created_at >= {FIRST_DAY.timestamp()}"
    # Every call the traffic made reached the journal, with its job's final state (only a crawl still going has none).
    unfinished = count(
        run.journal_path,
        f"SELECT count(*) FROM activity WHERE {in_span} AND status IS NULL"
        " AND kind IN ('scrape', 'crawl', 'batch_scrape')",
    )
    assert unfinished <= 2

    client = client_on(SwitchableTransport(seeded_emulator()))
    navigator = Navigator(client, clock=frozen_clock(NOW), hyperlinks=False, monitoring=watching(journal))
    host = PaneHost(lambda: Static("the dashboard"), navigator=navigator)
    async with host.run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot)
        figures = screen.figures
        assert figures is not None and figures.days == THIRTY_DAYS

        # Calls: 30 days, each day's calls as the traffic made them (kinds the traffic makes: what it made).
        shown_calls = {(day, kind): int(calls.replace(",", "")) for day, kind, calls in cells(screen, "calls")}
        assert {day for day, _kind in shown_calls} == set(THIRTY_DAYS)
        assert {key: shown_calls.get(key, 0) for key in run.calls} == dict(run.calls)
        drawn = screen.query_one("#history-chart-calls").query_one(ChartBars)
        assert drawn.labels == tuple(day[5:] for day in THIRTY_DAYS)

        # Failures: a row a day, with the day's calls, failures and share; the traffic's failing pages among them.
        await pilot.press("f")
        assert screen.query_one(TabbedContent).active == "failures"
        failures = cells(screen, "failures")
        assert [row[0] for row in failures] == list(reversed(THIRTY_DAYS))
        for day, total, failed, share in failures:
            assert int(total) == sum(count for (each, _kind), count in shown_calls.items() if each == day)
            assert float(share) == round(100 * int(failed) / int(total), 1)
        assert sum(int(row[2]) for row in failures) > 0 and cells(screen, "hosts") and cells(screen, "causes")

        # Credits: every day used some, split between the two keys, from the usage snapshots' deltas.
        await pilot.press("u")
        per_day = {day: float(credits.replace(",", "")) for day, credits in cells(screen, "credits-per-day")}
        assert set(per_day) == set(THIRTY_DAYS) and all(credits > 0 for credits in per_day.values())
        per_key = {key: float(credits.replace(",", "")) for key, credits in cells(screen, "credits-per-key")}
        assert set(per_key) == {mask_key(key) for key in KEYS} and all(credits > 0 for credits in per_key.values())
        assert sum(per_key.values()) == sum(per_day.values())

        # Crawls and batches: each one the traffic started and that ended is counted on the day it ended.
        await pilot.press("b")
        finished = cells(screen, "finished")
        ended = sum(int(row[3]) for row in finished)
        started = sum(n for (_day, kind), n in run.calls.items() if kind in ("crawl", "batch_scrape"))
        still_going = count(run.journal_path, "SELECT count(*) FROM crawls_batches WHERE finished_at IS NULL")
        before_the_span = count(
            run.journal_path,
            f"SELECT count(*) FROM activity WHERE NOT ({in_span}) AND kind IN ('crawl', 'batch_scrape')",
        )
        assert ended + still_going == started + before_the_span  # the seeded day before ended in the first poll
        assert len({row[0] for row in finished}) >= 28  # a quiet day may have none end
    journal.close()
    await client.aclose()
