"""The line that says what happened while you were away: only when the journal learnt something since the last run,
Enter opens the history from then, Esc dismisses it, and each run's start and end are recorded for the next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.support.dashboard import NOW, PaneHost, frozen_clock, wait_until
from tests.ui.history_seed import HISTORY_NOW, TODAY, seeded_journal, watching
from tui.api.client import WdsClient
from tui.dashboard.features.history import away
from tui.dashboard.features.history.away import AwayLine
from tui.dashboard.features.history.screen import HistoryScreen
from tui.dashboard.shell.navigation import Navigator
from tui.monitor.journal import ActivityRecord, CrawlOrBatchRecord, DashboardSeen, Journal, Record, UsageSnapshot

LEFT = TODAY + 9 * 3600 + 120  # the last run ended at 09:02 today; now is 12:00
WHILE_AWAY: list[Record] = [
    ActivityRecord("seen", "scrape", LEFT - 60, "https://a.example/0", "failed", "timeout"),
    ActivityRecord("s1", "scrape", LEFT + 60, "https://a.example/1", "failed", "timeout"),
    ActivityRecord("s2", "scrape", LEFT + 120, "https://a.example/2", "completed", http_status=503),
    ActivityRecord("s3", "scrape", LEFT + 180, "https://a.example/3", "completed"),
    CrawlOrBatchRecord("c1", "crawl", LEFT, "cancelled", finished_at=LEFT + 600),
    UsageSnapshot(LEFT - 600, "key", TODAY - 10 * 86400, 1000.0),
    UsageSnapshot(LEFT + 3600, "key", TODAY - 10 * 86400, 4100.0),
]


def away_host(client: WdsClient, journal: Journal | None) -> PaneHost:
    """The away line alone, in a host that opens the screens it asks for, as the dashboard does."""
    navigator = Navigator(client, clock=frozen_clock(NOW), hyperlinks=False, monitoring=watching(journal))
    return PaneHost(navigator.away_line, navigator=navigator)


async def looked(pilot: Pilot[Any]) -> AwayLine:
    """The line, once it has read the journal."""
    line = pilot.app.query_one(AwayLine)
    await wait_until(pilot, lambda: not any(w.name == "away-look" for w in pilot.app.workers), "the journal read")
    await pilot.pause()
    return line


async def last_run(journal: Journal) -> float | None:
    await journal.flush()
    return await journal.read(lambda queries: queries.dashboard_seen())


async def test_what_came_in_since_the_last_run_is_said_and_enter_opens_that_span(
    client: WdsClient, tmp_path: Path
) -> None:
    journal = await seeded_journal(tmp_path / "prod.sqlite3", [DashboardSeen(LEFT), *WHILE_AWAY])
    async with away_host(client, journal).run_test(size=(120, 24)) as pilot:
        line = await looked(pilot)
        assert line.display and line.has_focus
        assert str(line.render()) == (
            "while you were away (since 09:02): 3 calls, 2 failed scrapes, 1 crawl cancelled, 3.1k credits"
            " · ⏎ history since then · esc dismiss"
        )
        assert await last_run(journal) == HISTORY_NOW  # this run, recorded from its start
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen), "the history")
        screen = pilot.app.screen
        assert isinstance(screen, HistoryScreen) and screen.span.start == LEFT
        await wait_until(pilot, lambda: screen.figures is not None, "the figures")
        assert str(screen.query_one("#history-title", Static).render()) == "History · since 09:02"
        assert screen.figures is not None and screen.figures.total_calls == 3
    await journal.aclose()


async def test_esc_dismisses_the_line(client: WdsClient, tmp_path: Path) -> None:
    journal = await seeded_journal(tmp_path / "prod.sqlite3", [DashboardSeen(LEFT), *WHILE_AWAY])
    async with away_host(client, journal).run_test(size=(120, 24)) as pilot:
        line = await looked(pilot)
        assert line.display
        await pilot.press("escape")
        assert not line.display and not line.has_focus
    await journal.aclose()


async def test_nothing_new_or_a_first_run_shows_no_line(client: WdsClient, tmp_path: Path) -> None:
    quiet = await seeded_journal(tmp_path / "quiet.sqlite3", [WHILE_AWAY[0], DashboardSeen(LEFT)])
    first = await seeded_journal(tmp_path / "first.sqlite3", WHILE_AWAY)  # no dashboard ever ran on it
    for journal in (quiet, first):
        async with away_host(client, journal).run_test(size=(120, 24)) as pilot:
            line = await looked(pilot)
            assert not line.display and not line.has_focus
        assert await last_run(journal) == HISTORY_NOW
        await journal.aclose()


async def test_the_run_s_end_is_recorded_as_it_exits(client: WdsClient, tmp_path: Path) -> None:
    journal = await seeded_journal(tmp_path / "prod.sqlite3", [DashboardSeen(LEFT)])
    navigator = Navigator(client, clock=frozen_clock(NOW), hyperlinks=False, monitoring=watching(journal))
    times = iter((HISTORY_NOW, HISTORY_NOW + 3600))  # the start, then the exit an hour later
    line = AwayLine(journal, now=lambda: next(times))
    async with PaneHost(lambda: line, navigator=navigator).run_test(size=(120, 24)) as pilot:
        await looked(pilot)
    assert await last_run(journal) == HISTORY_NOW + 3600
    await journal.aclose()


async def test_a_running_dashboard_says_so_each_minute(
    client: WdsClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed without exiting counts the next start from its last minute, not from its start."""
    monkeypatch.setattr(away, "SEEN_EVERY", 0.05)
    journal = await seeded_journal(tmp_path / "prod.sqlite3", [DashboardSeen(LEFT)])
    ticks = iter(range(10**6))
    line = AwayLine(journal, now=lambda: HISTORY_NOW + next(ticks))
    navigator = Navigator(client, clock=frozen_clock(NOW), hyperlinks=False, monitoring=watching(journal))
    async with PaneHost(lambda: line, navigator=navigator).run_test(size=(120, 24)) as pilot:
        await looked(pilot)
        for _ in range(100):  # the start, then at least two minutes' records (a loaded machine takes longer)
            if (await last_run(journal) or 0) >= HISTORY_NOW + 2:
                break
            await pilot.pause(0.1)
        assert (await last_run(journal) or 0) >= HISTORY_NOW + 2
    await journal.aclose()


async def test_no_journal_no_line_and_nothing_written(client: WdsClient, tmp_path: Path) -> None:
    async with away_host(client, None).run_test(size=(120, 24)) as pilot:
        line = await looked(pilot)
        assert not line.display and line.journal is None
