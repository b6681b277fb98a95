"""Every crawl and batch event is signed like `crawl.started`, over a real loopback receiver.

Each delivery is checked with the client's own verifier (`tui.api.webhooks`),
the one the dashboard's inbox uses: the signature, `metadata` echoed, custom
headers, the event filter (by suffix or full name) and retries with the same
`webhookId`, all driven by the emulator's manual clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth, client_for
from tests.support.webhook_receiver import Received, Receiver
from tui.api.webhooks import WebhookEvent, parse_event, verify_signature
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

SECRET = "whsec-events-secret"
ALL_EVENTS = ["started", "page", "completed", "failed"]
BATCH_URLS = ["https://example.com/", "https://example.com/about", "https://example.com/blog"]


@pytest.fixture
def signed(make_emulator: Callable[..., Emulator]) -> Emulator:
    return make_emulator(webhook_secret=SECRET)


@pytest.fixture
async def http(signed: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(signed) as c:
        yield c
    await signed.aclose()


async def start(http: httpx.AsyncClient, kind: str, webhook: dict[str, Any] | str, **body: Any) -> str:
    """Start a crawl (3 pages of example.com) or a batch (BATCH_URLS) with `webhook`; its id."""
    if kind == "crawl":
        path, payload = "/v2/crawl", {"url": "https://example.com/", "limit": 3}
    else:
        path, payload = "/v2/batch/scrape", {"urls": BATCH_URLS}
    response = await http.post(path, json={**payload, "webhook": webhook, **body}, headers=auth(ALPHA_KEY))
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


async def run_to_the_end(signed: Emulator, clock: ManualClock) -> None:
    """Deliver what is due now, then everything the job will still send."""
    await signed.webhooks.run_due()
    clock.advance(600)
    await signed.webhooks.run_due()


def verified(delivery: Received) -> WebhookEvent:
    """The event as the inbox reads it; raises unless the signature is right."""
    assert verify_signature(delivery.body, delivery.headers["x-service-signature"], SECRET)
    assert not verify_signature(delivery.body, delivery.headers["x-service-signature"], SECRET + "x")
    return parse_event(delivery.body, delivery.headers, secret=SECRET)


@pytest.mark.parametrize("kind", ["crawl", "batch_scrape"])
async def test_every_event_is_signed_with_metadata_and_headers(
    kind: str, http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    metadata = {"project": "docs", "run": 7}
    async with Receiver() as receiver:
        job_id = await start(
            http, kind, {"url": receiver.url, "events": ALL_EVENTS, "metadata": metadata, "headers": {"X-Token": "abc"}}
        )
        await run_to_the_end(signed, clock)
    events = [verified(delivery) for delivery in receiver.received]
    assert [e.type for e in events] == [f"{kind}.started", *[f"{kind}.page"] * 3, f"{kind}.completed"]
    assert all(e.id == job_id and e.metadata == metadata and e.success for e in events)
    assert all(d.headers["x-token"] == "abc" for d in receiver.received)
    assert len({e.webhook_id for e in events}) == len(events), "one webhookId per delivery"
    pages = [e for e in events if e.type.endswith(".page")]
    assert all(len(p.data) == 1 and p.data[0]["metadata"]["sourceURL"] for p in pages)
    assert all(d.state == "delivered" for d in signed.webhooks.deliveries_for(job_id))


async def test_a_failed_crawl_event_is_signed(http: httpx.AsyncClient, signed: Emulator, clock: ManualClock) -> None:
    async with Receiver() as receiver:
        job_id = await start(
            http,
            "crawl",
            {"url": receiver.url, "events": ALL_EVENTS, "metadata": {"k": 1}},
            url="https://example.com/admin",
        )  # refused by robots.txt
        await run_to_the_end(signed, clock)
    events = [verified(delivery) for delivery in receiver.received]
    assert [e.type for e in events] == ["crawl.started", "crawl.failed"]
    failed = events[1]
    assert failed.id == job_id and failed.success is False and failed.error and failed.metadata == {"k": 1}


@pytest.mark.parametrize(
    ("kind", "events", "expected"),
    [
        ("crawl", ["crawl.completed"], ["crawl.completed"]),
        ("crawl", ["crawl.started", "page"], ["crawl.started", "crawl.page", "crawl.page", "crawl.page"]),
        ("batch_scrape", ["batch_scrape.completed", "started"], ["batch_scrape.started", "batch_scrape.completed"]),
        ("batch_scrape", ["crawl.page", "crawl.completed"], []),  # another job kind's full names match nothing
    ],
)
async def test_the_event_filter_takes_suffixes_and_full_names(
    kind: str, events: list[str], expected: list[str], http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    async with Receiver() as receiver:
        await start(http, kind, {"url": receiver.url, "events": events})
        await run_to_the_end(signed, clock)
    assert [verified(delivery).type for delivery in receiver.received] == expected


async def test_an_unknown_event_name_is_refused(http: httpx.AsyncClient) -> None:
    response = await http.post(
        "/v2/batch/scrape",
        json={"urls": BATCH_URLS, "webhook": {"url": "http://127.0.0.1:9/", "events": ["batch_scrape.exploded"]}},
        headers=auth(ALPHA_KEY),
    )
    assert response.status_code == 400 and response.json()["success"] is False


@pytest.mark.parametrize("kind", ["crawl", "batch_scrape"])
async def test_a_failing_receiver_gets_retries_with_the_same_webhook_id(
    kind: str, http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    dispatcher = signed.webhooks
    async with Receiver(statuses=[500, 502, 503, 200]) as receiver:
        job_id = await start(http, kind, {"url": receiver.url, "events": ["completed"], "metadata": {"m": True}})
        clock.advance(600)  # the job is over: its completed event is due
        [delivery] = await dispatcher.run_due()
        for wait in (60, 300, 900):  # minutes 1, 5 and 15 after each failed attempt
            clock.advance(wait - 1)
            assert await dispatcher.run_due() == []
            clock.advance(1)
            assert await dispatcher.run_due() == [delivery]
    attempts = receiver.received
    assert len(attempts) == 4 and len({a.body for a in attempts}) == 1, "every attempt sends the same bytes"
    events = [verified(a) for a in attempts]
    assert {e.webhook_id for e in events} == {delivery.webhook_id}
    assert all(e.type == f"{kind}.completed" and e.id == job_id and e.metadata == {"m": True} for e in events)
    assert delivery.state == "delivered" and [a.status_code for a in delivery.attempts] == [500, 502, 503, 200]


async def test_custom_headers_cannot_replace_the_signature_or_the_framing(
    http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    """The service owns its signature and the body's length: a custom header of those names is not sent."""
    forged = "sha256=" + "0" * 64
    custom = {"x-service-signature": forged, "Content-Length": "3", "X-Team": "docs"}
    async with Receiver() as receiver:
        await start(http, "batch_scrape", {"url": receiver.url, "headers": custom})
        [delivery] = await signed.webhooks.run_due()
    assert delivery.state == "delivered"
    [received] = receiver.received
    assert received.headers["x-team"] == "docs" and received.headers["content-length"] == str(len(received.body))
    assert verified(received).type == "batch_scrape.started"


