"""Webhook deliveries: real HTTP POSTs to the receiver a job names.

Every event a job will send is put on a due-queue when the job starts, each
with the emulator time at which it happens (`crawl.started` at once, a page
event when that page is scraped, `completed` when the job ends). `run_due()`
sends whatever is due now; the served emulator calls it twice a second from a
background loop, tests call it after moving a `ManualClock`.

Delivery rules (observed behaviour of the service):
- body `{success, type, id, webhookId, data, metadata?, error?}`, serialised once,
  so every attempt sends the same bytes and the same `webhookId`;
- `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, body)>` when the team has a secret;
- the webhook's custom `headers` on every attempt, except the signature and framing
  headers, which the sender owns;
- 10 s timeout per attempt; any 2xx acknowledges; otherwise retries 1, 5 and
  15 minutes (emulator time) after the failed attempt, then the delivery is given up.

Events sent: those named in the webhook's `events` filter, by suffix (`started`,
`page`, `completed`, `failed`) or in full (`crawl.page`, `batch_scrape.completed`);
without a filter every event is sent, as the service does (its SDKs' users pass a
bare URL and wait for `completed`). A crawl's end is one of `completed`, `failed`
(refused at its start) or `cancelled` (`DELETE` while it runs: `crawl.cancelled`).
The filter has no `cancelled` (the service's schema refuses it), so a receiver that
asked for `completed` is told of a cancellation instead, never left waiting for an
end that will not come. A cancelled batch sends nothing more: the service's event
types (observed-behaviour.md) have no `batch_scrape.cancelled`. A batch never fails as a whole: URLs that
fail are its pages (`GET .../errors`), and it completes, as the service's do.
Every event of every job goes through `enqueue` and `_attempt`, so crawl and
batch events alike are signed, retried and echo `metadata` the same way.

A crawl's events are all queued when it starts (it is planned then, and at most
a few thousand pages). A batch's page events and its end are made as its pages
are scraped (`_BatchEvents`, pulled at each `run_due`): a batch of 100,000 URLs
queued 100,000 documents up front.

A crawl held by a tester (`steering`) has its events due after the hold dropped
(`cancel_pending`); when it is moved or let go, the rest of its course is queued
again at its new times (`schedule_course`), so its receiver hears a natural end.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import httpx

from tui.contract.webhook_signature import SIGNATURE_HEADER, sign
from tui.emulator.core.clock import Clock
from tui.emulator.core.ids import NewId
from tui.emulator.core.teams import Team, TeamDirectory
from tui.emulator.jobs.model import BatchJob
from tui.emulator.jobs.webhook_delivery import Attempt, Delivery, delivery_headers

if TYPE_CHECKING:
    from tui.emulator.jobs.model import CrawlJob

log = logging.getLogger(__name__)

# The signing secret's variable: `wds-tui emulator` (and the embedded emulator) sign with it,
# and the dashboard's webhook inbox verifies with the same one.
SECRET_VARIABLE = "WDS_WEBHOOK_SECRET"
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15))
ATTEMPT_TIMEOUT = 10.0
LOOP_INTERVAL = 0.5
# Page events one batch adds per delivery round: the rest follow 0.5 s later, never all at once.
PAGE_EVENTS_PER_ROUND = 200
DEFAULT_EVENTS = ("started", "page", "completed", "failed")


def wants(filters: set[str], prefix: str, suffix: str) -> bool:
    """True when the event `<prefix>.<suffix>` passes `filters` (names by suffix or in full)."""
    return suffix in filters or f"{prefix}.{suffix}" in filters


@dataclass
class _BatchEvents:
    """A running batch's page events and its `completed`, still to be made."""

    job: BatchJob
    team: Team
    pages: bool  # the webhook wants `page` events
    end: bool  # the webhook wants `completed`
    next_page: int = 0


