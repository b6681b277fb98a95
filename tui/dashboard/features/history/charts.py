"""The history screen's charts: one bar a UTC day, drawn by the kit's bar chart (the usage pane's).

Each chart stacks its series in a day's bar (the calls of each kind, failed under
succeeded, each kind and final state of the crawls and batches), so a day's total
reads as the bar's height and 30 days fit in 80 columns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tui.dashboard.features.history.figures import HistoryFigures
from tui.dashboard.kit.chart_series import Series
from tui.dashboard.kit.widgets.bar_chart import BarChart

if TYPE_CHECKING:
    from tui.dashboard.kit.widgets.chart_bars import ChartBars

DAY_LABEL_WIDTH = len("11-27")


def day_labels(figures: HistoryFigures) -> tuple[str, ...]:
    """`MM-DD` under each day's bar (the year says nothing within 90 days)."""
    return tuple(day[5:] for day in figures.days)


class DayChart(BarChart):
    """Bars by UTC day, a day's series stacked."""

    DEFAULT_CSS = """
    DayChart { height: 1fr; min-height: 6; }
    """

    STACKED: ClassVar[bool] = True

    def make_bars(self) -> ChartBars:
        from tui.dashboard.kit.widgets.chart_bars import ChartBars

        return ChartBars(label_width=DAY_LABEL_WIDTH, stacked=self.STACKED)


class CallsChart(DayChart):
    """Calls a day, by kind."""

    AXES_NOTE = "calls a day (UTC)"
    EMPTY = "No call recorded in this span."


class FailuresChart(DayChart):
    """Calls a day, the failed ones at the bottom of each bar."""

    AXES_NOTE = "calls a day: failed below"
    EMPTY = "No call recorded in this span."


class CreditsChart(DayChart):
    """Credits used a day, all keys together."""

    AXES_NOTE = "credits a day, from usage readings"
    EMPTY = "No usage reading recorded in this span: credits are worked out from two readings or more."


class FinishedChart(DayChart):
    """Crawls and batches that ended a day, by kind and final state."""

    AXES_NOTE = "crawls and batches ended a day"
    EMPTY = "No crawl or batch ended in this span."


def calls_series(figures: HistoryFigures) -> tuple[Series, ...]:
    """One series per kind of call, most calls first."""
    return tuple(
        Series(kind, tuple(figures.calls.get((day, kind), 0) for day in figures.days)) for kind in figures.kinds
    )


def failures_series(figures: HistoryFigures) -> tuple[Series, ...]:
    """Failed calls, then the others, per day (nothing when no call was recorded)."""
    if not figures.failures:
        return ()
    by_day = {one.day: one for one in figures.failures}
    failed = tuple(by_day[day].failed if day in by_day else 0 for day in figures.days)
    total = tuple(by_day[day].total if day in by_day else 0 for day in figures.days)
    return (Series("failed", failed), Series("succeeded", tuple(t - f for t, f in zip(total, failed, strict=True))))


def credits_series(figures: HistoryFigures) -> tuple[Series, ...]:
    """Credits per day, all keys together."""
    if not figures.credits_per_day:
        return ()
    return (Series("credits", tuple(figures.credits_per_day.get(day, 0.0) for day in figures.days)),)


def finished_series(figures: HistoryFigures) -> tuple[Series, ...]:
    """One series per (kind, final state), the most frequent first: "crawl completed", "batch failed"."""
    totals: dict[tuple[str, str], int] = {}
    for (_day, kind, status), count in figures.finished.items():
        totals[(kind, status)] = totals.get((kind, status), 0) + count
    order = sorted(totals, key=lambda pair: (-totals[pair], pair))
    return tuple(
        Series(f"{kind} {status}", tuple(figures.finished.get((day, kind, status), 0) for day in figures.days))
        for kind, status in order
    )
