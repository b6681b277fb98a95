"""The snapshot's work part: jobs, the scrape cache and webhook deliveries not yet done.

A job is written by its shape (`values.encode`), one row per job, with the
store's order in a row of its own (a team's jobs list newest first). A job's
row is written again only when the job has moved (`JobRows`): a finished
crawl of the seeded past is turned into JSON once, not every second.

Deliveries kept are the pending ones, with their attempts and the time of
their next try; delivered and given-up ones are history no route shows.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from tui.emulator.jobs.crawl_progress import Timeline
from tui.emulator.jobs.model import AgentJob, BatchJob, CrawlJob, Job, ScrapeJob
from tui.emulator.jobs.scrape_cache import CacheEntry
from tui.emulator.jobs.webhook_delivery import Delivery
from tui.emulator.jobs.webhooks import _BatchEvents
from tui.emulator.state.core_parts import Apply, Deferred, Rows, moment, need
from tui.emulator.state.values import SnapshotError, StateContext, decode, encode

if TYPE_CHECKING:
    from tui.emulator.state.stateful import Stateful

ORDER_ROW = "order"
EXPIRED_ROW = "expired"
JOB_KINDS = ("scrape", "crawl", "batch_scrape", "agent")
MAX_INTERVAL = 86_400.0  # seconds between a job's pages: a day is already far beyond any plan
MAX_CACHE_ENTRIES = 10_000_000


def state_context(emulator: Stateful) -> StateContext:
    """The scraper, page cache and billing a restored batch works with again."""
    store, billing, teams = emulator.jobs, emulator.billing, emulator.teams

    def charge_for(team_id: str, api_key: str) -> Any:
        def charge(credits: int, when: datetime) -> None:
            team = teams.get(team_id)
            if team is not None:
                billing.charge(team, api_key, credits, at=when)

        return charge

    return StateContext(scraper=store._scraper, rendered=store._rendered, charge_for=charge_for)


class JobRows:
    """Jobs as rows, each written again only when it has moved since it was last written."""

    def __init__(self) -> None:
        # job id -> (the job, its progress, its row): an imported job of the same id is another object.
        self._written: dict[str, tuple[Job, Any, Any]] = {}

    def read(self, emulator: Stateful) -> Rows:
        now = emulator.clock.now()
        jobs = emulator.jobs._jobs
        rows: Rows = {ORDER_ROW: list(jobs)}
        written: dict[str, tuple[Job, Any, Any]] = {}
        for job_id, job in jobs.items():
            mark = _progress(job, now)
            kept = self._written.get(job_id)
            if kept is not None and kept[0] is job and kept[1] == mark:
                row = kept[2]
            elif isinstance(job, BatchJob):
                row = encode(job)  # its progress moves on the loop: read here, all at once
            else:
                row = Deferred(partial(encode, job))
            written[job_id] = (job, mark, row)
            rows[f"job:{job_id}"] = row
        self._written = written
        rows[EXPIRED_ROW] = [[job_id, team, kind] for job_id, (team, kind) in emulator.jobs._expired.items()]
        return rows


def _progress(job: Job, now: datetime) -> Any:
    """What changes when a job moves: its state, its pages done (scraped, for a batch), a cancellation."""
    scraped = job.run.scraped if isinstance(job, BatchJob) else None
    completed = getattr(job, "completed", None)
    done = completed(now) if callable(completed) else None
    return (job.status(now), done, scraped, getattr(job, "cancelled_at", None))


def parse_jobs(rows: Rows, emulator: Stateful, context: StateContext) -> Apply:
    order = need(rows.get(ORDER_ROW, []), list, f"jobs.{ORDER_ROW}")
    now = emulator.clock.now()
    jobs: dict[str, Job] = {}
    for job_id in order:
        raw = rows.get(f"job:{job_id}")
        if raw is None:
            raise SnapshotError(f"jobs: job {job_id!r} is in the order but has no 'job:{job_id}' row")
        jobs[job_id] = checked_job(decode(raw, context, f"jobs[{job_id!r}]"), job_id, now)
    unordered = {key.removeprefix("job:") for key in rows if key.startswith("job:")} - set(jobs)
    if unordered:
        raise SnapshotError(f"jobs: rows without a place in jobs.{ORDER_ROW}: {sorted(unordered)[:3]}")
    expired: OrderedDict[str, tuple[str, str]] = OrderedDict()
    for item in need(rows.get(EXPIRED_ROW, []), list, f"jobs.{EXPIRED_ROW}"):
        if not (isinstance(item, list) and len(item) == 3 and all(isinstance(part, str) for part in item)):
            raise SnapshotError(f"jobs.{EXPIRED_ROW}: expected [job id, team id, kind] items")
        expired[item[0]] = (item[1], item[2])

    def apply() -> None:
        store = emulator.jobs
        store._jobs = jobs
        store._expired = expired
        store.running_batches._unfinished.clear()
        for job in jobs.values():
            if isinstance(job, BatchJob) and job.run.scraped < len(job.run.urls):
                store.running_batches.add(job)

    return apply


def checked_job(job: Any, job_id: str, now: datetime) -> Job:
    """`job` if it is a job of `job_id` whose fields the routes can work with, else a `SnapshotError`.

    A job is decoded by its shape, so a field of the wrong type or out of range would be taken as it
    is and break a route (or every later save) long after the import answered 200.
    """
    where = f"jobs[{job_id!r}]"
    if not isinstance(job, ScrapeJob | CrawlJob | BatchJob | AgentJob) or job.id != job_id:
        raise SnapshotError(f"{where}: not a job with that id (kinds: {', '.join(JOB_KINDS)})")
    for name in ("team_id", "api_key"):
        need(getattr(job, name), str, f"{where}.{name}")
    aware(job.created_at, f"{where}.created_at")
    if isinstance(job, CrawlJob | BatchJob):
        checked_timeline(job.timeline, f"{where}.timeline")
        if job.cancelled_at is not None:
            aware(job.cancelled_at, f"{where}.cancelled_at")
    if isinstance(job, BatchJob):
        checked_timeline(job.run.timeline, f"{where}.run.timeline")
    if isinstance(job, ScrapeJob):
        need(job.credits, int, f"{where}.credits")
    try:  # the last guard: what the routes and the next save do with it
        _progress(job, now)
        encode(job)
    except Exception as exc:  # noqa: BLE001 - any failure here is the snapshot's, refused as such
        raise SnapshotError(f"{where}: cannot be read back ({type(exc).__name__}: {exc})") from None
    return job


def aware(value: Any, where: str) -> datetime:
    """`value` if it is a time with its zone."""
    if need(value, datetime, where).tzinfo is None:
        raise SnapshotError(f"{where}: expected a time with its zone")
    return value


def checked_timeline(timeline: Any, where: str) -> None:
    """A job's plan: a start with its zone, a page count and a positive, finite interval."""
    need(timeline, Timeline, where)
    aware(timeline.created_at, f"{where}.created_at")
    if need(timeline.pages, int, f"{where}.pages") < 0:
        raise SnapshotError(f"{where}.pages: expected 0 or more")
    interval = need(timeline.interval, (int, float), f"{where}.interval")
    if isinstance(interval, bool) or not (math.isfinite(interval) and 0 < interval <= MAX_INTERVAL):
        raise SnapshotError(f"{where}.interval: expected seconds above 0 and at most {MAX_INTERVAL}")
    need(timeline.fails_at_start, bool, f"{where}.fails_at_start")


