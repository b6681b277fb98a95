"""The line under the header that says what happened while you were away, as the dashboard starts.

"while you were away (since 18:02): 120 calls, 14 failed scrapes, 1 crawl cancelled,
3.1k credits · ⏎ history since then · esc dismiss". It reads, in the journal's thread,
when a dashboard of this context last ran (never: when `wds-tui watch` began writing it),
then what the journal learnt since (from a `wds-tui watch`, or another dashboard), and
shows only when there is something. It records this run's start at once, each minute
while it runs and its end as it goes, so the next start counts from there. Enter opens the history at that span; Esc dismisses
the line. Placed as the connection lines are (`tui.dashboard.connection.first_wait`):
one row under the header.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static

from tui.dashboard.kit.chart_series import human
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import OpenHistory
from tui.monitor.journal import AwaySummary, DashboardSeen, Journal

SEEN_EVERY = 60.0
"""Seconds between the records that this run is still going: a dashboard killed (kill -9, a closed terminal)
counts the next start from its last minute, not from its start."""


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def away_text(summary: AwaySummary, now: float) -> str:
    """ "while you were away (since 18:02): 120 calls, 14 failed scrapes, 1 crawl cancelled, 3.1k credits"."""
    start = datetime.fromtimestamp(summary.since, UTC).astimezone()
    today = datetime.fromtimestamp(now, UTC).astimezone().date()
    since = f"{start:%H:%M}" if start.date() == today else f"{start:%m-%d %H:%M}"
    parts = [_plural(summary.calls, "call")] if summary.calls else []
    if summary.calls and not summary.failed_by_kind:
        parts.append("none failed")
    # Kinds are the service's words ("batch_scrape"): read as words, as the activity pane's kinds.
    parts += [
        f"{count:,} failed {kind.replace('_', ' ')}{'' if count == 1 else 's'}"
        for kind, count in summary.failed_by_kind.items()
    ]
    parts += [f"{_plural(count, kind)} {status}" for (kind, status), count in summary.ended_badly.items()]
    if summary.credits:
        parts.append(f"{human(summary.credits)} credits")
    return f"while you were away (since {since}): {', '.join(parts)}"


class AwayLine(ForwardsWorkerFailures, Static):
    """Shown (with the focus, so Enter works at once) only when the journal learnt something since the last run."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "History since then", id="away_line.open"),
        Binding("escape", "dismiss", "Dismiss", id="away_line.dismiss"),
    ]

    DEFAULT_CSS = """
    AwayLine {
        height: auto; max-height: 2; width: 1fr; padding: 0 1;
        background: $primary-muted; color: $text;
        display: none;
    }
    AwayLine:focus { text-style: bold; }
    """

    KEYS_HINT = " · ⏎ history since then · esc dismiss"

    def __init__(self, journal: Journal | None, *, now: Callable[[], float] = time.time, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.journal: Journal | None = None
        self._given = journal  # read once mounted (`start`): the app's monitor may open after the first frame
        self.now = now
        self.summary: AwaySummary | None = None
        self._focus_before: Widget | None = None

    def on_mount(self) -> None:
        if self._given is not None:
            self.start(self._given)

    def start(self, journal: Journal | None) -> None:
        """Read what `journal` learnt since the last run, and record this run (once; nothing for no journal)."""
        if self.journal is not None or journal is None or journal.disabled is not None:
            return
        self.journal = journal
        self.run_worker(self._look(journal), name="away-look", exit_on_error=False)
        self.set_interval(SEEN_EVERY, self._still_running)

    def _still_running(self) -> None:
        if self.journal is not None:
            self.journal.add(DashboardSeen(self.now()))

    async def _look(self, journal: Journal) -> None:
        try:
            seen = await journal.read(lambda queries: queries.away_since())
        except sqlite3.Error:
            return  # the history screen says what is wrong with the journal; this line says nothing
        journal.add(DashboardSeen(self.now()))  # this run, from its start (a kill -9 keeps at least that)
        if seen is None:
            return  # the first run on a journal no watch wrote: nothing to count from
        try:
            summary = await journal.read(lambda queries: queries.away(seen))
        except sqlite3.Error:
            return
        if summary.anything:
            self.show(summary)

    def show(self, summary: AwaySummary) -> None:
        """Say what happened since `summary.since` and take the focus, so Enter opens it."""
        self.summary = summary
        self.update(away_text(summary, self.now()) + self.KEYS_HINT)
        self.display = True
        # Focusable only while shown: hidden, it must not take the first focus from the panes.
        self.can_focus = True
        if self.screen is self.app.screen:  # not from under a dialog opened in the meantime
            self._focus_before = self.screen.focused
            self.focus()

    def action_open(self) -> None:
        """Open the history from the time the dashboard last ran."""
        if self.summary is not None:
            self.post_message(OpenHistory(since=self.summary.since))

    def action_dismiss(self) -> None:
        """Hide the line; the focus goes back where it was."""
        self.display = False
        self.can_focus = False
        before, self._focus_before = self._focus_before, None
        if before is not None and before.is_attached:
            before.focus()
        else:
            self.screen.focus_next()

    def on_unmount(self) -> None:
        if self.journal is not None:
            self.journal.add(DashboardSeen(self.now()))  # this run's end: the next start counts from here
