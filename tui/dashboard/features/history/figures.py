"""What the history screen shows of a span, read in one go in the journal's reading thread.

`read_figures` is handed to `Journal.read`, so every query runs off the UI thread on a
connection of its own; the screen gets back plain frozen data.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tui.dashboard.features.history.span import HistorySpan
from tui.monitor.journal import DayFailures, HistoryQueries

TOP = 10
"""Hosts and causes listed, most failures first."""


@dataclass(frozen=True)
class HistoryFigures:
    """A span's figures: its UTC days (`YYYY-MM-DD`, oldest first, every day even without data) and what each query said."""

    span: HistorySpan
    now: float
    days: tuple[str, ...]
    calls: dict[tuple[str, str], int]
    failures: tuple[DayFailures, ...]
    hosts: tuple[tuple[str, int], ...]
    causes: tuple[tuple[str, int], ...]
    credits_per_day: dict[str, float]
    credits_per_key: dict[str, float]
    finished: dict[tuple[str, str, str], int]

    @property
    def empty(self) -> bool:
        """Whether the journal holds nothing of this span."""
        return not (self.calls or self.credits_per_day or self.credits_per_key or self.finished)

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    @property
    def total_failed(self) -> int:
        return sum(day.failed for day in self.failures)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of call seen, most calls first."""
        totals: dict[str, int] = {}
        for (_day, kind), count in self.calls.items():
            totals[kind] = totals.get(kind, 0) + count
        return tuple(sorted(totals, key=lambda kind: (-totals[kind], kind)))


def utc_day(at: float) -> str:
    """`YYYY-MM-DD`: the UTC day of `at`, as the journal's queries name days."""
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def span_days(queries: HistoryQueries, span: HistorySpan) -> tuple[str, ...]:
    """Every UTC day of the span, oldest first (a chart with a gap for a quiet day, not a day missing)."""
    first = span.first_day(queries.now)
    count = int((queries.now - first) // 86400) + 1
    return tuple(utc_day(first + index * 86400) for index in range(max(1, count)))


def read_figures(queries: HistoryQueries, span: HistorySpan) -> HistoryFigures:
    """Every figure of `span` (run in the journal's reading thread)."""
    days, start = span.days or 1, span.start
    return HistoryFigures(
        span=span,
        now=queries.now,
        days=span_days(queries, span),
        calls=queries.calls_per_day(days, start=start),
        failures=tuple(queries.failures_per_day(days, start=start)),
        hosts=tuple(queries.top_failing_hosts(days, TOP, start=start)),
        causes=tuple(queries.top_failure_causes(days, TOP, start=start)),
        credits_per_day=queries.credits_per_day(days, start=start),
        credits_per_key=queries.credits_per_key(days, start=start),
        finished=queries.finished_per_day(days, start=start),
    )
