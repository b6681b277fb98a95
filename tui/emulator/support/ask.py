"""The support agent's diagnosis: fixed rules over what the emulator knows about a job.

There is no model. A job that failed carries a `Failure` (kind plus facts such
as the page's load time). The agent reads the question and the rationale
(`reading`), says so when the question is outside what this failure explains,
otherwise asks the failure kind's rule for its diagnoses (`diagnoses`), ranks
them against the question and the rationale's constraints (`ranking`), and
re-runs the job with the recommended fix against the synthetic site or the
team's cache (without billing or recording anything) to report whether it
really works. `validation` only ever describes that re-run, made now for this
question; the confidence follows its result.

When there is nothing to diagnose (no job given and no failed job in the
last 24 hours, a job id the team does not own, a job that did not fail), the
agent says so in `feedback` instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from tui.contract.requests import CrawlRequest, ScrapeOptions, SupportAskRequest
from tui.emulator.core.clock import Clock, isoformat_z
from tui.emulator.core.teams import Team
from tui.emulator.jobs.crawl_plan import plan_crawl
from tui.emulator.jobs.model import CrawlJob, Job
from tui.emulator.jobs.scrape_engine import EffectiveOptions, Failure, FailureKind, fetch_page
from tui.emulator.jobs.store import JobStore
from tui.emulator.sites.site import SiteSource
from tui.emulator.support.diagnoses import KIND_TOPICS, RULES, JobContext, scrape_options_of
from tui.emulator.support.docs_search import best_passages
from tui.emulator.support.ranking import decide, helpable, out_of_scope
from tui.emulator.support.reading import read

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


_LEVELS = ("low", "medium", "high")


def _at_most(confidence: str, ceiling: str) -> str:
    return min(confidence, ceiling, key=_LEVELS.index)


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
        reading = read(request.question, request.rationale, job_id=job.id, url=failure.url)
        kind_topics = KIND_TOPICS[failure.kind]
        outside = out_of_scope(reading, kind_topics)
        if outside is not None:
            return self._out_of_scope(job, failure, outside, kind_topics, draft)
        context = JobContext(self.sites, self.jobs.cache, team.id, self.clock.now(), draft.attempted)
        verdict = decide(RULES[failure.kind](context, job, failure), reading, facts=_facts(job, failure))
        draft.attempted.extend(verdict.steps)
        draft.answer, draft.fix_parameters, draft.validation = verdict.answer, verdict.fix, verdict.validation
        # Until its fix is tested, an answer is at most "medium" (a 504 may return it untested).
        draft.confidence = verdict.confidence if verdict.fix is None else _at_most(verdict.confidence, "medium")
        self.checkpoint(draft)
        if verdict.fix is not None:
            draft.validation = self._validate(team, job, failure, verdict.fix, draft)
            # The confidence follows the test: a fix that failed it is a low-confidence answer.
            draft.confidence = verdict.confidence if draft.validation["result"] == "success" else "low"
        return draft

    def _out_of_scope(
        self, job: Job, failure: Failure, outside: str, kind_topics: frozenset[str], draft: Draft
    ) -> Draft:
        """An honest "cannot diagnose that": what the job's failure is, and what the agent can help with."""
        draft.attempted.append(f"read the question: it is {outside}")
        draft.answer = (
            f"I can't diagnose that from this job: your question is {outside}. {_facts(job, failure)} "
            f"I can explain that failure and how to fix it: ask about {helpable(kind_topics)}."
        )
        draft.confidence = "low"
        draft.validation = {
            "tested": False,
            "result": "skipped",
            "evidence": "Nothing was re-run: the question is outside what I can diagnose from this job.",
        }
        draft.feedback = {
            "blockedBy": f"The question is {outside}; job {job.id} failed with {failure.kind.value}, "
            "and that failure is what I can diagnose.",
            "attempted": list(draft.attempted),
        }
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

    def _validate(self, team: Team, job: Job, failure: Failure, fix: dict[str, Any], draft: Draft) -> dict[str, Any]:
        """Re-run the failing part of `job` with `fix` applied, now (nothing is billed or recorded)."""
        # A crawl's own parameters sit beside `scrapeOptions`; only the page options reach a scrape.
        scrape_fix = fix.get("scrapeOptions", {}) if isinstance(job, CrawlJob) else fix.get("scrapeOptions", fix)
        options = scrape_options_of(job).to_wire()
        options.pop("urls", None)
        options.pop("webhook", None)
        url = scrape_fix.get("url", failure.url)
        merged = {k: v for k, v in {**options, **scrape_fix}.items() if v is not None and k != "url"}
        page_options = ScrapeOptions.model_validate(merged)
        effective = EffectiveOptions.of(page_options)
        if effective.lockdown or effective.min_age_ms is not None:
            return self._validate_from_cache(team, url, effective, scrape_fix, draft)
        if isinstance(job, CrawlJob) and job.request is not None and failure.url == job.url:
            return self._validate_crawl(job, failure, fix, draft)
        result = fetch_page(self.sites, url, page_options)
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

    def _validate_from_cache(
        self, team: Team, url: str, effective: EffectiveOptions, scrape_fix: dict[str, Any], draft: Draft
    ) -> dict[str, Any]:
        """A cache-only fix (lockdown, minAge) re-run against the team's cache: never the site."""
        cache, now = self.jobs.cache, self.clock.now()
        if effective.lockdown:
            entry = cache.fresh(team.id, url, now, effective.max_age_ms)
            how = f"lockdown and maxAge {effective.max_age_ms} ms"
        else:
            min_age = effective.min_age_ms or 1
            entry = cache.aged(team.id, url, now, min_age)
            how = f"minAge {min_age} ms"
        draft.attempted.append(f"re-ran the scrape of {url} from the team's cache with {scrape_fix} (not billed)")
        if entry is None:
            return {
                "tested": True,
                "result": "failure",
                "evidence": f"Re-ran the scrape of {url} from your team's cache with {how}: no cached copy "
                "qualifies (nothing contacted, not billed).",
            }
        return {
            "tested": True,
            "result": "success",
            "evidence": f"Re-ran the scrape of {url} from your team's cache with {how}: the copy stored at "
            f"{isoformat_z(entry.stored_at)} is served (nothing contacted, not billed).",
        }

    def _validate_crawl(self, job: CrawlJob, failure: Failure, fix: dict[str, Any], draft: Draft) -> dict[str, Any]:
        """Re-plan a crawl that failed at its start URL with `fix` applied."""
        assert job.request is not None
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


def _facts(job: Job, failure: Failure) -> str:
    """The failure in one sentence, the same whatever the question."""
    return f"The {job.kind} job {job.id} failed on {failure.url}: {failure.message.rstrip('.')}."
