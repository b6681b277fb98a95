"""Scrape requests that fail for a chosen reason, on the pages a synthetic site fails with.

Seeded history and tests need failed jobs whose failure is genuine: each recipe asks for a
page of the site's standard layout (`sites/site_layout.py`) that fails that way (the slow
annual report, a removed post, the page behind anti-bot protection, ...), so the failure
comes out of the scrape engine like any other. Its own module because it is knowledge of
the sites' layout, not of storing jobs.
"""

from __future__ import annotations

from typing import Any

from tui.contract.requests import ScrapeRequest
from tui.emulator.jobs.scrape_engine import FailureKind
from tui.emulator.sites.site import SyntheticSite


def failing_request(site: SyntheticSite, kind: FailureKind) -> ScrapeRequest:
    """A request for a page of `site` that fails for `kind`; `ValueError` for a kind no single scrape shows."""
    pages = list(site.pages())
    by_section = {page.section: page.url for page in pages}
    slow = next(page.url for page in pages if page.section == "reports")
    recipes: dict[FailureKind, dict[str, Any]] = {
        FailureKind.TIMEOUT: {"url": slow},
        FailureKind.TARGET_NOT_FOUND: {"url": f"https://{site.base}/blog/this-post-was-removed"},
        FailureKind.TARGET_SERVER_ERROR: {"url": by_section["status"]},
        FailureKind.ANTI_BOT: {"url": f"https://{site.base}/pricing/enterprise", "proxy": "basic"},
        FailureKind.LOCKDOWN_MISS: {"url": f"https://{site.base}/about", "lockdown": True},
        FailureKind.NO_CACHED_DATA: {"url": f"https://{site.base}/contact", "minAge": 1},
        FailureKind.JS_NOT_RENDERED: {"url": f"https://{site.base}/products"},
    }
    if kind not in recipes:
        raise ValueError(f"no single-scrape recipe fails with {kind.value!r}")
    return ScrapeRequest.model_validate(recipes[kind])
