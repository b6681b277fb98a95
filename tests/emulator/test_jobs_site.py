"""Synthetic sites and the scrape engine: deterministic, complete, and failing for known reasons."""

from __future__ import annotations

import pytest

from tui.contract.requests import CrawlRequest, ScrapeOptions
from tui.emulator.jobs.crawl_plan import InvalidPattern, plan_crawl
from tui.emulator.jobs.crawl_progress import Timeline, page_interval
from tui.emulator.jobs.scrape_engine import FailureKind, fetch_page
from tui.emulator.sites.registry import SiteRegistry
from tui.emulator.sites.site import base_domain, path_depth, split_url


def _urls(registry: SiteRegistry, host: str) -> list[str]:
    return [page.url for page in registry.site(host).pages()]


def test_same_seed_gives_the_same_site_and_text() -> None:
    a, b = SiteRegistry(3), SiteRegistry(3)
    assert _urls(a, "example.com") == _urls(b, "example.com")
    page_a = a.site("example.com").fetch("https://example.com/blog")
    page_b = b.site("example.com").fetch("https://example.com/blog")
    assert a.site("example.com").body(page_a) == b.site("example.com").body(page_b)


def test_another_seed_or_host_gives_another_site() -> None:
    assert _urls(SiteRegistry(3), "example.com") != _urls(SiteRegistry(4), "example.com")
    registry = SiteRegistry(3)
    assert registry.site("example.com") is not registry.site("other.org")


def test_subdomains_and_www_share_one_site() -> None:
    registry = SiteRegistry(0)
    site = registry.site("example.com")
    assert registry.site("docs.example.com") is site
    assert registry.site("blog.example.com") is site
    assert base_domain("www.example.com") == "example.com"
    assert site.hosts == ("example.com", "docs.example.com", "blog.example.com")
    assert site.lookup("https://www.example.com/about") == site.lookup("https://example.com/about")


def test_site_has_the_promised_shape() -> None:
    site = SiteRegistry(0).site("example.com")
    pages = list(site.pages())
    sections = {page.section for page in pages}
    assert {"home", "blog", "products", "docs", "legal", "admin", "reports", "status"} <= sections
    assert any(page.query for page in pages), "query-parameter pages exist"
    assert any(page.host == "docs.example.com" for page in pages)
    assert any(page.host == "blog.example.com" for page in pages)
    assert any(page.protected for page in pages)
    assert any(page.render_ms > 0 for page in pages)
    assert any(page.status_code == 500 for page in pages)
    # Sitemap-only pages exist (landing pages are never linked) and link-only pages too.
    linked = {link for page in pages for link in page.links}
    assert any(page.in_sitemap and page.url not in linked for page in pages if page.section == "landing")
    assert any(not page.in_sitemap and page.url in linked for page in pages if page.section == "careers")
    robots = site.body(site.fetch("https://example.com/robots.txt")).raw_text
    assert robots is not None and "Disallow: /admin" in robots


def test_unknown_path_is_a_404_page() -> None:
    page = SiteRegistry(0).site("example.com").fetch("https://example.com/no/such/page")
    assert page.status_code == 404 and not page.exists


def test_unknown_query_parameters_serve_the_same_page() -> None:
    site = SiteRegistry(0).site("example.com")
    page = site.lookup("https://example.com/about?ref=newsletter")
    assert page is not None and page.title == site.lookup("https://example.com/about").title
    assert page.url == "https://example.com/about?ref=newsletter"


def test_url_helpers() -> None:
    assert split_url("https://Example.com/a/b/?x=1") == ("example.com", "/a/b", "x=1")
    assert split_url("https://example.com") == ("example.com", "/", "")
    assert path_depth("/") == 0 and path_depth("/blog/post") == 2


# -- the scrape engine -------------------------------------------------------------


@pytest.fixture
def registry() -> SiteRegistry:
    return SiteRegistry(0)


def _slow_url(registry: SiteRegistry) -> tuple[str, int]:
    page = next(p for p in registry.site("example.com").pages() if p.section == "reports")
    return page.url, page.load_ms


def test_fetch_ok_page_gives_requested_formats(registry: SiteRegistry) -> None:
    result = fetch_page(registry, "https://example.com/about", ScrapeOptions(formats=["markdown", "html", "links"]))
    assert result.ok and result.credits == 1
    doc = result.document
    assert doc is not None and doc["markdown"].startswith("# About")
    assert doc["html"].startswith("<main>") and doc["links"]
    assert doc["metadata"]["statusCode"] == 200 and "rawHtml" not in doc


def test_only_main_content_false_keeps_navigation(registry: SiteRegistry) -> None:
    main = fetch_page(registry, "https://example.com/about", None).document
    full = fetch_page(registry, "https://example.com/about", ScrapeOptions(only_main_content=False)).document
    assert main is not None and full is not None
    assert "[Home](" not in main["markdown"] and "[Home](" in full["markdown"]


