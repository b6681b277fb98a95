"""This month's usage so far, and where a straight line from the month's start takes it by the month's end.

Months are the service's calendar months in UTC (see `tui.dashboard.features.usage.pane.month_label`),
so "now" is read in UTC too: at 23:00 on 30 June in UTC-5 it is already July
for the service. The projection is tokens so far times the month's length over
the time elapsed: it says where the current pace leads, nothing more, and is
not made before `MIN_ELAPSED` has passed (a few hours extrapolated to a month
would be noise).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tui.dashboard.kit.chart_series import human

MIN_ELAPSED = timedelta(days=1)
"""No projection before this much of the month has passed."""


@dataclass(frozen=True)
class MonthSoFar:
    """The service month containing "now", and how far into it we are."""

    start: datetime
    end: datetime  # the first instant of the next month
    now: datetime

    @classmethod
    def at(cls, now: datetime) -> MonthSoFar:
        """The UTC calendar month of `now`."""
        utc = now.astimezone(UTC)
        start = utc.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        end = (start + timedelta(days=32)).replace(day=1)
        return cls(start, end, utc)

    @property
    def label(self) -> str:
        """`2026-07`, as the months of the chart and table are labelled."""
        return self.start.strftime("%Y-%m")

    @property
    def name(self) -> str:
        """`July`."""
        return self.start.strftime("%B")

    @property
    def last_day(self) -> str:
        """`31 Jul`: the day the projection runs to."""
        return (self.end - timedelta(days=1)).strftime("%d %b").lstrip("0")

    @property
    def elapsed(self) -> timedelta:
        return self.now - self.start

    def projected(self, so_far: int) -> int | None:
        """Tokens by the month's end at the pace so far; None while too little of the month has passed."""
        if self.elapsed < MIN_ELAPSED:
            return None
        return round(so_far * ((self.end - self.start) / self.elapsed))


def this_month_text(month: MonthSoFar, so_far: int) -> str:
    """`June so far 15,585 tokens (projected 31,170 by 30 Jun)`."""
    projected = month.projected(so_far)
    if projected is None:
        outlook = f"too early to project before {MIN_ELAPSED.days + 1} {month.start:%b}"
    else:
        outlook = f"projected {projected:,} by {month.last_day}"
    return f"{month.name} so far {so_far:,} tokens ({outlook})"


def this_month_short(month: MonthSoFar, so_far: int, *, abbreviated: bool = False) -> str:
    """`June 15.6k so far, projected 31.2k` (`Jun ...` abbreviated): the same line for a narrow pane."""
    projected = month.projected(so_far)
    outlook = "too early to project" if projected is None else f"projected {human(projected)}"
    name = f"{month.start:%b}" if abbreviated else month.name
    return f"{name} {human(so_far)} so far, {outlook}"
