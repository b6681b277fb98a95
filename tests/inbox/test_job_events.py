"""The inbox tells the crawls pane of the crawls and batches its events name: news only, never a forged event.

Unit tests of `JobEvents` on a real store (no sockets): deliveries go through
the real checks (`check_delivery`) with real signatures.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.dashboard.features.inbox.job_events import JobEvents
from tui.dashboard.features.inbox.store import Inbox, check_delivery
from tui.dashboard.shell.sightings import BATCH, CRAWL, WEBHOOK, JobSighting

SECRET = "whsec-job-events"
AT = datetime(2025, 6, 15, 12, tzinfo=UTC)
CRAWL_ID = "7f3e4b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
BATCH_ID = "0d464138-a623-4255-bfc1-ea36f17fd374"


def told_by(secret: str | None) -> tuple[Inbox, list[JobSighting]]:
    inbox = Inbox(secret)
    told: list[JobSighting] = []
    inbox.subscribe(JobEvents(lambda sightings: told.extend(sightings)))
    return inbox, told


def deliver(inbox: Inbox, event_type: str, job_id: str, hook: str, *, key: str | None = SECRET) -> None:
    body = json.dumps({"success": True, "type": event_type, "id": job_id, "webhookId": hook, "data": []}).encode()
    headers = {SIGNATURE_HEADER: sign(body, key)} if key is not None else {}
    inbox.add(check_delivery(body, headers, inbox.secret, peer="127.0.0.1", now=AT))


def test_the_first_event_of_a_job_and_its_start_and_end_are_told_page_events_after_the_first_are_not() -> None:
    inbox, told = told_by(SECRET)
    deliver(inbox, "crawl.page", CRAWL_ID, "h1")  # the first the inbox hears of it: told
    for n in range(5):
        deliver(inbox, "crawl.page", CRAWL_ID, f"page-{n}")
    deliver(inbox, "crawl.completed", CRAWL_ID, "h2")
    deliver(inbox, "batch_scrape.started", BATCH_ID, "h3")
    deliver(inbox, "extract.completed", CRAWL_ID, "h4")  # a kind the crawls pane does not follow
    assert told == [
        JobSighting(CRAWL, CRAWL_ID, WEBHOOK, at=AT),
        JobSighting(CRAWL, CRAWL_ID, WEBHOOK, at=AT),
        JobSighting(BATCH, BATCH_ID, WEBHOOK, at=AT, started=True),
    ]


def test_a_delivery_whose_signature_fails_is_not_told_and_without_a_secret_events_are_taken_as_they_come() -> None:
    inbox, told = told_by(SECRET)
    deliver(inbox, "crawl.completed", CRAWL_ID, "forged", key="guessed")
    deliver(inbox, "crawl.completed", CRAWL_ID, "unsigned", key=None)
    assert told == []
    inbox, told = told_by(None)
    deliver(inbox, "crawl.completed", CRAWL_ID, "unsigned", key=None)
    assert told == [JobSighting(CRAWL, CRAWL_ID, WEBHOOK, at=AT)]
