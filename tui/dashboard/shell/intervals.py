"""How often each pane of the dashboard polls (`--refresh` sets them all)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Intervals:
    """Seconds between polls, per pane."""

    crawls: float = 5.0
    activity: float = 10.0
    usage: float = 60.0
    sessions: float = 5.0

    @classmethod
    def every(cls, seconds: float) -> Intervals:
        """The same interval for every pane (`--refresh`)."""
        return cls(crawls=seconds, activity=seconds, usage=seconds, sessions=seconds)
