"""Seeded history: a day and a half of activity and five months of usage per team.

A fresh emulator should look like an account that has been in use, so the
activity, jobs and usage panes have something to show before anyone calls it.
Everything is drawn from a generator seeded with the emulator's seed, so the
same seed gives the same history.

Entries whose kind has a retrieval endpoint (scrape, crawl, batch_scrape,
agent, extract) are backed by genuine jobs, made by `seed_job`
(`tui.emulator.jobs.seed`) through the job store's ordinary creation methods
and dated in the past: their ids open like any other job's, they cost what they did, and their failures
(a timeout, a protected page, a cache miss ...) are the synthetic sites' real
ones, which the support desk can diagnose. This module records every entry
and its credits; `seed_job` records nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tui.emulator.core.billing import Billing
from tui.emulator.core.clock import Clock
from tui.emulator.core.ids import NewId
from tui.emulator.core.teams import Caller, Team, TeamDirectory
from tui.emulator.core.usage import UsageLedger, month_start
from tui.emulator.jobs.seed import seed_job
from tui.emulator.jobs.store import JobStore
from tui.emulator.sites.site import SiteSource

HISTORY_SPAN = timedelta(hours=36)
ENTRIES_PER_TEAM = (220, 320)
PAST_MONTHS = 5
DEMO_HOSTS = ("acme-outdoor.com", "northwind.dev", "lumen-labs.io", "fernwood.co")
SEARCH_QUERIES = (
    "best trail running shoes 2025",
    "pricing comparison of scraping apis",
    "open source vector database benchmarks",
    "how to rotate api keys safely",
    "robots.txt etiquette for crawlers",
)

# (kind, relative weight, credits per call for kinds without a job; jobs cost what they did)
KINDS: tuple[tuple[str, int, tuple[int, int]], ...] = (
    ("scrape", 34, (0, 0)),
    ("crawl", 8, (0, 0)),
    ("batch_scrape", 6, (0, 0)),
    ("map", 12, (1, 1)),
    ("search", 10, (2, 10)),
    ("extract", 3, (0, 0)),
    ("agent", 3, (0, 0)),
    ("llmstxt", 2, (10, 30)),
    ("deep_research", 2, (20, 80)),
    ("browser", 11, (2, 20)),
    ("interact", 9, (0, 0)),
)
_CREDITS = {kind: credits for kind, _, credits in KINDS}
RETRIEVABLE = frozenset({"scrape", "crawl", "batch_scrape", "agent", "extract"})


@dataclass(frozen=True)
class HistorySeeder:
    """The parts a seeded past is written into, and the ids and sites it is drawn from."""

    clock: Clock
    teams: TeamDirectory
    usage: UsageLedger
    billing: Billing
    jobs: JobStore
    sites: SiteSource
    new_id: NewId

    def seed(self, seed: int) -> None:
        """Fill every team's activity, jobs and usage with a plausible past, the same for the same seed."""
        rng = random.Random(f"wds-emulator-history:{seed}")
        now = self.clock.now()
        for team in sorted(self.teams.values(), key=lambda t: t.name):
            self._seed_past_months(team, rng, now)
            self._seed_activity(team, rng, now)

    def _seed_past_months(self, team: Team, rng: random.Random, now: datetime) -> None:
        start = month_start(now)
        for _ in range(PAST_MONTHS):
            start = month_start(start - timedelta(days=1))
            for key in team.api_keys:
                at = start + timedelta(days=rng.randint(0, 27), hours=rng.randint(0, 23))
                self.usage.record(team.id, key, rng.randint(1_500, 24_000), at)

    def _seed_activity(self, team: Team, rng: random.Random, now: datetime) -> None:
        count = rng.randint(*ENTRIES_PER_TEAM)
        span = HISTORY_SPAN.total_seconds()
        # Oldest first: the activity log keeps each team's entries in time order.
        offsets = sorted((rng.uniform(60, span) for _ in range(count)), reverse=True)
        kinds = [k[0] for k in KINDS]
        weights = [k[1] for k in KINDS]
        for offset in offsets:
            at = now - timedelta(seconds=offset)
            kind = rng.choices(kinds, weights)[0]
            api_key = rng.choice(team.api_keys)
            target = self._target(kind, rng)
            job_id, credits = None, rng.randint(*_CREDITS[kind])
            if kind in RETRIEVABLE:
                job_id = seed_job(
                    self.jobs, self.sites, team=team, api_key=api_key, kind=kind, url=target, at=at, rng=rng
                )
                credits = _credits_of(self.jobs.get(job_id), now)
            self.billing.record_call(Caller(team, api_key), kind, target, job_id=job_id, credits=credits, at=at)

    def _target(self, kind: str, rng: random.Random) -> str:
        host = rng.choice(DEMO_HOSTS)
        if kind == "search":
            return rng.choice(SEARCH_QUERIES)
        if kind in ("browser", "interact"):
            return self.new_id()  # the id of a browser session that ended long ago
        if kind in ("scrape", "batch_scrape"):
            # Any page a customer might ask for, including the ones that fail (slow, protected, broken).
            return rng.choice([page.url for page in self.sites.site(host).pages() if page.in_sitemap])
        return f"https://{host}/"


def _credits_of(job: Any, now: datetime) -> int:
    """What a seeded job cost: a scrape its fetch, a crawl or batch the pages done by now."""
    if job is None:
        return 0
    credits_used = getattr(job, "credits_used", None)
    if callable(credits_used):
        return int(credits_used(now))
    return int(getattr(job, "credits", 0))
