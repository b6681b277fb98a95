"""The diagnoses the support agent knows, per failure kind: each a few sentences, topics and a fix.

A failure kind has one rule; the rule returns every diagnosis that fits the job, in
the order the agent prefers them when the question names none of their topics
(`ranking` reorders them against the question and the rationale). A diagnosis that
proposes parameters leaves testing them to the agent (`ask`), which re-runs only the
one it recommends; a diagnosis without a fix may carry a `check` it ran itself (the
site's error still there, the cache still empty), and says so in its evidence.

`KIND_TOPICS` is what each kind's diagnoses can be about: a question that names none
of these, only other topics, is outside what this job's failure can explain.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tui.contract.limits import BATCH_TIMEOUT_MAX
from tui.contract.requests import MapRequest, ScrapeOptions
from tui.emulator.jobs.model import AgentJob, BatchJob, CrawlJob, Job, ScrapeJob
from tui.emulator.jobs.scrape_cache import ScrapeCache
from tui.emulator.jobs.scrape_engine import EffectiveOptions, Failure, FailureKind, fetch_page
from tui.emulator.sites.site import SiteSource, split_url
from tui.emulator.sites.site_map import map_links

HOUR_MS = 3_600_000


@dataclass(frozen=True)
class Diagnosis:
    """One explanation of a failure, the parameters that fix it (if any), and what it is about."""

    key: str
    topics: frozenset[str]
    answer: str  # the diagnosis and its fix, in 1 to 3 sentences
    confidence: str  # if its fix passes its test (the agent lowers it otherwise)
    fix: dict[str, Any] | None = None
    fix_words: str = ""  # the fix in a few words, for "X would fix it, but ..."
    check: dict[str, Any] | None = None  # a validation already run, for a diagnosis without a fix


@dataclass
class JobContext:
    """What a rule may look at besides the job: the sites, the team's cache, the time, the steps so far."""

    sites: SiteSource
    cache: ScrapeCache
    team_id: str
    now: datetime
    attempted: list[str]


KIND_TOPICS: dict[FailureKind, frozenset[str]] = {
    FailureKind.TIMEOUT: frozenset({"timeout", "waitFor"}),
    FailureKind.ANTI_BOT: frozenset({"proxy"}),
    FailureKind.TARGET_NOT_FOUND: frozenset({"url"}),
    FailureKind.TARGET_SERVER_ERROR: frozenset({"site_error"}),
    FailureKind.JS_NOT_RENDERED: frozenset({"waitFor"}),
    FailureKind.LOCKDOWN_MISS: frozenset({"lockdown", "maxAge", "cache"}),
    FailureKind.NO_CACHED_DATA: frozenset({"minAge", "cache"}),
    FailureKind.ROBOTS: frozenset({"robots"}),
    FailureKind.NOTHING_MATCHED: frozenset({"paths"}),
    FailureKind.NO_LLM: frozenset({"llm"}),
}


def _round_up(value: float, step: int) -> int:
    return int(math.ceil(value / step) * step)


def scrape_options_of(job: Job) -> ScrapeOptions:
    """The page options the job ran with (a crawl's `scrapeOptions`)."""
    if isinstance(job, ScrapeJob):
        return job.request
    if isinstance(job, BatchJob) and job.request is not None:
        return job.request
    if isinstance(job, CrawlJob) and job.request is not None:
        return job.request.scrape_options or ScrapeOptions()
    return ScrapeOptions()


def _fix_key(job: Job, params: dict[str, Any]) -> dict[str, Any]:
    """A crawl takes page options under `scrapeOptions`; scrape and batch take them at the top level."""
    return {"scrapeOptions": params} if isinstance(job, CrawlJob) else params


def _topics(*names: str) -> frozenset[str]:
    return frozenset(names)