class WebhookDispatcher:
    """The due-queue of webhook deliveries and the HTTP client that sends them."""

    def __init__(
        self,
        *,
        clock: Clock,
        new_id: NewId,
        teams: TeamDirectory,
        transport: httpx.AsyncBaseTransport | None = None,
        attempt_timeout: float = ATTEMPT_TIMEOUT,
    ) -> None:
        self._clock = clock
        self._new_id = new_id
        # Read at each attempt: the secret a team has when the event is sent signs it.
        self._teams = teams
        self.log: list[Delivery] = []
        self._pending: list[Delivery] = []
        self._batches: list[_BatchEvents] = []
        self._transport = transport
        # Seconds per attempt; read when the HTTP client is (re)built.
        self.attempt_timeout = attempt_timeout
        self._client: httpx.AsyncClient | None = None

    def use_transport(self, transport: httpx.AsyncBaseTransport) -> None:
        """Send through `transport` (tests: a mock receiver, so nothing leaves the machine).

        Call it before the first delivery: a client already built keeps its transport.
        """
        self._transport = transport

    # -- scheduling ----------------------------------------------------------------

    def schedule_job(self, job: CrawlJob | BatchJob, team: Team) -> list[Delivery]:
        """Queue every event of `job` that its webhook asks for, each at the time it happens."""
        if job.webhook is None:
            return []
        prefix = "crawl" if job.kind == "crawl" else "batch_scrape"
        queued = self._add(job, team, f"{prefix}.started", job.created_at, [])
        if isinstance(job, BatchJob):
            wanted = set(job.webhook.events or DEFAULT_EVENTS)
            if wants(wanted, prefix, "page") or wants(wanted, prefix, "completed"):
                self._batches.append(
                    _BatchEvents(job, team, pages=wants(wanted, prefix, "page"), end=wants(wanted, prefix, "completed"))
                )
            return queued
        return queued + self.schedule_course(job, team)

    def schedule_course(self, job: CrawlJob, team: Team, from_page: int = 0) -> list[Delivery]:
        """Queue a crawl's page events from `from_page` on and its end, at the times its timeline says.

        At its start, and again when a tester moves or lets go a held crawl (`steering`): its
        later events were dropped when it was held (`cancel_pending`), and happen at their new times.
        """
        timeline = job.timeline
        error = timeline.failed_with
        if error is None and timeline.fails_at_start:
            failure = getattr(job, "failure", None)
            error = failure.message if failure else "The job failed."
        if error is not None:
            return self._add(job, team, "crawl.failed", timeline.ends_at, [], error)
        queued = []
        if job.webhook is not None and wants(set(job.webhook.events or DEFAULT_EVENTS), "crawl", "page"):
            for index in range(from_page, job.total):
                document = job.page_document(index)
                if document is not None:
                    queued += self._add(job, team, "crawl.page", timeline.page_done_at(index), [document])
        return queued + self._add(job, team, "crawl.completed", timeline.ends_at, [])

    def _add(
        self, job: CrawlJob | BatchJob, team: Team, event: str, due: datetime, data: list[Any], error: str | None = None
    ) -> list[Delivery]:
        """Queue `event` of `job` (`crawl.page`, ...) when its webhook wants it."""
        config = job.webhook
        prefix, _, suffix = event.partition(".")
        if config is None or not wants(set(config.events or DEFAULT_EVENTS), prefix, suffix):
            return []
        delivery = self.enqueue(
            team, job.id, event, config.url, due, data, metadata=config.metadata, headers=config.headers, error=error
        )
        return [delivery]

    def _batch_events_due(self, now: datetime) -> None:
        """Queue the page events (and ends) of running batches that have happened by `now`."""
        for events in list(self._batches):
            job, config = events.job, events.job.webhook
            assert config is not None
            done = job.completed(now)
            if events.pages:
                upto = min(done, events.next_page + PAGE_EVENTS_PER_ROUND)
                job.run.scrape_until(upto)
                for index in range(events.next_page, upto):
                    document = job.page_document(index)
                    if document is not None:
                        self.enqueue(
                            events.team,
                            job.id,
                            "batch_scrape.page",
                            config.url,
                            job.timeline.page_done_at(index),
                            [document],
                            metadata=config.metadata,
                            headers=config.headers,
                        )
                events.next_page = upto
            if (events.next_page >= done or not events.pages) and job.status(now) != "scraping":
                if events.end and job.status(now) == "completed":
                    self.enqueue(
                        events.team,
                        job.id,
                        "batch_scrape.completed",
                        config.url,
                        job.timeline.ends_at,
                        [],
                        metadata=config.metadata,
                        headers=config.headers,
                    )
                self._batches.remove(events)

    def enqueue(
        self,
        team: Team,
        job_id: str,
        event: str,
        url: str,
        due_at: datetime,
        data: list[Any],
        *,
        metadata: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        error: str | None = None,
    ) -> Delivery:
        """Queue one event; its body (and so its webhookId) is fixed now, for every attempt."""
        webhook_id = self._new_id()
        payload: dict[str, Any] = {
            "success": error is None,
            "type": event,
            "id": job_id,
            "webhookId": webhook_id,
            "data": data,
        }
        if metadata is not None:
            payload["metadata"] = metadata
        if error is not None:
            payload["error"] = error
        delivery = Delivery(
            webhook_id=webhook_id,
            job_id=job_id,
            team_id=team.id,
            event=event,
            url=url,
            headers=dict(headers or {}),
            body=json.dumps(payload, separators=(",", ":")).encode(),
            due_at=due_at,
        )
        self.log.append(delivery)
        self._pending.append(delivery)
        return delivery

    def job_cancelled(self, job: CrawlJob | BatchJob, at: datetime) -> Delivery | None:
        """`job` was cancelled at `at`: its later events never happen; its end is announced when wanted."""
        self.cancel_pending(job.id, after=at)
        config, team = job.webhook, self._teams.get(job.team_id)
        if config is None or team is None:
            return None
        if job.kind != "crawl":  # no batch_scrape.cancelled among the service's events
            return None
        wanted = set(config.events or DEFAULT_EVENTS)
        if not (wants(wanted, "crawl", "completed") or wants(wanted, "crawl", "cancelled")):
            return None
        return self.enqueue(
            team, job.id, "crawl.cancelled", config.url, at, [], metadata=config.metadata, headers=config.headers
        )

    def cancel_pending(self, job_id: str, *, after: datetime) -> None:
        """Drop events of `job_id` that would happen after `after` and were never attempted."""
        for delivery in list(self._pending):
            if delivery.job_id == job_id and delivery.due_at > after and not delivery.attempts:
                delivery.state = "cancelled"
                self._pending.remove(delivery)

    def prune(self, older_than: timedelta = timedelta(hours=24)) -> int:
        """Forget finished deliveries due more than `older_than` ago (their job has expired); how many."""
        cutoff = self._clock.now() - older_than
        pending = set(map(id, self._pending))
        kept = [d for d in self.log if id(d) in pending or d.due_at > cutoff]
        dropped = len(self.log) - len(kept)
        self.log = kept
        return dropped

    def deliveries_for(self, job_id: str) -> list[Delivery]:
        """Every delivery of one job, in the order they were queued."""
        return [delivery for delivery in self.log if delivery.job_id == job_id]

    # -- sending -------------------------------------------------------------------

    async def run_due(self) -> list[Delivery]:
        """Attempt every delivery due now; returns the deliveries attempted."""
        now = self._clock.now()
        self._batch_events_due(now)
        due = sorted((d for d in self._pending if not d.in_flight and d.due_at <= now), key=lambda d: d.due_at)
        if not due:
            return []
        by_job: dict[str, list[Delivery]] = defaultdict(list)
        for delivery in due:
            delivery.in_flight = True
            by_job[delivery.job_id].append(delivery)

        async def send_in_order(deliveries: list[Delivery]) -> None:
            # One job's events reach the receiver in the order they happened.
            for delivery in deliveries:
                await self._attempt(delivery)

        await asyncio.gather(*(send_in_order(batch) for batch in by_job.values()))
        return due

    async def _attempt(self, delivery: Delivery) -> None:
        at = self._clock.now()
        headers = delivery_headers(delivery.headers)
        team = self._teams.get(delivery.team_id)
        if team is not None and team.webhook_secret:
            headers[SIGNATURE_HEADER] = sign(delivery.body, team.webhook_secret)
        try:
            response = await self._http().post(delivery.url, content=delivery.body, headers=headers)
            attempt = Attempt(at, response.status_code)
        except httpx.TimeoutException:
            attempt = Attempt(at, None, f"no answer within {self.attempt_timeout:g} s")
        except Exception as exc:  # noqa: BLE001
            # Not only httpx.HTTPError: a URL or header httpx cannot encode raises InvalidURL or
            # UnicodeEncodeError, and a delivery left in flight would never be tried again.
            attempt = Attempt(at, None, f"{type(exc).__name__}: {exc}")
        delivery.attempts.append(attempt)
        delivery.in_flight = False
        if attempt.ok:
            delivery.state = "delivered"
        elif len(delivery.attempts) <= len(RETRY_DELAYS):
            delivery.due_at = at + RETRY_DELAYS[len(delivery.attempts) - 1]
            return
        else:
            delivery.state = "failed"
        if delivery in self._pending:
            self._pending.remove(delivery)

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                transport=self._transport, timeout=self.attempt_timeout, follow_redirects=False
            )
        return self._client

    async def run_loop(self) -> None:
        """Deliver due events until cancelled (the served emulator's background loop)."""
        while True:
            try:
                await self.run_due()
            except Exception:  # a receiver must never stop deliveries to the others
                log.exception("webhook delivery round failed")
            await asyncio.sleep(LOOP_INTERVAL)

    async def aclose(self) -> None:
        """Close the HTTP client."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None
