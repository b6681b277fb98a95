"""Which pages a crawl visits, decided up front from the crawl's options.

A synthetic site never changes, so the whole crawl can be planned when it is
created: a breadth-first walk from the start URL (plus the sitemap), with the
crawl's filters applied exactly once per URL. The job then only reveals the
plan page by page as the emulator's clock moves (see `crawl_progress`).
`plan_requested_crawl` is that plan for a request as sent: what its prompt asks
for filled in first. It is the costly half of starting a crawl, done before the
job exists and off the event loop.

Filter semantics (as the service documents them):
- `maxDepth`: path segments below the start URL's path ("/blog" -> "/blog/a" is 1).
- `maxDiscoveryDepth`: link hops from the start URL; the start URL and sitemap
  entries are at discovery depth 0.
- `includePaths` / `excludePaths`: regular expressions searched in the URL's path
  (the start URL itself is always fetched), compiled by RE2 (see `safe_regex`).
- Without `crawlEntireDomain`, only paths under the start URL's path are followed.
- `allowSubdomains` admits `docs.<host>` and the like, `allowExternalLinks` any host.
- `ignoreQueryParameters` treats `/a?x=1` as `/a`; robots.txt rules are obeyed
  unless `ignoreRobotsTxt`; `sitemap` is `include` (default), `skip` or `only`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from tui.contract.requests import CrawlRequest, ScrapeOptions
from tui.emulator.core.errors import InvalidRequest
from tui.emulator.core.safe_regex import PATTERNS_MAX, UnsafePattern, compile_user_pattern
from tui.emulator.jobs.params_preview import read_prompt
from tui.emulator.jobs.scrape_engine import EffectiveOptions, Failure, FailureKind, FetchResult, fetch_page
from tui.emulator.sites.site import SiteSource, base_domain, path_depth, same_host, split_url

DEFAULT_CRAWL_LIMIT = 10_000


class InvalidPattern(ValueError):
    """An includePaths/excludePaths entry that is not a regular expression."""

    def __init__(self, field_name: str, index: int, pattern: str, reason: str, message: str | None = None) -> None:
        super().__init__(message or f"{field_name}[{index}]: {pattern!r} is not a valid regular expression ({reason})")
        self.field_name = field_name
        self.index = index


def compile_patterns(field_name: str, patterns: list[str] | None) -> list[Any]:
    """Compile a path filter list with RE2, naming the bad entry when one does not compile."""
    patterns = patterns or []
    if len(patterns) > PATTERNS_MAX:
        raise InvalidPattern(
            field_name,
            PATTERNS_MAX,
            patterns[PATTERNS_MAX],
            "too many",
            f"{field_name}: at most {PATTERNS_MAX} patterns are accepted, got {len(patterns)}",
        )
    compiled = []
    for index, pattern in enumerate(patterns):
        try:
            compiled.append(compile_user_pattern(pattern))
        except UnsafePattern as exc:
            raise InvalidPattern(field_name, index, pattern, str(exc)) from None
    return compiled


@dataclass(frozen=True)
class CrawlError:
    """A URL the crawl tried and could not scrape."""

    url: str
    failure: Failure


@dataclass
class CrawlPlan:
    """The outcome of a crawl, page by page, in the order pages will complete."""

    results: list[FetchResult] = field(default_factory=list)
    errors: list[CrawlError] = field(default_factory=list)
    robots_blocked: list[str] = field(default_factory=list)
    start_failure: Failure | None = None
    filtered_out: int = 0  # URLs seen but refused by includePaths/excludePaths/depth/host rules

    @property
    def credits(self) -> int:
        return sum(result.credits for result in self.results)


@dataclass(frozen=True)
class _Rules:
    start_host: str
    start_path: str
    include: list[Any]  # RE2 patterns
    exclude: list[Any]
    max_depth: int | None
    max_discovery_depth: int | None
    entire_domain: bool
    allow_subdomains: bool
    allow_external: bool
    ignore_query: bool
    ignore_robots: bool


def _normalise(url: str, ignore_query: bool) -> str:
    host, path, query = split_url(url)
    host = host.removeprefix("www.")
    return f"https://{host}{path}" + (f"?{query}" if query and not ignore_query else "")


def _admits(rules: _Rules, url: str) -> bool:
    host, path, _ = split_url(url)
    if not same_host(host, rules.start_host):
        start = rules.start_host.removeprefix("www.")
        is_sub = host.endswith("." + start) or base_domain(host) == base_domain(start)
        if is_sub and not (rules.allow_subdomains or rules.allow_external):
            return False
        if not is_sub and not rules.allow_external:
            return False
    elif not rules.entire_domain and rules.start_path != "/":
        if not (path == rules.start_path or path.startswith(rules.start_path.rstrip("/") + "/")):
            return False
    if rules.max_depth is not None and path_depth(path) - path_depth(rules.start_path) > rules.max_depth:
        return False
    if rules.include and not any(p.search(path) for p in rules.include):
        return False
    return not any(p.search(path) for p in rules.exclude)


def plan_crawl(sites: SiteSource, request: CrawlRequest) -> CrawlPlan:
    """Walk the synthetic site as the crawl described by `request` would."""
    start_host, start_path, _ = split_url(request.url)
    rules = _Rules(
        start_host=start_host,
        start_path=start_path,
        include=compile_patterns("includePaths", request.include_paths),
        exclude=compile_patterns("excludePaths", request.exclude_paths),
        max_depth=request.max_depth,
        max_discovery_depth=request.max_discovery_depth,
        entire_domain=bool(request.crawl_entire_domain),
        allow_subdomains=bool(request.allow_subdomains),
        allow_external=bool(request.allow_external_links),
        ignore_query=bool(request.ignore_query_parameters),
        ignore_robots=bool(request.ignore_robots_txt),
    )
    limit = request.limit or DEFAULT_CRAWL_LIMIT
    sitemap_mode = request.sitemap or "include"
    options: ScrapeOptions | None = request.scrape_options
    effective = EffectiveOptions.of(options)
    # A cache-only crawl never contacts the target: no page fails it here; each is served
    # from the team's cache or given its 404 when the job is created (see `team_cache`).
    cache_only = effective.lockdown or effective.min_age_ms is not None
    site = sites.site(start_host)
    plan = CrawlPlan()

    if not rules.ignore_robots and not site.robots_allows(start_path):
        plan.robots_blocked.append(request.url)
        plan.start_failure = Failure(
            FailureKind.ROBOTS, "URL blocked by robots.txt.", request.url, {"path": start_path}
        )
        return plan

    queue: deque[tuple[str, int]] = deque([(request.url, 0)])
    seen = {_normalise(request.url, rules.ignore_query)}
    if sitemap_mode != "skip":
        hosts = site.hosts if (rules.allow_subdomains or rules.allow_external) else (start_host,)
        for host in hosts:
            for url in site.sitemap_urls(host):
                key = _normalise(url, rules.ignore_query)
                if key not in seen and _admits(rules, url):
                    seen.add(key)
                    queue.append((url, 0))
    follow_links = sitemap_mode != "only"

    first = True
    while queue and len(plan.results) < limit:
        url, depth = queue.popleft()
        host, path, _ = split_url(url)
        if not first and not rules.ignore_robots and not sites.site(host).robots_allows(path):
            plan.robots_blocked.append(url)
            continue
        result = fetch_page(sites, url, options)
        hard_failure = not cache_only and (
            not result.has_document or (result.failure is not None and result.failure.kind == FailureKind.ANTI_BOT)
        )
        if first and hard_failure:
            plan.start_failure = result.failure
            return plan
        first = False
        if hard_failure:
            assert result.failure is not None
            plan.errors.append(CrawlError(url, result.failure))
            continue
        plan.results.append(result)
        if not follow_links or (result.failure is not None and result.failure.kind != FailureKind.JS_NOT_RENDERED):
            continue
        if rules.max_discovery_depth is not None and depth + 1 > rules.max_discovery_depth:
            continue
        page = sites.site(host).fetch(url)
        for link in page.links:
            key = _normalise(link, rules.ignore_query)
            if key in seen:
                continue
            seen.add(key)
            if not _admits(rules, link):
                plan.filtered_out += 1
                continue
            target = key if rules.ignore_query else link
            queue.append((target, depth + 1))
    return plan


@dataclass(frozen=True)
class PlannedCrawl:
    """The costly half of starting a crawl, done before the job exists (see `plan_requested_crawl`)."""

    request: CrawlRequest  # with the parameters read from its prompt filled in
    plan: CrawlPlan


def plan_requested_crawl(sites: SiteSource, request: CrawlRequest) -> PlannedCrawl:
    """Read the prompt and walk the site: pure and CPU-bound, so callers run it off the event loop.

    Raises `InvalidRequest` for a path pattern that does not compile.
    """
    if request.prompt:
        # Parameters read from the prompt fill in only what the request leaves out.
        generated = read_prompt(request.url, request.prompt)
        explicit = request.to_wire()
        request = CrawlRequest.model_validate({**generated, **explicit})
    try:
        return PlannedCrawl(request, plan_crawl(sites, request))
    except InvalidPattern as exc:
        raise InvalidRequest(
            f"Invalid request body: {exc}", [{"path": [exc.field_name, exc.index], "message": str(exc)}]
        ) from None
