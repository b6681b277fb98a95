"""The keyword options of `scrape.create`, `batch.create` and `crawl.start`, typed for the caller.

The request models (`tui.contract.requests`) stay the one source of the limits and
the wire names: these TypedDicts only tell a type checker and an editor which
keywords a call takes (the anthropic SDK spells its keywords out; with twenty
scrape options shared by three calls, `Unpack` of a TypedDict says the same
once). A nested object may be given as its model or as a plain dict, which the
model validates. At run time the keywords still go through `build_request`: a
wire spelling (`onlyMainContent=True`) is accepted there, an unknown name is a
`TypeError`. `tests/api/test_resource_options.py` holds these in step with the
models.
"""

from __future__ import annotations

from typing import Any, TypedDict

from tui.contract.requests import (
    Action,
    FormatKind,
    FormatObject,
    Location,
    ProxyMode,
    ScrapeOptions,
    ScrapeProfile,
    SitemapMode,
    WebhookConfig,
)


class ScrapeOptionsArgs(TypedDict, total=False):
    """`ScrapeOptions` as keywords (every one optional; None counts as not given)."""

    formats: list[FormatKind | FormatObject | dict[str, Any]] | None
    only_main_content: bool | None
    only_clean_content: bool | None
    include_tags: list[str] | None
    exclude_tags: list[str] | None
    max_age: int | None
    min_age: int | None
    headers: dict[str, str] | None
    wait_for: int | None
    mobile: bool | None
    skip_tls_verification: bool | None
    timeout: int | None
    parsers: list[str | dict[str, Any]] | None
    actions: list[Action | dict[str, Any]] | None
    location: Location | dict[str, Any] | None
    remove_base64_images: bool | None
    block_ads: bool | None
    proxy: ProxyMode | None
    store_in_cache: bool | None
    lockdown: bool | None
    profile: ScrapeProfile | dict[str, Any] | None
    zero_data_retention: bool | None


class BatchScrapeArgs(ScrapeOptionsArgs, total=False):
    """`BatchScrapeRequest` as keywords, but for `urls` (a parameter of its own)."""

    webhook: str | WebhookConfig | dict[str, Any] | None
    max_concurrency: int | None
    ignore_invalid_urls: bool | None


class CrawlArgs(TypedDict, total=False):
    """`CrawlRequest` as keywords, but for `url` (a parameter of its own)."""

    prompt: str | None
    include_paths: list[str] | None
    exclude_paths: list[str] | None
    max_depth: int | None
    max_discovery_depth: int | None
    crawl_entire_domain: bool | None
    allow_external_links: bool | None
    allow_subdomains: bool | None
    sitemap: SitemapMode | None
    ignore_query_parameters: bool | None
    ignore_robots_txt: bool | None
    robots_user_agent: str | None
    deduplicate_similar_urls: bool | None
    delay: float | None
    limit: int | None
    webhook: str | WebhookConfig | dict[str, Any] | None
    scrape_options: ScrapeOptions | ScrapeOptionsArgs | dict[str, Any] | None
