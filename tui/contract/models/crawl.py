"""Crawls: parameter preview, active crawls, start, status and cancel (`/v2/crawl...`)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from tui.contract.models.common import JobStateValue, JobStatus, Timestamp, WdsModel


class CrawlOptionFields(WdsModel):
    """The crawl parameters of the contract's "Crawl parameters" table, less `url`.

    A params preview returns them; an active crawl's `options` echo the ones
    the crawl was started with. Each reads its camelCase wire name or its
    snake_case name, since the service is not consistent about which it sends.
    """

    include_paths: list[str] | None = None
    exclude_paths: list[str] | None = None
    max_depth: int | None = None
    max_discovery_depth: int | None = None
    crawl_entire_domain: bool | None = None
    allow_external_links: bool | None = None
    allow_subdomains: bool | None = None
    sitemap: str | None = None
    ignore_query_parameters: bool | None = None
    ignore_robots_txt: bool | None = None
    robots_user_agent: str | None = None
    # "URLs", not to_camel's "Urls": the wire's spelling, as in the request model
    deduplicate_similar_urls: bool | None = Field(None, alias="deduplicateSimilarURLs")
    delay: float | None = None
    limit: int | None = None


class CrawlParams(CrawlOptionFields):
    """Crawl parameters the service derived from a natural-language prompt."""

    url: str | None = None


class CrawlParamsPreview(WdsModel):
    """The answer to `POST /v2/crawl/params-preview`."""

    success: bool = True
    data: CrawlParams


class ProfileEcho(WdsModel):
    """The browser profile a crawl's scrapes use."""

    name: str | None = None
    save_changes: bool | None = None


class ScrapeOptionsEcho(WdsModel):
    """The scrape options of an active crawl, as the server echoes them.

    The common options are typed; every other option is kept in `model_extra`.
    """

    formats: list[Any] | None = None
    only_main_content: bool | None = None
    timeout: int | None = None
    max_age: int | None = None
    proxy: str | None = None
    mobile: bool | None = None
    profile: ProfileEcho | None = None


class ActiveCrawlOptions(CrawlOptionFields):
    """Options of an active crawl: the crawl parameters it was started with and its scrape options.

    Only `scrape_options` is in the contract ("other members of `options`: not
    shown"); the crawl parameters are what the service echoes from the start
    request. Anything else stays in `model_extra`.
    """

    scrape_options: ScrapeOptionsEcho | None = None


class ActiveCrawl(WdsModel):
    """A running crawl of the team. `created_at` is real-service drift, hence optional."""

    id: str
    team_id: str | None = None
    url: str
    options: ActiveCrawlOptions = Field(default_factory=ActiveCrawlOptions)
    created_at: Timestamp | None = None


class ActiveCrawlList(WdsModel):
    """The answer to `GET /v2/crawl/active`."""

    success: bool = True
    crawls: list[ActiveCrawl]  # always sent: a missing list is a broken answer, not an empty one


class CrawlStarted(WdsModel):
    """The answer to `POST /v2/crawl`: the job id (also in its webhooks) and status URL."""

    success: bool = True
    id: str
    url: str | None = None


class CrawlStatus(JobStatus):
    """Status, progress and one page of documents of a crawl."""


class CrawlCancelled(WdsModel):
    """The answer to `DELETE /v2/crawl/{id}`: the crawl's state after the request.

    Not in the contract's tables; the service and its SDKs answer
    `{success, status: "cancelled"}`. A crawl that had already finished keeps
    its state (the emulator then answers `completed` or `failed`), so the
    caller shows what `status` says rather than assuming "cancelled".
    """

    success: bool = True
    status: JobStateValue | None = None