# --- the scrape cache -----------------------------------------------------------------


class CacheRows:
    """The scrape cache as rows: one per entry, each written once (an entry never changes), and their order.

    Oldest stored first: the cache drops from the front. Documents are written off the loop
    (`Deferred`): an entry stored by a crawl is written only when first read.
    """

    def __init__(self) -> None:
        self._rows: dict[int, tuple[CacheEntry, Deferred]] = {}

    def read(self, emulator: Stateful) -> Rows:
        cache = emulator.jobs.cache
        rows: Rows = {"limits": {"max_entries": cache.max_entries}, ORDER_ROW: []}
        kept: dict[int, tuple[CacheEntry, Deferred]] = {}
        for (team_id, key), entry in cache._entries.items():
            known = self._rows.get(id(entry))
            row = known[1] if known is not None and known[0] is entry else Deferred(partial(_cache_row, entry))
            kept[id(entry)] = (entry, row)
            place = [team_id, key]
            rows[ORDER_ROW].append(place)
            rows[f"entry:{json.dumps(place)}"] = row
        self._rows = kept
        return rows


def _cache_row(entry: CacheEntry) -> dict[str, Any]:
    return {"stored_at": entry.stored_at.isoformat(), "document": entry.document}


def parse_cache(rows: Rows, emulator: Stateful) -> Apply:
    limits = need(rows.get("limits", {}), dict, "cache.limits")
    max_entries = need(limits.get("max_entries", emulator.jobs.cache.max_entries), int, "cache.limits.max_entries")
    if not 1 <= max_entries <= MAX_CACHE_ENTRIES:
        raise SnapshotError(f"cache.limits.max_entries: expected 1 to {MAX_CACHE_ENTRIES}, got {max_entries}")
    entries: dict[tuple[str, str], CacheEntry] = {}
    for index, place in enumerate(need(rows.get(ORDER_ROW, []), list, f"cache.{ORDER_ROW}")):
        where = f"cache.{ORDER_ROW}[{index}]"
        if not (isinstance(place, list) and len(place) == 2 and all(isinstance(part, str) for part in place)):
            raise SnapshotError(f"{where}: expected [team id, url key]")
        row = rows.get(f"entry:{json.dumps(place)}")
        if not (isinstance(row, dict) and isinstance(row.get("document"), dict)):
            raise SnapshotError(f"{where}: its row 'entry:{json.dumps(place)}' is missing or has no document")
        entries[(place[0], place[1])] = CacheEntry(_keeps(row["document"]), moment(row.get("stored_at"), where))

    def apply() -> None:
        cache = emulator.jobs.cache
        cache.max_entries = max_entries
        cache._entries = entries

    return apply


