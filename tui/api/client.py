"""`WdsClient`: the typed async client of the web-data service.

One long-lived `httpx.AsyncClient` carries every call; resources hang off the
client as attributes, one module per resource (after anthropic-sdk-python):

    async with WdsClient("http://127.0.0.1:8000", api_key) as client:
        page = await client.team.activity(endpoint="crawl", limit=20)
        session = await client.browser.create(ttl=600)
        links = await client.map("https://example.com", limit=100)
        job = await client.jobs.get("crawl", page.data[0].id)

This module is the facade only: the wire (connection pool, retries, errors)
is `tui.api.base_client.BaseClient`, which the resources depend on, so they
never import this module back. Every method validates its arguments with the
request models of `tui.contract.requests` before anything is sent, returns a
pydantic model, and raises only `tui.api.errors` exceptions.
"""

from __future__ import annotations

from functools import cached_property

from tui.api.base_client import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_WAIT,
    DEFAULT_TIMEOUT,
    BaseClient,
    check_api_key,
    check_base_url,
)
from tui.api.resources.batch import BatchResource
from tui.api.resources.browser import BrowserResource
from tui.api.resources.crawl import CrawlResource
from tui.api.resources.extract import ExtractResource
from tui.api.resources.jobs import JobsResource
from tui.api.resources.map import MapResource
from tui.api.resources.scrape import ScrapeResource
from tui.api.resources.support import SupportResource
from tui.api.resources.team import TeamResource


class WdsClient(BaseClient):
    """Async client of the web-data service; `BaseClient` lists the arguments.

    Resources, each made on first use: `team`, `support`, `browser`, `scrape`,
    `batch`, `map` (callable: `await client.map(url)`), `crawl`, `extract`, and
    `jobs` (`await client.jobs.get(kind, job_id)`: the job of an activity entry).
    """

    @cached_property
    def team(self) -> TeamResource:
        return TeamResource(self)

    @cached_property
    def support(self) -> SupportResource:
        return SupportResource(self)

    @cached_property
    def browser(self) -> BrowserResource:
        return BrowserResource(self)

    @cached_property
    def scrape(self) -> ScrapeResource:
        return ScrapeResource(self)

    @cached_property
    def batch(self) -> BatchResource:
        return BatchResource(self)

    @cached_property
    def map(self) -> MapResource:
        return MapResource(self)

    @cached_property
    def crawl(self) -> CrawlResource:
        return CrawlResource(self)

    @cached_property
    def extract(self) -> ExtractResource:
        return ExtractResource(self)

    @cached_property
    def jobs(self) -> JobsResource:
        return JobsResource(self)


__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_RETRY_WAIT",
    "DEFAULT_TIMEOUT",
    "WdsClient",
    "check_api_key",
    "check_base_url",
]
