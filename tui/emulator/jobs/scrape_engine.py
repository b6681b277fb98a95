"""Fetching one URL of a synthetic site the way the service would scrape it.

`fetch_page` is pure: it reads the site, applies the scrape options (timeout,
waitFor, proxy, formats, onlyMainContent) and says what the scrape produced,
what it cost and, when something went wrong, why (`Failure`). The job store,
the crawler and the support desk all use it, so a diagnosis can re-run a
failed job with a suggested fix and see the real outcome.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tui.contract.limits import BATCH_TIMEOUT_DEFAULT, ENHANCED_PROXY_CREDITS, LOCKDOWN_MAX_AGE_DEFAULT, MAX_AGE_DEFAULT
from tui.contract.requests import FormatObject, ScrapeOptions
from tui.emulator.sites.content import render_html, render_markdown, render_raw_html
from tui.emulator.sites.site import Page, SiteSource, split_url

BASE_CREDITS = 1  # a plain scrape
NEEDS_LLM = frozenset({"summary", "json", "question", "highlights", "branding", "changeTracking"})
NOT_RENDERED_HERE = frozenset({"screenshot", "audio"})


class FailureKind(enum.StrEnum):
    """Why a job (or one page of it) did not give the caller what they wanted."""

    TARGET_NOT_FOUND = "target_not_found"
    TARGET_SERVER_ERROR = "target_server_error"
    TIMEOUT = "timeout"
    ANTI_BOT = "anti_bot"
    ROBOTS = "robots_blocked"
    NO_CACHED_DATA = "no_cached_data"
    LOCKDOWN_MISS = "lockdown_cache_miss"
    JS_NOT_RENDERED = "js_not_rendered"
    NOTHING_MATCHED = "nothing_matched"
    NO_LLM = "no_llm"


# Failures after which the job still returns a document (the page answered, just not usefully).
SOFT_FAILURES = frozenset(
    {
        FailureKind.TARGET_NOT_FOUND,
        FailureKind.TARGET_SERVER_ERROR,
        FailureKind.ANTI_BOT,
        FailureKind.JS_NOT_RENDERED,
        FailureKind.NOTHING_MATCHED,
    }
)


@dataclass(frozen=True)
class Failure:
    """What went wrong, in words for the caller and in facts for the support desk."""

    kind: FailureKind
    message: str
    url: str
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EffectiveOptions:
    """Scrape options with the contract's defaults filled in."""

    formats: tuple[str, ...]
    only_main_content: bool
    timeout_ms: int
    wait_ms: int
    proxy: str
    max_age_ms: int
    min_age_ms: int | None
    lockdown: bool
    store_in_cache: bool
    wants_llm: tuple[str, ...]
    not_rendered: tuple[str, ...]
    clean_content: bool

    @classmethod
    def of(cls, options: ScrapeOptions | None) -> EffectiveOptions:
        opts = options or ScrapeOptions()
        kinds: list[str] = []
        for item in opts.formats or ["markdown"]:
            kinds.append(item.type if isinstance(item, FormatObject) else str(item))
        action_wait = sum(a.milliseconds or 0 for a in opts.actions or [] if a.type == "wait")
        sensitive = bool(opts.actions) or bool(opts.headers)
        lockdown = bool(opts.lockdown)
        default_age = LOCKDOWN_MAX_AGE_DEFAULT if lockdown else MAX_AGE_DEFAULT
        return cls(
            formats=tuple(dict.fromkeys(kinds)),
            only_main_content=True if opts.only_main_content is None else opts.only_main_content,
            timeout_ms=opts.timeout or BATCH_TIMEOUT_DEFAULT,
            wait_ms=(opts.wait_for or 0) + action_wait,
            proxy=opts.proxy or "auto",
            max_age_ms=default_age if opts.max_age is None else opts.max_age,
            min_age_ms=opts.min_age,
            lockdown=lockdown,
            # Lockdown is zero data retention; sensitive parameters are never cached.
            store_in_cache=(opts.store_in_cache is not False) and not sensitive and not lockdown,
            wants_llm=tuple(k for k in kinds if k in NEEDS_LLM),
            not_rendered=tuple(k for k in kinds if k in NOT_RENDERED_HERE),
            clean_content=bool(opts.only_clean_content),
        )


@dataclass(frozen=True, eq=False)
class FetchResult:
    """The outcome of scraping one URL: a document (unless the scrape failed outright) and its cost.

    The document is written on first read: a seeded history holds hundreds of
    crawled pages that nobody may ever open, and writing them all was most of
    the embedded emulator's start-up. It depends only on the seed and the URL,
    so when it is written does not change what it says.
    """

    url: str
    failure: Failure | None
    credits: int
    elapsed_ms: int
    write_document: Callable[[], dict[str, Any]] | None = field(default=None, repr=False)

    @property
    def has_document(self) -> bool:
        return self.write_document is not None

    @cached_property
    def document(self) -> dict[str, Any] | None:
        return None if self.write_document is None else self.write_document()

    @property
    def ok(self) -> bool:
        return self.failure is None


