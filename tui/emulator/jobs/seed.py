"""Genuine jobs behind seeded activity entries.

`tui.emulator.history` records a plausible past in the activity log and has
`seed_job` make a job behind each retrievable entry. The job is made by the
ordinary creation methods (so its documents, progress and failures are real),
with request options drawn the way customers set them: mostly defaults, now
and then a short timeout, a cache-only scrape, a basic proxy or a filtered
crawl. Some of those fail, for the reasons the synthetic sites provide, which
gives the support desk something to diagnose. Seeded crawls and batches
bypass the team's cache (`through_cache=False`): the seeded picture, which
the dashboard's tests and screenshots show, stays what it was before they
went through it. Nothing is recorded here: the
seeder records the activity entry and the credits itself.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from tui.contract.requests import BatchScrapeRequest, CrawlRequest, ScrapeRequest
from tui.emulator.core.teams import Caller, Team
from tui.emulator.jobs.store import JobStore
from tui.emulator.sites.site import SiteSource, split_url


def _scrape_options(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.08:
        return {"timeout": rng.choice((1000, 1500, 2000))}
    if roll < 0.12:
        return {"lockdown": True}
    if roll < 0.15:
        return {"minAge": 1}
    if roll < 0.22:
        return {"proxy": "basic"}
    if roll < 0.30:
        return {"formats": ["markdown", "links"], "onlyMainContent": False}
    return {}


def _crawl_options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {"limit": rng.randint(5, 30)}
    roll = rng.random()
    if roll < 0.15:
        options["includePaths"] = [rng.choice(("^/blog/.*", "^/docs/.*", "^/products/.*", "^/news/.*"))]
    elif roll < 0.25:
        options["allowSubdomains"] = True
    elif roll < 0.30:
        options["maxDiscoveryDepth"] = 1
    return options


def seed_job(
    store: JobStore,
    sites: SiteSource,
    *,
    team: Team,
    api_key: str,
    kind: str,
    url: str,
    at: datetime,
    rng: random.Random,
) -> str:
    """Create a job of `kind` for `url` as of `at`, without recording it; return its id."""
    caller = Caller(team, api_key)
    if kind == "scrape":
        request = ScrapeRequest.model_validate({"url": url, **_scrape_options(rng)})
        return store.create_scrape(caller, request, at=at, record=False).id
    if kind == "crawl":
        crawl = CrawlRequest.model_validate({"url": url, **_crawl_options(rng)})
        return store.start_crawl(caller, crawl, at=at, record=False, through_cache=False).id
    if kind == "batch_scrape":
        site = sites.site(split_url(url)[0])
        candidates = [page.url for page in site.pages() if page.in_sitemap and page.url != url]
        urls = [url, *rng.sample(candidates, min(len(candidates), rng.randint(2, 7)))]
        batch = BatchScrapeRequest.model_validate({"urls": urls})
        return store.create_batch(caller, batch, at=at, record=False, through_cache=False).id
    if kind in ("agent", "extract"):
        prompt = rng.choice(
            (
                "Find the pricing tiers and what each includes",
                "List every product with its price",
                "Summarise the company's latest blog posts",
            )
        )
        return store.create_agent_job(caller, prompt, [url], endpoint=kind, at=at, record=False).id
    raise ValueError(f"no seeded job for activity kind {kind!r}")
