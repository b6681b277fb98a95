"""What a rule's watcher hands the engine, and the bounded memory every watcher keeps.

A watcher remembers what its rule needs (failures in a window, a crawl's last
page count, ...) and says, at a given time, which subjects hold now. It never
decides whether to tell anyone: that is the engine's lifecycle.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, Literal, Protocol, TypeVar

from tui.monitor.alerts.observations import Observation, Observed

DEFAULT_MAX_SUBJECTS = 200
"""Subjects (hosts, crawls, sessions, ...) a watcher remembers at most: the oldest seen is forgotten first."""

V = TypeVar("V")


@dataclass(frozen=True)
class Target:
    """What an alert lets the operator open: a job, crawl, batch or browser session, by id."""

    kind: Literal["job", "crawl", "batch", "session"]
    id: str


@dataclass(frozen=True)
class Finding:
    """One subject for which a rule holds now, in a sentence a person reads, and what to open."""

    subject: str
    sentence: str
    opens: Target | None = None


class Watcher(Protocol):
    """Keeps what one rule needs and says which subjects hold at a time."""

    accepts: tuple[type[Observed], ...]

    def observe(self, observation: Observation) -> None:
        """Remember what the rule needs from an observation of a type it accepts."""

    def findings(self, now: datetime) -> list[Finding]:
        """The subjects for which the rule holds at `now` (and forget what is too old to matter)."""


class SubjectMemory(Generic[V]):
    """A map of subject -> what a watcher keeps about it, holding at most `limit` subjects.

    The subject written least recently is forgotten first: a stream of new hosts or
    crawls over days keeps memory flat instead of growing with them.
    """

    def __init__(self, limit: int = DEFAULT_MAX_SUBJECTS) -> None:
        self._items: OrderedDict[str, V] = OrderedDict()
        self._limit = max(1, limit)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, subject: str) -> bool:
        return subject in self._items

    def get(self, subject: str) -> V | None:
        """What is kept about `subject`, if anything."""
        return self._items.get(subject)

    def put(self, subject: str, value: V) -> None:
        """Keep `value` for `subject` as its newest; forget the oldest subject past the limit."""
        self._items[subject] = value
        self._items.move_to_end(subject)
        while len(self._items) > self._limit:
            self._items.popitem(last=False)

    def forget(self, subject: str) -> None:
        """Drop `subject`, known or not."""
        self._items.pop(subject, None)

    def items(self) -> Iterator[tuple[str, V]]:
        """Each subject and its value, oldest first (a copy: the caller may forget while iterating)."""
        return iter(list(self._items.items()))


def clock_time(moment: datetime) -> str:
    """`14:05 UTC` for a moment in a sentence: the sentence travels (webhooks, other time zones), so it says its zone."""
    return moment.astimezone(UTC).strftime("%H:%M UTC")


def span(seconds: float) -> str:
    """`4 min`, `2 h 5 min`, `40 s` for a duration in a sentence."""
    if seconds < 60:
        return f"{max(0, int(seconds))} s"
    minutes = int(seconds // 60)
    if minutes < 120:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min" if minutes % 60 else f"{minutes // 60} h"


def count_of(number: int, one: str, many: str) -> str:
    """`1 job`, `3 jobs` in a sentence."""
    return f"{number} {one if number == 1 else many}"
