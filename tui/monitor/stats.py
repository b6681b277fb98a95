"""What a monitor has counted so far, for `watch --metrics` and the dashboard's alerts line: all bounded.

Counters only ever grow (Prometheus counters); gauges are the last reading.
Labels are kinds, states and rule names, never a job id or a URL, so the
number of series stays small however long a watch runs.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field

SEEN_IDS = 20_000
"""Job ids remembered so a job's final state is counted once (a day of a busy team's jobs)."""


class BoundedIds:
    """The last `size` ids added, oldest forgotten first: "counted already?" for a long run."""

    def __init__(self, size: int = SEEN_IDS) -> None:
        self._ids: OrderedDict[str, None] = OrderedDict()
        self._size = size

    def add(self, key: str) -> bool:
        """Remember `key`; False when it was known already."""
        if key in self._ids:
            self._ids.move_to_end(key)
            return False
        self._ids[key] = None
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)
        return True

    def __contains__(self, key: object) -> bool:
        return key in self._ids

    def __len__(self) -> int:
        return len(self._ids)


@dataclass
class MonitorStats:
    """Counts of what the monitor was fed (counters) and its last readings (gauges)."""

    jobs: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Jobs that finished, by (kind, final state), each counted once."""
    failures: Counter[str] = field(default_factory=Counter)
    """Jobs that failed (or whose page answered an error status), by kind."""
    pages_crawled: int = 0
    """Pages crawled or scraped by the crawls and batches seen, since the monitor started."""
    running: dict[str, int] = field(default_factory=dict)
    """Crawls and batches running at the last sighting, by kind."""
    sessions: Counter[str] = field(default_factory=Counter)
    """Browser sessions by status, at the last list."""
    credits_remaining: float | None = None
    credits_plan: float | None = None
    tokens_used: float | None = None
    """The team's usage in the current period, every API key together."""
    queue_active: int | None = None
    queue_waiting: int | None = None
    queue_max: int | None = None
    webhook_events: Counter[bool] = field(default_factory=Counter)
    """Webhook deliveries by whether their signature held."""
    alerts: Counter[str] = field(default_factory=Counter)
    """Alert events by what happened (fired, repeated, resolved)."""