def fetch_page(sites: SiteSource, url: str, options: ScrapeOptions | None) -> FetchResult:
    """Scrape `url` from its synthetic site with `options` (no cache involved)."""
    opts = EffectiveOptions.of(options)
    site = sites.site(split_url(url)[0])
    page = site.fetch(url)
    needed_ms = page.load_ms + opts.wait_ms
    if needed_ms > opts.timeout_ms:
        timed_out = Failure(
            FailureKind.TIMEOUT,
            f"Scrape timed out after {opts.timeout_ms} ms: the page needed about {needed_ms} ms to load.",
            url,
            {"load_ms": page.load_ms, "wait_ms": opts.wait_ms, "timeout_ms": opts.timeout_ms},
        )
        return FetchResult(url, timed_out, 0, opts.timeout_ms)

    credits = BASE_CREDITS
    proxy_used = "basic"
    status = page.status_code if page.exists else 404
    failure: Failure | None = None
    if page.protected:
        if opts.proxy == "basic":
            status = 403
            failure = Failure(
                FailureKind.ANTI_BOT,
                "The site's anti-bot protection answered 403 to the basic proxy.",
                url,
                {"proxy": "basic"},
            )
        else:
            # `auto` retries with the enhanced proxy after basic is blocked, and that retry is billed.
            credits, proxy_used = ENHANCED_PROXY_CREDITS, "enhanced"
    elif opts.proxy == "enhanced":
        credits, proxy_used = ENHANCED_PROXY_CREDITS, "enhanced"

    if failure is None and not page.exists:
        failure = Failure(FailureKind.TARGET_NOT_FOUND, "The target answered 404 Not Found.", url, {"status": 404})
    elif failure is None and status >= 500:
        failure = Failure(
            FailureKind.TARGET_SERVER_ERROR,
            f"The target answered {status} Internal Server Error.",
            url,
            {"status": status},
        )
    rendered = page.render_ms <= opts.wait_ms
    if failure is None and not rendered:
        failure = Failure(
            FailureKind.JS_NOT_RENDERED,
            f"The page renders its content with JavaScript after about {page.render_ms} ms; "
            f"the scrape waited {opts.wait_ms} ms.",
            url,
            {"render_ms": page.render_ms, "wait_ms": opts.wait_ms},
        )

    def write_document() -> dict[str, Any]:
        document = build_document(sites, page, url, opts, status=status, rendered=rendered, proxy_used=proxy_used)
        if failure is not None and failure.kind != FailureKind.JS_NOT_RENDERED:
            document["metadata"]["error"] = failure.message
        return document

    return FetchResult(url, failure, credits, needed_ms, write_document)


def build_document(
    sites: SiteSource,
    page: Page,
    requested_url: str,
    opts: EffectiveOptions,
    *,
    status: int,
    rendered: bool,
    proxy_used: str,
) -> dict[str, Any]:
    """The Document the service returns for `page`, with the requested formats."""
    site = sites.site(page.host)
    blocked = status == 403
    body = site.body(page)
    document: dict[str, Any] = {}
    for kind in opts.formats:
        if blocked:
            break
        if kind == "markdown":
            document["markdown"] = render_markdown(body, only_main_content=opts.only_main_content, rendered=rendered)
        elif kind == "html":
            document["html"] = render_html(body, only_main_content=opts.only_main_content, rendered=rendered)
        elif kind == "rawHtml":
            document["rawHtml"] = render_raw_html(body, rendered=rendered)
        elif kind == "links":
            document["links"] = list(page.links)
        elif kind == "images":
            document["images"] = list(body.images)
    warnings = []
    if opts.wants_llm:
        warnings.append(f"Formats {', '.join(opts.wants_llm)} need an LLM, and the emulator has none; skipped.")
    if opts.clean_content:
        warnings.append("onlyCleanContent needs an LLM, and the emulator has none; the markdown is kept as scraped.")
    if opts.not_rendered:
        warnings.append(f"Formats {', '.join(opts.not_rendered)} are not produced by the emulator; skipped.")
    if warnings:
        document["warning"] = " ".join(warnings)
    document["metadata"] = {
        "title": "403 Forbidden" if blocked else body.title,
        "description": "" if blocked else body.description,
        "language": "en",
        "sourceURL": requested_url,
        "url": page.url,
        "statusCode": status,
        "contentType": "text/plain" if body.raw_text is not None else "text/html",
        "proxyUsed": proxy_used,
    }
    return document
