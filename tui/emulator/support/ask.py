"""The support agent's diagnosis: fixed rules over what the emulator knows about a job.

There is no model. A job that failed carries a `Failure` (kind plus facts such
as the page's load time); each kind has one rule that explains it in a few
sentences, proposes the parameters that fix it, and, where a fix exists,
re-runs the job with those parameters against the synthetic site (without
billing or recording anything) to report whether the fix really works.

When there is nothing to diagnose (no job given and no failed job in the
last 24 hours, a job id the team does not own, a job that did not fail), the
agent says so in `feedback` instead of guessing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from tui.contract.limits import BATCH_TIMEOUT_MAX
from tui.contract.requests import CrawlRequest, MapRequest, ScrapeOptions, SupportAskRequest
from tui.emulator.core.clock import Clock
from tui.emulator.core.teams import Team
from tui.emulator.jobs.crawl_plan import plan_crawl
from tui.emulator.jobs.model import AgentJob, BatchJob, CrawlJob, Job, ScrapeJob
from tui.emulator.jobs.scrape_engine import EffectiveOptions, Failure, FailureKind, fetch_page
from tui.emulator.jobs.store import JobStore
from tui.emulator.sites.site import SiteSource, split_url
from tui.emulator.sites.site_map import map_links
from tui.emulator.support.docs_search import best_passages

RECENT = timedelta(hours=24)


@dataclass
class Draft:
    """The envelope as far as the diagnosis got (a 504 returns it as it stands)."""

    answer: str = ""
    confidence: str = "low"
    fix_parameters: dict[str, Any] | None = None
    validation: dict[str, Any] | None = None
    feedback: dict[str, Any] | None = None
    attempted: list[str] = field(default_factory=list)


def _round_up(value: float, step: int) -> int:
    return int(math.ceil(value / step) * step)


def _scrape_options_of(job: Job) -> ScrapeOptions:
    if isinstance(job, ScrapeJob):
        return job.request
    if isinstance(job, BatchJob) and job.request is not None:
        return job.request
    if isinstance(job, CrawlJob) and job.request is not None:
        return job.request.scrape_options or ScrapeOptions()
    return ScrapeOptions()


class Diagnostician:
    """Applies the diagnosis rules to one team's jobs."""

    def __init__(self, jobs: JobStore, sites: SiteSource, clock: Clock, checkpoint: Callable[[Draft], None]) -> None:
        self.jobs = jobs
        # Fixes are re-run against the same synthetic sites the job met.
        self.sites = sites
        self.clock = clock
        # Called between steps; raises when the time budget is spent.
        self.checkpoint = checkpoint

    def diagnose(self, team: Team, request: SupportAskRequest, draft: Draft) -> Draft:
        """Fill `draft` with a diagnosis of the job the question is about."""
        self.checkpoint(draft)
        job = self._find_job(team, request, draft)
        if job is None:
            return draft
        self.checkpoint(draft)
        failure = self._failure_of(job)
        if failure is None:
            status = job.status(self.clock.now())
            draft.answer = (
                f"Job {job.id} ({job.kind}, status {status}) shows no failure I can explain. "
                "If the output looks wrong, describe the symptom and the job id of a single page."
            )
            draft.feedback = {
                "blockedBy": f"Job {job.id} did not fail, and no rule matches the question.",
                "attempted": list(draft.attempted),
            }
            return draft
        draft.attempted.append(f"read the failure recorded for {job.kind} job {job.id}: {failure.kind.value}")
        rule = _RULES.get(failure.kind)
        if rule is None:  # pragma: no cover - every kind has a rule; kept for new kinds
            draft.feedback = {
                "blockedBy": f"No diagnosis rule for {failure.kind.value}.",
                "attempted": list(draft.attempted),
            }
            return draft
        rule(self, job, failure, draft)
        self.checkpoint(draft)
        if draft.fix_parameters is not None and draft.validation is None:
            draft.validation = self._validate(job, failure, draft.fix_parameters, draft)
        return draft

    # -- finding the job -----------------------------------------------------------

    def _find_job(self, team: Team, request: SupportAskRequest, draft: Draft) -> Job | None:
        store = self.jobs
        if request.job_id:
            draft.attempted.append(f"looked up job {request.job_id}")
            job = store.get(request.job_id)
            if job is None or job.team_id != team.id:
                draft.answer = (
                    f"I could not find job {request.job_id} in your team's jobs. "
                    "Check the id (a scrape's id is data.metadata.scrapeId) or list recent jobs "
                    "with GET /v2/team/activity."
                )
                draft.feedback = {
                    "blockedBy": f"Job {request.job_id} was not found for this team.",
                    "attempted": list(draft.attempted),
                }
                return None
            return job
        since = self.clock.now() - RECENT
        draft.attempted.append("listed the team's jobs of the last 24 hours to find a failed one")
        for job in store.for_team(team.id):
            if job.created_at >= since and self._failure_of(job) is not None:
                draft.attempted.append(f"picked the most recent failed job, {job.kind} {job.id}")
                return job
        draft.answer = (
            "No jobId was given and your team has no failed job in the last 24 hours, so there is "
            "nothing concrete to diagnose. Pass the jobId of the failing call."
        )
        closest = best_passages(request.question, limit=1)
        if closest:
            passage = closest[0][0]
            draft.answer += (
                f" The closest documentation is {passage.page_title} › {passage.heading} ({passage.location})."
            )
            draft.attempted.append(f"searched the documentation: best match {passage.location}")
        draft.feedback = {
            "blockedBy": "No jobId given and no failed job found in the last 24 hours.",
            "attempted": list(draft.attempted),
        }
        return None

    def _failure_of(self, job: Job) -> Failure | None:
        if isinstance(job, CrawlJob):
            if job.failure is not None:
                return job.failure
            if job.plan.errors:
                return job.plan.errors[0].failure
            return next((r.failure for r in job.plan.results if r.failure is not None), None)
        return job.failure

    # -- validation ------------------------------------------------------------------

    def _validate(self, job: Job, failure: Failure, fix: dict[str, Any], draft: Draft) -> dict[str, Any]:
        """Re-run the failing part of `job` with `fix` applied (nothing is billed or recorded)."""
        if isinstance(job, CrawlJob) and job.request is not None and failure.url == job.url:
            wire = job.request.to_wire()
            scrape_fix = fix.get("scrapeOptions", {})
            merged = {**wire, **{k: v for k, v in fix.items() if k != "scrapeOptions"}}
            if scrape_fix:
                merged["scrapeOptions"] = {**wire.get("scrapeOptions", {}), **scrape_fix}
            merged.pop("webhook", None)
            plan = plan_crawl(self.sites, CrawlRequest.model_validate(merged))
            draft.attempted.append(f"re-planned crawl {job.id} with {fix} (not billed)")
            if plan.start_failure is not None:
                return {
                    "tested": True,
                    "result": "failure",
                    "evidence": f"With the fix the crawl still fails: {plan.start_failure.message}",
                }
            if failure.kind == FailureKind.NOTHING_MATCHED and len(plan.results) <= 1:
                return {
                    "tested": True,
                    "result": "failure",
                    "evidence": "With the fix the crawl still reaches only its start page.",
                }
            return {
                "tested": True,
                "result": "success",
                "evidence": f"With the fix the crawl of {job.url} reaches {len(plan.results)} pages "
                f"(it had {len(job.plan.results)}).",
            }
        options = _scrape_options_of(job).to_wire()
        options.pop("urls", None)
        options.pop("webhook", None)
        scrape_fix = fix.get("scrapeOptions", fix)
        url = scrape_fix.get("url", failure.url)
        merged = {k: v for k, v in {**options, **scrape_fix}.items() if v is not None and k != "url"}
        result = fetch_page(self.sites, url, ScrapeOptions.model_validate(merged))
        draft.attempted.append(f"re-scraped {url} with {scrape_fix} (not billed)")
        if result.failure is None:
            assert result.document is not None
            size = len(result.document.get("markdown", ""))
            return {
                "tested": True,
                "result": "success",
                "evidence": f"Re-scraped {url} with the fix: status {result.document['metadata']['statusCode']}, "
                f"{size} characters of markdown, about {result.elapsed_ms} ms.",
            }
        return {
            "tested": True,
            "result": "failure",
            "evidence": f"Re-scraped {url} with the fix and it still failed: {result.failure.message}",
        }