def _keeps(document: dict[str, Any]) -> Any:
    return lambda: document


# --- webhook deliveries not yet done -----------------------------------------------------


def read_webhooks(emulator: Stateful) -> Rows:
    dispatcher = emulator.webhooks
    return {
        "pending": [encode(delivery) for delivery in dispatcher._pending],
        "batches": [
            {
                "job_id": events.job.id,
                "team_id": events.team.id,
                "pages": events.pages,
                "end": events.end,
                "next_page": events.next_page,
            }
            for events in dispatcher._batches
        ],
    }


def parse_webhooks(rows: Rows, emulator: Stateful, context: StateContext, jobs: Rows) -> Apply:
    pending: list[Delivery] = []
    for index, raw in enumerate(need(rows.get("pending", []), list, "webhooks.pending")):
        delivery = decode(raw, context, f"webhooks.pending[{index}]")
        if not isinstance(delivery, Delivery):
            raise SnapshotError(f"webhooks.pending[{index}]: not a webhook delivery")
        delivery.in_flight = False  # an attempt cut off by the stop is made again
        pending.append(delivery)
    batches = []
    for index, raw in enumerate(need(rows.get("batches", []), list, "webhooks.batches")):
        where = f"webhooks.batches[{index}]"
        need(raw, dict, where)
        job_id = need(raw.get("job_id"), str, f"{where}.job_id")
        if f"job:{job_id}" not in jobs:
            raise SnapshotError(f"{where}: job {job_id!r} is not among the snapshot's jobs")
        batches.append(
            (
                job_id,
                need(raw.get("team_id"), str, f"{where}.team_id"),
                bool(raw.get("pages")),
                bool(raw.get("end")),
                need(raw.get("next_page", 0), int, f"{where}.next_page"),
            )
        )

    def apply() -> None:
        dispatcher = emulator.webhooks
        dispatcher._pending = pending
        dispatcher.log = list(pending)
        dispatcher._batches = []
        for job_id, team_id, pages, end, next_page in batches:
            job, team = emulator.jobs.get(job_id), emulator.teams.get(team_id)
            if isinstance(job, BatchJob) and team is not None:
                dispatcher._batches.append(_BatchEvents(job, team, pages=pages, end=end, next_page=next_page))

    return apply


def row_text(value: Any) -> str:
    """A row as stored: compact JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
