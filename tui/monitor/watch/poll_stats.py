"""How the polls went, for the metrics and the log: calls, errors and latency by endpoint.

Endpoints are a fixed handful of names (`activity`, `job_status`, `crawls`, ...),
so every map here is as small as the poller's list of polls. The latency is a
histogram of fixed buckets, as Prometheus keeps one: counts, not samples.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field

LATENCY_BUCKETS: tuple[float, ...] = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Upper bounds (seconds) of the latency buckets; a last one, +Inf, holds the rest."""


@dataclass
class Latency:
    """A histogram of one endpoint's poll durations: a count per bucket (not cumulative), their sum."""

    buckets: list[int] = field(default_factory=lambda: [0] * (len(LATENCY_BUCKETS) + 1))
    total: float = 0.0
    count: int = 0

    def add(self, seconds: float) -> None:
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.total += seconds
        self.count += 1

    def cumulative(self) -> list[tuple[str, int]]:
        """(upper bound, polls that took at most that long), the last bound `+Inf`: Prometheus' own shape."""
        bounds = [f"{bound:g}" for bound in LATENCY_BUCKETS] + ["+Inf"]
        running, shape = 0, []
        for bound, count in zip(bounds, self.buckets, strict=True):
            running += count
            shape.append((bound, running))
        return shape


@dataclass
class PollStats:
    """Every poll of one context: how many, how many failed, how long they took, the last failure's words."""

    polls: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    latency: dict[str, Latency] = field(default_factory=dict)
    last_error: dict[str, str] = field(default_factory=dict)

    def record(self, endpoint: str, seconds: float, error: str | None = None) -> None:
        """One poll of `endpoint` that took `seconds`, and its failure if it failed."""
        self.polls[endpoint] += 1
        self.latency.setdefault(endpoint, Latency()).add(seconds)
        if error is not None:
            self.errors[endpoint] += 1
            self.last_error[endpoint] = error