# -- the rules, one per failure kind ------------------------------------------------


def _fix_key(job: Job, params: dict[str, Any]) -> dict[str, Any]:
    """A crawl takes page options under `scrapeOptions`; scrape and batch take them at the top level."""
    return {"scrapeOptions": params} if isinstance(job, CrawlJob) else params


def _timeout(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    needed = failure.facts.get("load_ms", 0) + failure.facts.get("wait_ms", 0)
    current = failure.facts.get("timeout_ms", EffectiveOptions.of(_scrape_options_of(job)).timeout_ms)
    suggested = min(BATCH_TIMEOUT_MAX, _round_up(needed * 1.25, 10_000))
    if needed > BATCH_TIMEOUT_MAX:
        draft.answer = (
            f"{failure.url} needs about {needed} ms to load, more than the largest allowed timeout "
            f"({BATCH_TIMEOUT_MAX} ms), so no timeout setting can fix it. Scrape a lighter page of the "
            "site or remove waitFor/wait actions."
        )
        draft.confidence = "medium"
        return
    draft.answer = (
        f"The scrape of {failure.url} timed out: the page needs about {needed} ms to load but the "
        f"timeout was {current} ms. Raise timeout to {suggested} ms (the maximum is "
        f"{BATCH_TIMEOUT_MAX}); waitFor and wait actions count against it too."
    )
    draft.confidence = "high"
    draft.fix_parameters = _fix_key(job, {"timeout": suggested})


def _anti_bot(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    draft.answer = (
        f"{failure.url} is behind anti-bot protection that answers 403 to the basic proxy. "
        'Use proxy "auto" (the default), which retries through the enhanced proxy and bills 5 '
        "credits only when that retry is needed."
    )
    draft.confidence = "high"
    draft.fix_parameters = _fix_key(job, {"proxy": "auto"})


def _not_found(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    host, path, _ = split_url(failure.url)
    words = " ".join(part for part in path.replace("-", " ").split("/") if part)
    draft.attempted.append(f"mapped {host} searching for {words!r}")
    links = map_links(agent.sites, MapRequest(url=f"https://{host}/", search=words or None, limit=1))
    candidate = links[0]["url"] if links and words else None
    if candidate and candidate != failure.url:
        draft.answer = (
            f"{failure.url} does not exist: the site answers 404 Not Found. The closest page on the "
            f"site's map is {candidate}; scrape that URL instead, or check the link you started from."
        )
        draft.confidence = "medium"
        draft.fix_parameters = {"url": candidate}
    else:
        draft.answer = (
            f"{failure.url} does not exist: the site answers 404 Not Found, and mapping the site found "
            "no similar page. Check the URL for a typo."
        )
        draft.confidence = "medium"
        draft.validation = {"tested": False, "result": "skipped", "evidence": "No replacement URL to test."}


def _server_error(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    result = fetch_page(agent.sites, failure.url, _scrape_options_of(job))
    draft.attempted.append(f"re-scraped {failure.url} unchanged to see whether the error persists")
    still = result.document is not None and result.document["metadata"]["statusCode"] >= 500
    draft.answer = f"The site itself failed: {failure.url} answered {failure.facts.get('status', 500)}. " + (
        "It still does now, so no request parameter will help; retry later or report it to the site's owner."
        if still
        else "It works again now; simply retry the scrape."
    )
    draft.confidence = "medium"
    draft.validation = {
        "tested": True,
        "result": "failure" if still else "success",
        "evidence": f"Re-scraped {failure.url}: status "
        f"{result.document['metadata']['statusCode'] if result.document else 'none'}.",
    }


def _js_not_rendered(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    render_ms = failure.facts.get("render_ms", 0)
    wait = _round_up(render_ms + 500, 1000)
    draft.answer = (
        f"{failure.url} renders its content with JavaScript about {render_ms} ms after loading, and "
        f"the scrape captured it after {failure.facts.get('wait_ms', 0)} ms, so the markdown only shows "
        f"a loading placeholder. Set waitFor to {wait} ms."
    )
    draft.confidence = "high"
    draft.fix_parameters = _fix_key(job, {"waitFor": wait})


def _lockdown_miss(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    draft.answer = (
        f"Lockdown mode only reads the cache and never contacts the target, and {failure.url} has not "
        "been cached for your team. Scrape it once without lockdown (that fills the cache), then "
        "lockdown reads will hit."
    )
    draft.confidence = "high"
    draft.fix_parameters = {"lockdown": False}


def _no_cached_data(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    draft.answer = (
        f"minAge makes the scrape cache-only, and no copy of {failure.url} old enough was cached for "
        "your team. Drop minAge to allow a fresh scrape."
    )
    draft.confidence = "high"
    draft.fix_parameters = {"minAge": None}


def _robots(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    draft.answer = (
        f"The site's robots.txt disallows {failure.facts.get('path', failure.url)}, so the crawl did not "
        "fetch it. If you have the site owner's permission, set ignoreRobotsTxt to true; otherwise "
        "start from an allowed URL."
    )
    draft.confidence = "high"
    draft.fix_parameters = {"ignoreRobotsTxt": True}


def _nothing_matched(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    include = failure.facts.get("include_paths") or []
    exclude = failure.facts.get("exclude_paths") or []
    draft.answer = (
        f"The crawl only fetched its start page: {failure.facts.get('filtered_out', 0)} discovered URLs "
        f"were refused by its rules (includePaths {include}, excludePaths {exclude}, depth and host "
        "limits). The patterns are regular expressions matched against the URL path; remove or "
        "loosen them."
    )
    draft.confidence = "medium"
    fix: dict[str, Any] = {"includePaths": [], "excludePaths": []}
    if isinstance(job, CrawlJob) and split_url(job.url)[1] != "/":
        fix["crawlEntireDomain"] = True
    draft.fix_parameters = fix


def _no_llm(agent: Diagnostician, job: Job, failure: Failure, draft: Draft) -> None:
    kind = job.endpoint if isinstance(job, AgentJob) else job.kind
    draft.answer = (
        f"This {kind} job needs an LLM, and this deployment (the local emulator) has none, so it failed "
        "without running. No parameter changes that; run it against the hosted service."
    )
    draft.confidence = "high"
    draft.validation = {"tested": False, "result": "skipped", "evidence": "Nothing to re-run without an LLM."}


_RULES: dict[FailureKind, Callable[[Diagnostician, Job, Failure, Draft], None]] = {
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
