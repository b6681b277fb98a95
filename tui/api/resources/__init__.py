"""Resources of `WdsClient`, one module per group of endpoints."""

from tui.api.resources.batch import BatchResource
from tui.api.resources.browser import BrowserResource
from tui.api.resources.crawl import CrawlResource
from tui.api.resources.extract import ExtractResource
from tui.api.resources.jobs import JobsResource
from tui.api.resources.map import MapResource
from tui.api.resources.scrape import ScrapeResource
from tui.api.resources.support import SupportResource
from tui.api.resources.team import TeamResource

__all__ = [
    "BatchResource",
    "BrowserResource",
    "CrawlResource",
    "ExtractResource",
    "JobsResource",
    "MapResource",
    "ScrapeResource",
    "SupportResource",
    "TeamResource",
]
