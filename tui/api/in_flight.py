"""The calls a client has sent and not yet had answered, oldest first.

A dashboard whose first answer is slow can then say what it waits for
("waiting for GET /v2/team/activity · 12 s") instead of an empty screen. The
record holds no times: whoever shows it stamps each call with its own clock
when it first sees it, so a test on a manual clock reads exact seconds.
A client and the copies `with_options` makes share one record.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import count


@dataclass(frozen=True)
class CallInFlight:
    """One call on its way: what was asked, and its place in the order of sending."""

    method: str
    path: str
    number: int  # tells two calls to the same path apart

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


class CallsInFlight:
    """The calls on their way now (a call retried is one call)."""

    def __init__(self) -> None:
        self._numbers = count()
        self._calls: dict[int, CallInFlight] = {}

    @contextmanager
    def call(self, method: str, path: str) -> Iterator[CallInFlight]:
        """Count a call as on its way for the block (it ends however the block ends)."""
        call = CallInFlight(method, path, next(self._numbers))
        self._calls[call.number] = call
        try:
            yield call
        finally:
            del self._calls[call.number]

    def now(self) -> list[CallInFlight]:
        """The calls on their way, the oldest first."""
        return list(self._calls.values())  # dicts keep the order of insertion: the order of sending
