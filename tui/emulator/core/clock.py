"""Where the emulator's time comes from.

Every time-driven behaviour (crawl progress, session expiry, the activity
window) reads `emulator.clock.now()` and is computed lazily when a request
looks at it. Tests inject a `ManualClock` and move it by hand, so nothing
depends on wall-clock sleeps.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """A source of the current time (UTC, timezone-aware)."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ScaledClock:
    """Real time run `speed` times faster, from the real time it was made at.

    For soak tests (`wds-tui emulator --clock-speed`): a day of the contract's
    24-hour windows, job retention and paced live traffic passes in minutes.
    """

    def __init__(self, speed: float, start: datetime | None = None) -> None:
        if not speed > 0:
            raise ValueError("the clock's speed must be positive")
        self.speed = speed
        self._start = _require_aware(start or datetime.now(UTC))
        self._started = time.monotonic()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=(time.monotonic() - self._started) * self.speed)


class ManualClock:
    """A clock that only moves when told to; for deterministic tests."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = _require_aware(start or datetime(2025, 6, 15, 12, 0, tzinfo=UTC))

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move forward by `seconds` (never backwards) and return the new time."""
        if seconds < 0:
            raise ValueError("ManualClock.advance() only moves forward")
        self._now += timedelta(seconds=seconds)
        return self._now

    def set(self, dt: datetime) -> None:
        """Jump to `dt` (tests use this to land on month boundaries and the like)."""
        self._now = _require_aware(dt)


def isoformat_z(dt: datetime) -> str:
    """ISO 8601 in UTC with millisecond precision and a `Z` suffix, as the service writes it."""
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def _require_aware(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        raise ValueError("the emulator's clock needs timezone-aware datetimes (use tzinfo=UTC)")
    return dt.astimezone(UTC)
