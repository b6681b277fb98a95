"""A journal with 30 days of a team's life, written with fixed times through the Journal API (seeded, so always the same).

Each UTC day up to `HISTORY_NOW` has scrapes, maps, crawls and batch scrapes (about one
in ten failing, on a few hosts, for a few causes, one of which reads like markup), two
API keys' usage readings at 10:00, and crawls and batches that ended. `expected_*`
work the same figures out from the records, for the tests to compare with the screen.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from tests.support.dashboard import NOW
from tui.monitor.journal import ActivityRecord, CrawlOrBatchRecord, Journal, Record, UsageSnapshot

HISTORY_NOW = NOW.timestamp()
"""The journal's and the screen's now: the dashboard tests' NOW (2025-06-15 12:00 UTC)."""
DAY = 86400.0
TODAY = HISTORY_NOW - HISTORY_NOW % DAY
HOSTS = ("shop.example", "blog.example", "api.example", "docs.example")
CAUSES = ("timeout", "HTTP 404 on page", "[bold]blocked[/bold] by robots.txt", "SSL handshake failed")
KINDS = (("scrape", 40), ("map", 5), ("crawl", 3), ("batch_scrape", 2))
KEYS = ("wds-" + "a1" * 16, "wds-" + "b2" * 16)


def day_name(offset: int) -> str:
    """`YYYY-MM-DD` of the UTC day `offset` days from today (0 today, -29 the first of 30)."""
    return time.strftime("%Y-%m-%d", time.gmtime(TODAY + offset * DAY))


def thirty_days(seed: int = 22, days: int = 30) -> list[Record]:
    """The records of `days` days up to HISTORY_NOW (nothing later than now)."""
    rng = random.Random(seed)
    records: list[Record] = []
    credits = dict.fromkeys(KEYS, 0.0)
    period = TODAY - 40 * DAY
    for offset in range(-(days - 1), 1):
        start = TODAY + offset * DAY
        hours = 12 if offset == 0 else 24  # today: up to noon
        for kind, most in KINDS:
            for n in range(rng.randint(most // 2, most)):
                at = start + rng.uniform(0, hours * 3600 - 1)
                host = rng.choice(HOSTS)
                if rng.random() < 0.1:
                    cause = rng.choice(CAUSES)
                    records.append(
                        ActivityRecord(f"{kind}-{offset}-{n}", kind, at, f"https://{host}/p/{n}", "failed", cause)
                    )
                else:
                    records.append(
                        ActivityRecord(f"{kind}-{offset}-{n}", kind, at, f"https://{host}/p/{n}", "completed")
                    )
        for key in KEYS:
            credits[key] += rng.randint(20, 400)
            records.append(UsageSnapshot(start + 10 * 3600, key, period, credits[key]))
        for kind in ("crawl", "batch"):
            for n in range(rng.randint(0, 3)):
                status = rng.choice(("completed", "completed", "completed", "failed", "cancelled"))
                ended = start + rng.uniform(0, hours * 3600 - 1)
                records.append(
                    CrawlOrBatchRecord(f"{kind}-job-{offset}-{n}", kind, ended - 600, status, finished_at=ended)
                )
    return records


async def seeded_journal(path: Path, records: list[Record] | None = None) -> Journal:
    """A journal at `path` on a clock standing at HISTORY_NOW, `records` (default: thirty_days()) committed."""
    journal = Journal(path, clock=lambda: HISTORY_NOW)
    for record in thirty_days() if records is None else records:
        journal.add(record)
    await journal.flush()
    return journal


def expected_calls(records: list[Record], since: float) -> Counter[tuple[str, str]]:
    """Calls by (day, kind) from `since`, worked out from the records."""
    return Counter(
        (time.strftime("%Y-%m-%d", time.gmtime(r.created_at)), r.kind)
        for r in records
        if isinstance(r, ActivityRecord) and r.created_at >= since
    )


def expected_causes(records: list[Record], since: float) -> Counter[str]:
    """Failed calls by cause from `since`."""
    return Counter(
        r.error for r in records if isinstance(r, ActivityRecord) and r.created_at >= since and r.error is not None
    )


@dataclass
class JournalOnly:
    """The part of the app's monitor the history reads: its journal (None: the journal is turned off)."""

    journal: Journal | None


@dataclass
class Monitoring:
    """The part of the app the history reads: its monitor (None: still opening, or none), settings, problem."""

    monitor: JournalOnly | None
    monitor_settings: object | None = "settings"  # None: monitoring off
    monitor_problem: str | None = None


def watching(journal: Journal | None) -> Monitoring:
    """An app whose monitor is open, with `journal` (None: the context turned its journal off)."""
    return Monitoring(JournalOnly(journal))