@pytest.mark.parametrize("kind", ["crawl", "batch_scrape"])
async def test_cancelling_a_running_job_sends_a_signed_cancelled_event(
    kind: str, http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    path = "/v2/crawl" if kind == "crawl" else "/v2/batch/scrape"
    async with Receiver() as receiver:
        job_id = await start(http, kind, {"url": receiver.url, "events": ALL_EVENTS, "metadata": {"run": 3}})
        clock.advance(0.6)  # one page scraped, the job still running
        cancelled = await http.delete(f"{path}/{job_id}", headers=auth(ALPHA_KEY))
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        await run_to_the_end(signed, clock)
    events = [verified(delivery) for delivery in receiver.received]
    if kind == "batch_scrape":  # the service has no batch_scrape.cancelled event: nothing after the cancel
        assert [e.type for e in events] == ["batch_scrape.started", "batch_scrape.page"]
        return
    assert [e.type for e in events] == ["crawl.started", "crawl.page", "crawl.cancelled"]
    end = events[-1]
    assert end.id == job_id and end.success and end.data == [] and end.metadata == {"run": 3}
    assert len({e.webhook_id for e in events}) == 3


@pytest.mark.parametrize("kind", ["crawl", "batch_scrape"])
async def test_a_bare_webhook_url_gets_every_event(
    kind: str, http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    """No events filter means all of them, as the service does: a receiver waiting for completed gets it."""
    async with Receiver() as receiver:
        await start(http, kind, receiver.url)
        await run_to_the_end(signed, clock)
    types = [verified(delivery).type for delivery in receiver.received]
    assert types[0] == f"{kind}.started" and types[-1] == f"{kind}.completed"
    assert f"{kind}.page" in types


@pytest.mark.parametrize("kind", ["crawl", "batch_scrape"])
async def test_no_cancelled_event_unless_the_end_was_wanted_nor_after_the_end(
    kind: str, http: httpx.AsyncClient, signed: Emulator, clock: ManualClock
) -> None:
    path = "/v2/crawl" if kind == "crawl" else "/v2/batch/scrape"
    async with Receiver() as receiver:
        only_started = await start(http, kind, {"url": receiver.url, "events": ["started", "page"]})
        await http.delete(f"{path}/{only_started}", headers=auth(ALPHA_KEY))
        finished = await start(http, kind, {"url": receiver.url, "events": ["completed"]})
        clock.advance(600)
        late = await http.delete(f"{path}/{finished}", headers=auth(ALPHA_KEY))
        assert late.json()["status"] == "completed"  # too late to cancel: nothing changes
        await run_to_the_end(signed, clock)
    # Two jobs' events are sent side by side: their order across jobs is not fixed.
    assert sorted(verified(delivery).type for delivery in receiver.received) == [f"{kind}.completed", f"{kind}.started"]
