"""A clock the tests move by hand: the alert engine reads the time only through it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


class Clock:
    """Stands still until `advance` moves it; calling it gives the time, as the engine's clock."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float = 0, seconds: float = 0) -> datetime:
        """Move on and give the new time."""
        self.now += timedelta(minutes=minutes, seconds=seconds)
        return self.now
