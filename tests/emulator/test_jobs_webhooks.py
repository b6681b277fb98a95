"""Webhook deliveries to a real receiver on a loopback socket: body, signature, retries, events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth, client_for
from tests.support.webhook_receiver import Receiver
from tui.api.webhooks import verify_signature
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

SECRET = "whsec-test-secret"


@pytest.fixture
def signed_emulator(make_emulator: Callable[..., Emulator]) -> Emulator:
    return make_emulator(webhook_secret=SECRET)


@pytest.fixture
async def signed_client(signed_emulator: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(signed_emulator) as c:
        yield c
    await signed_emulator.aclose()


async def start_crawl(client: httpx.AsyncClient, webhook: Any, **body: Any) -> str:
    payload = {"url": "https://example.com/", "limit": 3, "webhook": webhook, **body}
    response = await client.post("/v2/crawl", json=payload, headers=auth(ALPHA_KEY))
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


async def test_crawl_started_is_delivered_signed_with_metadata(
    signed_client: httpx.AsyncClient, signed_emulator: Emulator
) -> None:
    async with Receiver() as receiver:
        crawl_id = await start_crawl(
            signed_client, {"url": receiver.url, "metadata": {"project": "docs", "n": 1}, "headers": {"X-Token": "abc"}}
        )
        attempted = await signed_emulator.webhooks.run_due()
    assert len(attempted) == 1 and attempted[0].state == "delivered"
    [delivery] = receiver.received
    assert delivery.path == "/hooks/crawl" and delivery.headers["x-token"] == "abc"
    assert delivery.headers["content-type"] == "application/json"
    assert verify_signature(delivery.body, delivery.headers["x-service-signature"], SECRET)
    assert not verify_signature(delivery.body, delivery.headers["x-service-signature"], "another-secret")
    event = delivery.json
    assert event["success"] is True and event["type"] == "crawl.started" and event["id"] == crawl_id
    assert event["data"] == [] and event["metadata"] == {"project": "docs", "n": 1}
    assert len(event["webhookId"]) == 36


async def test_no_secret_means_no_signature(client: httpx.AsyncClient, emulator: Emulator) -> None:
    async with Receiver() as receiver:
        await start_crawl(client, receiver.url)  # a bare URL is a webhook too
        await emulator.webhooks.run_due()
    [delivery] = receiver.received
    assert "x-service-signature" not in delivery.headers and "metadata" not in delivery.json


async def test_retry_after_a_500_keeps_the_webhook_id(
    signed_client: httpx.AsyncClient, signed_emulator: Emulator, clock: ManualClock
) -> None:
    dispatcher = signed_emulator.webhooks
    async with Receiver(statuses=[500, 200]) as receiver:
        crawl_id = await start_crawl(
            signed_client, {"url": receiver.url, "metadata": {"k": "v"}, "events": ["started"]}
        )
        await dispatcher.run_due()
        assert await dispatcher.run_due() == []  # the retry is not due yet
        clock.advance(59)
        assert await dispatcher.run_due() == []
        clock.advance(1)
        [retried] = await dispatcher.run_due()
    first, second = receiver.received
    assert first.body == second.body and first.json["webhookId"] == second.json["webhookId"]
    assert first.headers["x-service-signature"] == second.headers["x-service-signature"]
    assert second.json["metadata"] == {"k": "v"}
    assert retried.state == "delivered" and [a.status_code for a in retried.attempts] == [500, 200]
    assert dispatcher.deliveries_for(crawl_id) == [retried]


async def test_retries_after_1_5_and_15_minutes_then_gives_up(
    client: httpx.AsyncClient, emulator: Emulator, clock: ManualClock
) -> None:
    dispatcher = emulator.webhooks
    async with Receiver(statuses=[503]) as receiver:
        await start_crawl(client, {"url": receiver.url, "events": ["started"]})
        await dispatcher.run_due()
        for wait in (60, 300, 900):
            clock.advance(wait - 1)
            assert await dispatcher.run_due() == []
            clock.advance(1)
            assert len(await dispatcher.run_due()) == 1
        clock.advance(3600)
        assert await dispatcher.run_due() == []
    assert len(receiver.received) == 4
    [delivery] = dispatcher.log
    assert delivery.state == "failed" and [a.status_code for a in delivery.attempts] == [503] * 4


async def test_unreachable_and_slow_receivers_are_retried(client: httpx.AsyncClient, emulator: Emulator) -> None:
    async with Receiver() as receiver:
        closed_url = receiver.url
    await start_crawl(client, closed_url)
    [delivery] = await emulator.webhooks.run_due()
    assert delivery.state == "pending" and delivery.attempts[0].status_code is None
    assert delivery.attempts[0].error

    await emulator.webhooks.aclose()
    emulator.webhooks.attempt_timeout = 0.2  # the next client is built with it
    async with Receiver(delay=1.0) as slow:
        await start_crawl(client, slow.url)
        [timed_out] = await emulator.webhooks.run_due()
    assert timed_out.state == "pending" and "no answer within 0.2 s" in (timed_out.attempts[0].error or "")
    await emulator.webhooks.aclose()


async def test_events_filter_adds_page_and_completed_events(
    client: httpx.AsyncClient, emulator: Emulator, clock: ManualClock
) -> None:
    async with Receiver() as receiver:
        crawl_id = await start_crawl(client, {"url": receiver.url, "events": ["started", "page", "completed"]})
        await emulator.webhooks.run_due()
        assert [r.json["type"] for r in receiver.received] == ["crawl.started"]
        clock.advance(60)
        await emulator.webhooks.run_due()
    types = [r.json["type"] for r in receiver.received]
    assert types == ["crawl.started", "crawl.page", "crawl.page", "crawl.page", "crawl.completed"]
    pages = [r.json for r in receiver.received if r.json["type"] == "crawl.page"]
    assert all(p["id"] == crawl_id and len(p["data"]) == 1 for p in pages)
    assert len({r.json["webhookId"] for r in receiver.received}) == 5


async def test_failed_crawl_sends_a_failed_event(
    client: httpx.AsyncClient, emulator: Emulator, clock: ManualClock
) -> None:
    async with Receiver() as receiver:
        await start_crawl(client, {"url": receiver.url, "events": ["failed"]}, url="https://example.com/admin")
        assert await emulator.webhooks.run_due() == []
        clock.advance(5)
        await emulator.webhooks.run_due()
    [event] = [r.json for r in receiver.received]
    assert event["type"] == "crawl.failed" and event["success"] is False and "robots" in event["error"]


async def test_cancel_drops_events_that_have_not_happened(
    client: httpx.AsyncClient, emulator: Emulator, clock: ManualClock
) -> None:
    async with Receiver() as receiver:
        crawl_id = await start_crawl(client, {"url": receiver.url, "events": ["started", "completed"]}, limit=20)
        await client.delete(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
        clock.advance(3600)
        await emulator.webhooks.run_due()
    # The completed event never happens; the receiver that wanted the end hears of the cancellation.
    assert [r.json["type"] for r in receiver.received] == ["crawl.started", "crawl.cancelled"]
    assert [(d.event, d.state) for d in emulator.webhooks.deliveries_for(crawl_id)] == [
        ("crawl.started", "delivered"),
        ("crawl.completed", "cancelled"),
        ("crawl.cancelled", "delivered"),
    ]


async def test_batch_scrape_webhook(client: httpx.AsyncClient, emulator: Emulator) -> None:
    async with Receiver() as receiver:
        response = await client.post(
            "/v2/batch/scrape",
            json={"urls": ["https://example.com/"], "webhook": {"url": receiver.url}},
            headers=auth(ALPHA_KEY),
        )
        await emulator.webhooks.run_due()
    [event] = [r.json for r in receiver.received]
    assert event["type"] == "batch_scrape.started" and event["id"] == response.json()["id"]


async def test_webhook_config_is_validated(client: httpx.AsyncClient) -> None:
    bad_url = await client.post(
        "/v2/crawl", json={"url": "https://example.com/", "webhook": {"url": "nope"}}, headers=auth(ALPHA_KEY)
    )
    assert bad_url.status_code == 400
    bad_event = await client.post(
        "/v2/crawl",
        json={"url": "https://example.com/", "webhook": {"url": "http://127.0.0.1:9/", "events": ["x"]}},
        headers=auth(ALPHA_KEY),
    )
    assert bad_event.status_code == 400


@pytest.mark.socket
async def test_served_emulator_delivers_in_the_background() -> None:
    """Over a real socket, with the real clock: the background loop sends without anyone calling run_due."""
    from tui.emulator.server import running

    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY]}, seed=7, history=False, webhook_secret=SECRET)
    async with Receiver() as receiver, running(emulator) as base_url:
        async with httpx.AsyncClient(base_url=base_url) as http:
            response = await http.post(
                "/v2/crawl",
                json={"url": "https://example.com/", "limit": 2, "webhook": receiver.url},
                headers=auth(ALPHA_KEY),
            )
            assert response.status_code == 200
        for _ in range(100):
            if receiver.received:
                break
            await asyncio.sleep(0.05)
    [delivery] = receiver.received
    assert delivery.json["id"] == response.json()["id"]
    assert verify_signature(delivery.body, delivery.headers["x-service-signature"], SECRET)