def _timeout(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    load, wait = failure.facts.get("load_ms", 0), failure.facts.get("wait_ms", 0)
    needed = load + wait
    current = failure.facts.get("timeout_ms", EffectiveOptions.of(scrape_options_of(job)).timeout_ms)
    found: list[Diagnosis] = []
    if needed > BATCH_TIMEOUT_MAX:
        found.append(
            Diagnosis(
                "timeout-too-slow",
                _topics("timeout"),
                f"{failure.url} needs about {needed} ms to load, more than the largest allowed timeout "
                f"({BATCH_TIMEOUT_MAX} ms), so no timeout setting can fix it. Scrape a lighter page of the "
                "site or remove waitFor/wait actions.",
                "medium",
            )
        )
    else:
        suggested = min(BATCH_TIMEOUT_MAX, _round_up(needed * 1.25, 10_000))
        found.append(
            Diagnosis(
                "raise-timeout",
                _topics("timeout"),
                f"The scrape of {failure.url} timed out: the page needs about {needed} ms to load but the "
                f"timeout was {current} ms. Raise timeout to {suggested} ms (the maximum is "
                f"{BATCH_TIMEOUT_MAX}); waitFor and wait actions count against it too.",
                "high",
                _fix_key(job, {"timeout": suggested}),
                f"raising timeout to {suggested} ms",
            )
        )
    if scrape_options_of(job).wait_for and load <= current:
        found.append(
            Diagnosis(
                "drop-wait",
                _topics("waitFor", "timeout"),
                f"{failure.url} itself loads in about {load} ms, within the timeout of {current} ms; the "
                f"{wait} ms of waitFor and wait actions push the scrape over it. Set waitFor to 0 and keep "
                "the timeout.",
                "high",
                _fix_key(job, {"waitFor": 0}),
                "setting waitFor to 0",
            )
        )
    return found


def _anti_bot(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    return [
        Diagnosis(
            "proxy-auto",
            _topics("proxy"),
            f"{failure.url} is behind anti-bot protection that answers 403 to the basic proxy. "
            'Use proxy "auto" (the default), which retries through the enhanced proxy and bills 5 '
            "credits only when that retry is needed.",
            "high",
            _fix_key(job, {"proxy": "auto"}),
            'proxy "auto" (5 credits a page when the enhanced retry is needed)',
        )
    ]


def _not_found(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    host, path, _ = split_url(failure.url)
    words = " ".join(part for part in path.replace("-", " ").split("/") if part)
    ctx.attempted.append(f"mapped {host} searching for {words!r}")
    links = map_links(ctx.sites, MapRequest(url=f"https://{host}/", search=words or None, limit=1))
    candidate = links[0]["url"] if links and words else None
    if candidate and candidate != failure.url:
        return [
            Diagnosis(
                "closest-url",
                _topics("url"),
                f"{failure.url} does not exist: the site answers 404 Not Found. The closest page on the "
                f"site's map is {candidate}; scrape that URL instead, or check the link you started from.",
                "medium",
                {"url": candidate},
                f"scraping {candidate} instead",
            )
        ]
    return [
        Diagnosis(
            "no-such-page",
            _topics("url"),
            f"{failure.url} does not exist: the site answers 404 Not Found, and mapping the site found "
            "no similar page. Check the URL for a typo.",
            "medium",
            check={"tested": False, "result": "skipped", "evidence": "No replacement URL to test."},
        )
    ]


def _server_error(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    result = fetch_page(ctx.sites, failure.url, scrape_options_of(job))
    ctx.attempted.append(f"re-scraped {failure.url} unchanged to see whether the error persists")
    status = result.document["metadata"]["statusCode"] if result.document else None
    still = status is not None and status >= 500
    answer = f"The site itself failed: {failure.url} answered {failure.facts.get('status', 500)}. " + (
        "It still does now, so no request parameter will help; retry later or report it to the site's owner."
        if still
        else "It works again now; simply retry the scrape."
    )
    check = {
        "tested": True,
        "result": "failure" if still else "success",
        "evidence": f"Re-scraped {failure.url}: status {status if status is not None else 'none'}.",
    }
    return [Diagnosis("site-error", _topics("site_error"), answer, "medium", check=check)]


def _js_not_rendered(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    render_ms = failure.facts.get("render_ms", 0)
    wait = _round_up(render_ms + 500, 1000)
    return [
        Diagnosis(
            "wait-for-render",
            _topics("waitFor"),
            f"{failure.url} renders its content with JavaScript about {render_ms} ms after loading, and "
            f"the scrape captured it after {failure.facts.get('wait_ms', 0)} ms, so the markdown only shows "
            f"a loading placeholder. Set waitFor to {wait} ms.",
            "high",
            _fix_key(job, {"waitFor": wait}),
            f"setting waitFor to {wait} ms",
        )
    ]


def _lockdown_miss(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    lockdown_off = Diagnosis(
        "lockdown-off",
        _topics("lockdown", "cache"),
        f"Lockdown mode only reads the cache and never contacts the target, and {failure.url} has not "
        "been cached for your team. Scrape it once without lockdown (that fills the cache), then "
        "lockdown reads will hit.",
        "high",
        _fix_key(job, {"lockdown": False}),
        "Turning lockdown off (or scraping the page once without it to fill the cache)",
    )
    entry = ctx.cache.get(ctx.team_id, failure.url)
    ctx.attempted.append(f"looked up {failure.url} in the team's cache")
    if entry is None:
        no_copy = Diagnosis(
            "max-age-cannot-help",
            _topics("maxAge"),
            f"Raising maxAge cannot help: your team has no copy of {failure.url} cached at any age, and "
            "lockdown only ever serves a cached copy.",
            "medium",
            check={
                "tested": True,
                "result": "failure",
                "evidence": f"Looked {failure.url} up in your team's cache now, with lockdown kept and any "
                "maxAge (nothing contacted, not billed): no copy is stored.",
            },
        )
        return [lockdown_off, no_copy]
    age_ms = entry.age_ms(ctx.now)
    max_age = EffectiveOptions.of(scrape_options_of(job)).max_age_ms
    suggested = _round_up(age_ms + 1, HOUR_MS)
    raise_max_age = Diagnosis(
        "raise-max-age",
        _topics("maxAge", "cache"),
        f"Your team has a copy of {failure.url} cached {age_ms // 60_000} minutes ago, older than this job's "
        f"maxAge of {max_age} ms, and lockdown only serves copies younger than maxAge. Keep lockdown on and "
        f"raise maxAge to {suggested} ms.",
        "high",
        _fix_key(job, {"maxAge": suggested}),
        f"raising maxAge to {suggested} ms",
    )
    return [raise_max_age, lockdown_off]


def _no_cached_data(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    found = [
        Diagnosis(
            "drop-min-age",
            _topics("minAge", "cache"),
            f"minAge makes the scrape cache-only, and no copy of {failure.url} old enough was cached for "
            "your team. Drop minAge to allow a fresh scrape.",
            "high",
            _fix_key(job, {"minAge": None}),
            "Dropping minAge (which allows a fresh scrape of the site)",
        )
    ]
    entry = ctx.cache.get(ctx.team_id, failure.url)
    ctx.attempted.append(f"looked up {failure.url} in the team's cache")
    if entry is not None and entry.age_ms(ctx.now) >= 1000:
        age = entry.age_ms(ctx.now) // 1000 * 1000
        found.append(
            Diagnosis(
                "lower-min-age",
                _topics("minAge", "cache"),
                f"Your team has a copy of {failure.url} cached {age // 1000} s ago, younger than this job's "
                f"minAge of {failure.facts.get('min_age_ms')} ms. Lower minAge to {age} ms to be served that "
                "copy without contacting the site.",
                "high",
                _fix_key(job, {"minAge": age}),
                f"lowering minAge to {age} ms",
            )
        )
    return found


def _robots(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    return [
        Diagnosis(
            "ignore-robots",
            _topics("robots"),
            f"The site's robots.txt disallows {failure.facts.get('path', failure.url)}, so the crawl did not "
            "fetch it. If you have the site owner's permission, set ignoreRobotsTxt to true; otherwise "
            "start from an allowed URL.",
            "high",
            {"ignoreRobotsTxt": True},
            "Setting ignoreRobotsTxt to true",
        )
    ]


def _nothing_matched(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    include = failure.facts.get("include_paths") or []
    exclude = failure.facts.get("exclude_paths") or []
    fix: dict[str, Any] = {"includePaths": [], "excludePaths": []}
    if isinstance(job, CrawlJob) and split_url(job.url)[1] != "/":
        fix["crawlEntireDomain"] = True
    return [
        Diagnosis(
            "loosen-paths",
            _topics("paths"),
            f"The crawl only fetched its start page: {failure.facts.get('filtered_out', 0)} discovered URLs "
            f"were refused by its rules (includePaths {include}, excludePaths {exclude}, depth and host "
            "limits). The patterns are regular expressions matched against the URL path; remove or "
            "loosen them.",
            "medium",
            fix,
            "Removing includePaths and excludePaths",
        )
    ]


def _no_llm(ctx: JobContext, job: Job, failure: Failure) -> list[Diagnosis]:
    kind = job.endpoint if isinstance(job, AgentJob) else job.kind
    return [
        Diagnosis(
            "needs-llm",
            _topics("llm"),
            f"This {kind} job needs an LLM, and this deployment (the local emulator) has none, so it failed "
            "without running. No parameter changes that; run it against the hosted service.",
            "high",
            check={"tested": False, "result": "skipped", "evidence": "Nothing to re-run without an LLM."},
        )
    ]


RULES: dict[FailureKind, Callable[[JobContext, Job, Failure], list[Diagnosis]]] = {
    FailureKind.TIMEOUT: _timeout,
    FailureKind.ANTI_BOT: _anti_bot,
    FailureKind.TARGET_NOT_FOUND: _not_found,
    FailureKind.TARGET_SERVER_ERROR: _server_error,
    FailureKind.JS_NOT_RENDERED: _js_not_rendered,
    FailureKind.LOCKDOWN_MISS: _lockdown_miss,
    FailureKind.NO_CACHED_DATA: _no_cached_data,
    FailureKind.ROBOTS: _robots,
    FailureKind.NOTHING_MATCHED: _nothing_matched,
    FailureKind.NO_LLM: _no_llm,
}
