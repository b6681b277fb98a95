"""The span the history screen shows: the last 30, 7 or 1 days (UTC days, as the journal groups them), or since a moment."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

DAY_SPANS = (30, 7, 1)
"""The day spans `d` steps through, in turn."""


@dataclass(frozen=True)
class HistorySpan:
    """The last `days` UTC days up to now, or (`start`, epoch seconds) everything from that moment on."""

    days: int = DAY_SPANS[0]
    start: float | None = None

    @classmethod
    def since(cls, start: float) -> HistorySpan:
        """From `start` on (the away line's span)."""
        return cls(days=0, start=start)

    def first_day(self, now: float) -> float:
        """The start of the span's first UTC day (epoch seconds)."""
        if self.start is not None:
            return self.start - self.start % 86400
        today = now - now % 86400
        return today - (self.days - 1) * 86400

    def next(self) -> HistorySpan:
        """The next day span (30 -> 7 -> 1 -> 30); a "since" span goes on to the first."""
        if self.start is not None or self.days not in DAY_SPANS:
            return HistorySpan(DAY_SPANS[0])
        return HistorySpan(DAY_SPANS[(DAY_SPANS.index(self.days) + 1) % len(DAY_SPANS)])

    def text(self, now: float) -> str:
        """ "last 30 days", "today (UTC)", "since 18:02", "since 11-25 18:02" (local time, with the date when not today)."""
        if self.start is not None:
            start = datetime.fromtimestamp(self.start, UTC).astimezone()
            today = datetime.fromtimestamp(now, UTC).astimezone().date()
            return f"since {start:%H:%M}" if start.date() == today else f"since {start:%m-%d %H:%M}"
        return "today (UTC)" if self.days == 1 else f"last {self.days} days"