def test_llm_formats_are_skipped_with_a_warning(registry: SiteRegistry) -> None:
    doc = fetch_page(registry, "https://example.com/about", ScrapeOptions(formats=["markdown", "summary"])).document
    assert doc is not None and "LLM" in doc["warning"] and "summary" not in doc


def test_slow_page_times_out_unless_timeout_is_raised(registry: SiteRegistry) -> None:
    url, load_ms = _slow_url(registry)
    assert load_ms > 60_000
    failed = fetch_page(registry, url, None)
    assert failed.document is None and failed.failure is not None
    assert failed.failure.kind == FailureKind.TIMEOUT and failed.credits == 0
    assert fetch_page(registry, url, ScrapeOptions(timeout=300_000)).ok


def test_wait_for_counts_against_the_timeout(registry: SiteRegistry) -> None:
    page = registry.site("example.com").fetch("https://example.com/about")
    options = ScrapeOptions(timeout=1000, wait_for=1000 - page.load_ms + 1)
    assert fetch_page(registry, page.url, options).failure.kind == FailureKind.TIMEOUT  # type: ignore[union-attr]


def test_anti_bot_page_by_proxy(registry: SiteRegistry) -> None:
    url = "https://example.com/pricing/enterprise"
    basic = fetch_page(registry, url, ScrapeOptions(proxy="basic"))
    assert basic.failure is not None and basic.failure.kind == FailureKind.ANTI_BOT
    assert basic.document is not None and basic.document["metadata"]["statusCode"] == 403
    auto = fetch_page(registry, url, None)
    assert auto.ok and auto.credits == 5 and auto.document["metadata"]["proxyUsed"] == "enhanced"  # type: ignore[index]
    assert fetch_page(registry, "https://example.com/about", ScrapeOptions(proxy="enhanced")).credits == 5


def test_javascript_page_needs_wait_for(registry: SiteRegistry) -> None:
    page = registry.site("example.com").fetch("https://example.com/products")
    early = fetch_page(registry, page.url, None)
    assert early.failure is not None and early.failure.kind == FailureKind.JS_NOT_RENDERED
    assert "Loading…" in early.document["markdown"]  # type: ignore[index]
    late = fetch_page(registry, page.url, ScrapeOptions(wait_for=page.render_ms))
    assert late.ok and "Loading…" not in late.document["markdown"]  # type: ignore[index]


def test_target_errors_still_give_a_document(registry: SiteRegistry) -> None:
    missing = fetch_page(registry, "https://example.com/gone", None)
    assert missing.failure.kind == FailureKind.TARGET_NOT_FOUND  # type: ignore[union-attr]
    assert missing.document["metadata"]["statusCode"] == 404 and missing.document["metadata"]["error"]  # type: ignore[index]
    broken = fetch_page(registry, "https://example.com/status/legacy", None)
    assert broken.failure.kind == FailureKind.TARGET_SERVER_ERROR  # type: ignore[union-attr]


# -- crawl planning and pacing ----------------------------------------------------------


def test_crawl_plan_obeys_robots_and_reports_refusals(registry: SiteRegistry) -> None:
    plan = plan_crawl(registry, CrawlRequest(url="https://example.com/", crawl_entire_domain=True))
    urls = [r.url for r in plan.results]
    assert not any("/admin" in url or "/internal" in url for url in urls)
    assert any("/admin" in url for url in plan.robots_blocked)
    ignoring = plan_crawl(registry, CrawlRequest(url="https://example.com/", ignore_robots_txt=True))
    assert any("/admin" in r.url for r in ignoring.results)


def test_crawl_plan_rejects_a_bad_regex(registry: SiteRegistry) -> None:
    with pytest.raises(InvalidPattern, match=r"excludePaths\[1\]"):
        plan_crawl(registry, CrawlRequest(url="https://example.com/", exclude_paths=["^/ok", "(unclosed"]))


def test_timeline_paces_pages_with_the_clock() -> None:
    from datetime import UTC, datetime, timedelta

    start = datetime(2025, 1, 1, tzinfo=UTC)
    line = Timeline(start, pages=5, interval=page_interval())
    assert page_interval() == 0.5 and page_interval(concurrency=1) == 1.0 and page_interval(delay=3) == 3.0
    assert line.completed(start) == 0 and line.status(start) == "scraping"
    assert line.completed(start + timedelta(seconds=1)) == 2
    end = start + timedelta(seconds=2.5)
    assert line.completed(end) == 5 and line.status(end) == "completed"
    cancelled_at = start + timedelta(seconds=1)
    assert line.status(start + timedelta(hours=1), cancelled_at) == "cancelled"
    assert line.completed(start + timedelta(hours=1), cancelled_at) == 2
    failing = Timeline(start, pages=0, interval=0.5, fails_at_start=True)
    assert failing.status(start) == "scraping" and failing.status(start + timedelta(seconds=1)) == "failed"
