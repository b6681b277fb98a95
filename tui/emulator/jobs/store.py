"""The job store: every scrape, crawl, batch scrape and agent job of every team.

Routes and the seed/traffic generators create jobs through the same methods
(`create_scrape`, `start_crawl`, `create_batch`, `create_agent_job`,
`failing_scrape`), so seeded history is made of genuine jobs whose failures
come from the synthetic sites, and every creation is recorded once in the
team's activity and usage.

Billing: a scrape costs what its fetch cost (1 credit, 5 through the enhanced
proxy, 5/1 for a lockdown hit/miss, nothing when it produced nothing). A crawl
is billed when it starts, for every page it will scrape; a batch page by page,
as each URL is scraped (`BatchRun`), as the service bills. Either status shows
`creditsUsed` growing as pages complete. A map costs 1 credit.

A tester may hold a team's new crawls and batches, or any one of them, and move them by
hand or on their Nth status poll (`progression`, `steering`): the store hands each new job
and each status poll to its `Progression`, which follows the clock unless told otherwise.

A team's queue is capped (`batch_intake.QUEUED_URLS_MAX`): a batch that would
pass it is refused.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime

from tui.contract.requests import BatchScrapeRequest, CrawlRequest, MapRequest, ScrapeRequest
from tui.emulator.core.billing import Billing
from tui.emulator.core.clock import Clock
from tui.emulator.core.errors import Forbidden, NotFound, TimedOut
from tui.emulator.core.ids import IdBlock, NewId, NewIds
from tui.emulator.core.teams import Caller
from tui.emulator.jobs.batch_intake import SortedUrls, check_queue, sort_batch_urls
from tui.emulator.jobs.batch_run import BatchRun
from tui.emulator.jobs.crawl_plan import PlannedCrawl, plan_requested_crawl
from tui.emulator.jobs.crawl_progress import JOB_RETENTION, Timeline, page_interval
from tui.emulator.jobs.failure_recipes import failing_request
from tui.emulator.jobs.model import AgentJob, BatchJob, CrawlJob, Job, ScrapeJob, webhook_config
from tui.emulator.jobs.progression import ClockProgression, Progression
from tui.emulator.jobs.rendered_pages import RenderedPages
from tui.emulator.jobs.running_batches import RunningBatches
from tui.emulator.jobs.scrape_cache import ScrapeCache
from tui.emulator.jobs.scrape_engine import Failure, FailureKind
from tui.emulator.jobs.team_cache import TeamCacheScraper
from tui.emulator.jobs.webhooks import WebhookDispatcher
from tui.emulator.sites.site import SiteSource
from tui.emulator.sites.site_map import map_links

NO_LLM_MESSAGE = (
    "This job needs an LLM, and the emulator has none: extract and agent jobs are recorded but never run here."
)

# Status endpoints that answer 404 "Job expired." once a job is past its 24 hours.
EXPIRY_ANSWERED_KINDS = ("crawl", "batch_scrape")
# Ids of dropped jobs kept for that answer: about a day of a busy team's crawls and batches.
EXPIRED_IDS_MAX = 50_000


class JobStore:
    """All jobs, by id, plus the scrape cache they share."""

    def __init__(
        self,
        *,
        sites: SiteSource,
        clock: Clock,
        new_id: NewId,
        billing: Billing,
        webhooks: WebhookDispatcher,
        new_ids: NewIds | None = None,
    ) -> None:
        self._sites = sites
        self._clock = clock
        self._new_id = new_id
        # Many ids at once (a batch's pages); drawn one by one where no block source is given.
        self._new_ids: NewIds = new_ids or (lambda count: IdBlock.of([new_id() for _ in range(count)]))
        self._billing = billing
        self._webhooks = webhooks
        self.cache = ScrapeCache()
        self._scraper = TeamCacheScraper(sites, self.cache)
        # Batch documents read lately, for the next poll of the same status page.
        self._rendered = RenderedPages()
        self._jobs: dict[str, Job] = {}
        # Batches with URLs still to scrape: the status route and the served emulator's loop catch them up.
        self.running_batches = RunningBatches(clock)
        # Crawls and batches dropped by `prune`: id -> (team, kind), so their status still
        # answers "Job expired." rather than "Job not found." (ids only: ~200 B each, capped).
        self._expired: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._progression: Progression = ClockProgression()

    def steer_with(self, progression: Progression) -> None:
        """Hand new jobs and status polls to `progression` (the composition root wires the tester's control)."""
        self._progression = progression

    def polled(self, job: CrawlJob | BatchJob) -> None:
        """Its team read `job`'s status (`GET /v2/crawl/{id}`, `GET /v2/batch/scrape/{id}`)."""
        self._progression.polled(job)

    # -- lookup ------------------------------------------------------------------

    def get(self, job_id: str) -> Job | None:
        """Any job by id, whoever owns it (routes check the team)."""
        return self._jobs.get(job_id.lower())

    def for_team(self, team_id: str) -> list[Job]:
        """The team's jobs, newest first."""
        return [job for job in reversed(self._jobs.values()) if job.team_id == team_id]

    def active_crawls(self, team_id: str) -> list[CrawlJob]:
        """The team's crawls that are still scraping, oldest first."""
        now = self._clock.now()
        return [
            job
            for job in self._jobs.values()
            if isinstance(job, CrawlJob) and job.team_id == team_id and job.status(now) == "scraping"
        ]

    # -- scrape ------------------------------------------------------------------

    def create_scrape(
        self, caller: Caller, request: ScrapeRequest, *, at: datetime | None = None, record: bool = True
    ) -> ScrapeJob:
        """Scrape one URL (through the team's cache when the options allow) and record the call."""
        now = at or self._clock.now()
        scraped = self._scraper.scrape(caller.team.id, request.url, request, now)
        result = scraped.result
        job_id = self._new_id()
        document = copy.deepcopy(result.document) if result.document is not None else None
        if document is not None:
            document["metadata"].update(
                {"scrapeId": job_id, "cacheState": scraped.cache_state, "creditsUsed": result.credits}
            )
        job = ScrapeJob(
            id=job_id,
            team_id=caller.team.id,
            api_key=caller.api_key,
            url=request.url,
            request=request,
            created_at=now,
            document=document,
            failure=result.failure,
            credits=result.credits,
            cache_state=scraped.cache_state,
        )
        self._jobs[job_id] = job
        if record:
            self._record(caller, "scrape", request.url, job_id, result.credits, at)
        return job

    def failing_scrape(
        self, caller: Caller, kind: FailureKind, host: str = "example.com", *, at: datetime | None = None
    ) -> ScrapeJob:
        """A real scrape of `host`'s site that fails for `kind` (for seeded history and tests)."""
        return self.create_scrape(caller, failing_request(self._sites.site(host), kind), at=at)

    # -- crawl -------------------------------------------------------------------

    def plan_crawl(self, request: CrawlRequest) -> PlannedCrawl:
        """The crawl's request and plan (`crawl_plan.plan_requested_crawl`); routes run it off the event loop."""
        return plan_requested_crawl(self._sites, request)

    def start_crawl(
        self,
        caller: Caller,
        request: CrawlRequest,
        *,
        at: datetime | None = None,
        record: bool = True,
        planned: PlannedCrawl | None = None,
        through_cache: bool = True,
    ) -> CrawlJob:
        """Plan a crawl (unless `planned` by `plan_crawl` already), record it, bill it and schedule its webhooks.

        `through_cache=False` (the seeded past only) scrapes every page afresh and stores nothing.
        """
        now = at or self._clock.now()
        planned = planned or self.plan_crawl(request)
        request, plan = planned.request, planned.plan
        if through_cache:
            # Every crawled page goes through the team's cache with the crawl's scrape options.
            plan = dataclasses.replace(
                plan,
                results=[
                    self._scraper.scrape(
                        caller.team.id, result.url, request.scrape_options, now, fetched=result
                    ).job_result()
                    for result in plan.results
                ],
            )
        job_id = self._new_id()
        timeline = Timeline(
            now, len(plan.results), page_interval(delay=request.delay), fails_at_start=plan.start_failure is not None
        )
        job = CrawlJob(
            id=job_id,
            team_id=caller.team.id,
            api_key=caller.api_key,
            created_at=now,
            status_path=f"/v2/crawl/{job_id}",
            timeline=timeline,
            webhook=webhook_config(request.webhook),
            page_ids=[self._new_id() for _ in plan.results],
            url=request.url,
            request=request,
            plan=plan,
        )
        if plan.start_failure is None and len(plan.results) <= 1 and plan.filtered_out:
            job.nothing_matched = Failure(
                FailureKind.NOTHING_MATCHED,
                f"Only the start page was crawled: {plan.filtered_out} discovered URLs were refused by the "
                "crawl's path, depth or host rules.",
                request.url,
                {
                    "filtered_out": plan.filtered_out,
                    "include_paths": request.include_paths or [],
                    "exclude_paths": request.exclude_paths or [],
                },
            )
        self._jobs[job_id] = job
        if record:
            self._record(caller, "crawl", request.url, job_id, plan.credits, at)
        self._webhooks.schedule_job(job, caller.team)
        self._progression.adopt(job)
        return job

    def cancel(self, job: CrawlJob | BatchJob, at: datetime | None = None) -> None:
        """Stop a crawl or batch: pages done so far stay, later pages and events never happen
        (a `<kind>.cancelled` event says so to a webhook that wanted the job's end)."""
        now = at or self._clock.now()
        if job.status(now) == "scraping":
            job.cancelled_at = now
            self._webhooks.job_cancelled(job, now)

    # -- batch -------------------------------------------------------------------

    # The URLs of a batch and the team's queue cap: `batch_intake`.
    sort_batch_urls = staticmethod(sort_batch_urls)

    def check_queue(self, team_id: str, adding: int | None, now: datetime | None = None) -> None:
        """Refuse `adding` more pages for `team_id` past the team's queue cap (see `batch_intake.check_queue`)."""
        check_queue(self.for_team(team_id), now or self._clock.now(), adding)

    def create_batch(
        self,
        caller: Caller,
        request: BatchScrapeRequest,
        *,
        at: datetime | None = None,
        record: bool = True,
        urls: SortedUrls | None = None,
        through_cache: bool = True,
    ) -> BatchJob:
        """Start a batch scrape of `urls` (sorted by `sort_batch_urls` unless given); nothing is scraped yet.

        Each URL is scraped, and billed, when the batch's timeline reaches it (`BatchRun`).
        `through_cache=False` (the seeded past only) scrapes every URL afresh and stores nothing.
        Refused by the team's queue cap (`check_queue`).
        """
        now = at or self._clock.now()
        urls = urls or self.sort_batch_urls(request)
        self.check_queue(caller.team.id, len(urls.valid), now)
        job_id = self._new_id()
        page_ids = self._new_ids(len(urls.valid))
        timeline = Timeline(now, len(urls.valid), page_interval(concurrency=request.max_concurrency))

        def charge(credits: int, when: datetime) -> None:
            self._billing.charge(caller.team, caller.api_key, credits, at=when)

        # The URL list is kept once, packed, in the run; the request keeps the options.
        options = request.model_copy(update={"urls": []})
        run = BatchRun(
            urls=urls.valid,
            options=options,
            timeline=timeline,
            scraper=self._scraper,
            team_id=caller.team.id,
            charge=charge if record else None,
            through_cache=through_cache,
            rendered=self._rendered,
        )
        job = BatchJob(
            id=job_id,
            team_id=caller.team.id,
            api_key=caller.api_key,
            created_at=now,
            status_path=f"/v2/batch/scrape/{job_id}",
            timeline=timeline,
            webhook=webhook_config(request.webhook),
            page_ids=page_ids,
            request=options,
            run=run,
            invalid_urls=urls.invalid,
        )
        self._jobs[job_id] = job
        self.running_batches.add(job)
        if record:
            # Billed page by page as the URLs are scraped.
            self._record(caller, "batch_scrape", urls.valid[0], job_id, 0, at)
        self._webhooks.schedule_job(job, caller.team)
        self._progression.adopt(job)
        return job

    # -- map and agent -------------------------------------------------------------

    def list_map(self, request: MapRequest) -> list[dict[str, str]]:
        """The links of a map request: pure and CPU-bound, so routes run it off the event loop.

        Raises `TimedOut` past the request's `timeout`, `InvalidRequest` for a search too long.
        """
        try:
            return map_links(self._sites, request)
        except TimeoutError as exc:
            raise TimedOut(str(exc)) from None

    def map_site(
        self, caller: Caller, request: MapRequest, links: list[dict[str, str]] | None = None
    ) -> list[dict[str, str]]:
        """The links of a map request (listed by `list_map` unless given), recorded as one `map` call (1 credit)."""
        links = self.list_map(request) if links is None else links
        self._record(caller, "map", request.url, None, 1, None)
        return links

    def create_agent_job(
        self,
        caller: Caller,
        prompt: str,
        urls: list[str] | None = None,
        *,
        endpoint: str = "agent",
        at: datetime | None = None,
        record: bool = True,
    ) -> AgentJob:
        """An extract/agent job; it fails at once because no LLM is available here."""
        if endpoint not in ("agent", "extract"):
            raise ValueError("endpoint must be 'agent' or 'extract'")
        now = at or self._clock.now()
        job_id = self._new_id()
        failure = Failure(FailureKind.NO_LLM, NO_LLM_MESSAGE, (urls or [""])[0])
        job = AgentJob(
            id=job_id,
            team_id=caller.team.id,
            api_key=caller.api_key,
            created_at=now,
            prompt=prompt,
            urls=list(urls or []),
            failure=failure,
            endpoint=endpoint,
        )
        self._jobs[job_id] = job
        if record:
            self._record(caller, endpoint, job.url or prompt[:200], job_id, 0, at)
        return job

    # -- retention ---------------------------------------------------------------

    def prune(self, still_listed: Callable[[str], bool]) -> int:
        """Drop the jobs past their 24-hour retention (`expiresAt`) whose activity entry is gone too; how many.

        `still_listed(job_id)` says whether the team's activity still shows the job's entry: a
        job stays retrievable for as long as the activity lists it, even past its own expiry.
        """
        cutoff = self._clock.now() - JOB_RETENTION
        expired = [
            job_id for job_id, job in self._jobs.items() if job.created_at <= cutoff and not still_listed(job_id)
        ]
        for job_id in expired:
            job = self._jobs.pop(job_id)
            self.running_batches.forget(job_id)
            if job.kind in EXPIRY_ANSWERED_KINDS:
                self._expired[job_id] = (job.team_id, job.kind)
        while len(self._expired) > EXPIRED_IDS_MAX:
            self._expired.popitem(last=False)
        return len(expired)

    # -- bookkeeping -------------------------------------------------------------

    def _record(
        self, caller: Caller, endpoint: str, target: str, job_id: str | None, credits: int, at: datetime | None
    ) -> None:
        # Seeded history happens in the past (`at`): it is recorded at its own time.
        self._billing.record_call(caller, endpoint, target, job_id=job_id, credits=credits, at=at)

    def owned(self, job_id: str, team_id: str, kinds: tuple[str, ...]) -> Job:
        """The job `job_id` of one of `kinds` (`NotFound` otherwise; `Forbidden` when another team's)."""
        job = self.get(job_id)
        if job is None and self._expired.get(job_id.lower()) in [(team_id, kind) for kind in kinds]:
            raise NotFound("Job expired.")
        if job is None or job.kind not in kinds:
            raise NotFound("Job not found.")
        if job.team_id != team_id:
            raise Forbidden("You are not allowed to access this resource.")
        return job
