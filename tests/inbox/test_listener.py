"""The webhook inbox on a real socket: signed deliveries verified, forged ones kept as unverified, retries folded."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest

from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.dashboard.features.inbox.listener import WebhookListener, is_loopback, parse_listen_address
from tui.dashboard.features.inbox.store import Inbox

SECRET = "whsec-inbox-test"


def event(kind: str = "crawl.started", webhook_id: str = "wh-1", job: str = "job-1", **extra: object) -> bytes:
    return json.dumps({"success": True, "type": kind, "id": job, "webhookId": webhook_id, "data": [], **extra}).encode()


@pytest.fixture
async def listener() -> AsyncIterator[WebhookListener]:
    inbox = Inbox(SECRET)
    server = WebhookListener(inbox, "127.0.0.1", 0, head_seconds=1.0, max_body=64 * 1024)
    await server.start()
    yield server
    await server.close()


async def post(listener: WebhookListener, body: bytes, signature: str | None) -> httpx.Response:
    headers = {"content-type": "application/json"}
    if signature is not None:
        headers[SIGNATURE_HEADER] = signature
    async with httpx.AsyncClient() as client:
        return await client.post(listener.address, content=body, headers=headers)


async def test_a_signed_delivery_is_verified_and_a_forged_one_is_kept_unverified(listener: WebhookListener) -> None:
    genuine = event(metadata={"ticket": "OPS-7"})
    assert (await post(listener, genuine, sign(genuine, SECRET))).status_code == 200
    forged = event(webhook_id="wh-2", job="job-evil")
    assert (await post(listener, forged, sign(forged, "not-the-secret"))).status_code == 200
    unsigned = event(webhook_id="wh-3")
    assert (await post(listener, unsigned, None)).status_code == 200

    rows = listener.inbox.rows
    assert [(row.event.type, row.verified) for row in rows if row.event] == [
        ("crawl.started", True),
        ("crawl.started", False),
        ("crawl.started", False),
    ]
    assert rows[0].event.metadata == {"ticket": "OPS-7"}
    assert "does not match" in (rows[1].latest.problem or "")
    assert "no X-Service-Signature" in (rows[2].latest.problem or "")
    assert rows[0].latest.peer.startswith("127.0.0.1:")


async def test_retries_with_the_same_webhook_id_fold_into_one_row(listener: WebhookListener) -> None:
    body = event(kind="batch_scrape.page", webhook_id="wh-retry", job="batch-1")
    for _ in range(3):
        await post(listener, body, sign(body, SECRET))
    forged_copy = body
    await post(listener, forged_copy, "sha256=" + "0" * 64)  # same webhookId, bad signature: a row of its own
    rows = listener.inbox.rows
    assert [(row.count, row.verified) for row in rows] == [(3, True), (1, False)]


async def test_what_is_not_an_event_is_answered_400_kept_and_said(listener: WebhookListener) -> None:
    body = b"{not json"
    answer = await post(listener, body, sign(body, SECRET))
    assert answer.status_code == 400 and "not JSON" in answer.json()["error"]
    [row] = listener.inbox.rows
    assert row.event is None and row.verified is True
    assert "not JSON" in (row.latest.problem or "")


async def test_other_methods_oversized_bodies_and_slow_heads_get_a_proper_answer(listener: WebhookListener) -> None:
    async with httpx.AsyncClient() as client:
        refused = await client.get(listener.address)
        assert refused.status_code == 405 and refused.headers["allow"] == "POST"
        too_big = await client.post(listener.address, content=b"x" * (65 * 1024))
        assert too_big.status_code == 413
    host, port = listener.address.removeprefix("http://").rstrip("/").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"POST / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the head
    await writer.drain()
    assert await asyncio.wait_for(reader.read(), 5) == b""  # closed after the head deadline (1 s here)
    writer.close()
    assert listener.inbox.rows == []


async def test_listeners_hear_of_each_delivery(listener: WebhookListener) -> None:
    heard: list[str] = []
    unsubscribe = listener.inbox.subscribe(lambda change: heard.append(change.row.key))
    body = event()
    await post(listener, body, sign(body, SECRET))
    unsubscribe()
    await post(listener, body, sign(body, SECRET))
    assert heard == ["wh-1/verified"]


async def test_without_a_secret_nothing_is_claimed_verified() -> None:
    server = WebhookListener(Inbox(None))
    await server.start()
    try:
        body = event()
        await post(server, body, sign(body, SECRET))
        [row] = server.inbox.rows
        assert row.verified is None and row.key == "wh-1/unchecked"
    finally:
        await server.close()


def test_the_inbox_keeps_at_most_its_rows() -> None:
    from datetime import UTC, datetime

    from tui.dashboard.features.inbox.store import check_delivery, quotas_for

    inbox = Inbox(None, quotas=quotas_for(None, rows=3))
    for number in range(5):
        inbox.add(check_delivery(event(webhook_id=f"wh-{number}"), {}, None, peer="t", now=datetime.now(UTC)))
    assert [row.key for row in inbox.rows] == ["wh-2/unchecked", "wh-3/unchecked", "wh-4/unchecked"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("8099", ("127.0.0.1", 8099)),
        ("0.0.0.0:9000", ("0.0.0.0", 9000)),
        ("[::1]:8099", ("::1", 8099)),
        ("localhost:1", ("localhost", 1)),
    ],
)
def test_listen_addresses(value: str, expected: tuple[str, int]) -> None:
    assert parse_listen_address(value) == expected


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("http", r"expected \[HOST:\]PORT"),
        ("70000", "0 to 65535"),
        ("::1:80", "brackets"),
        ("example.com:80", "not an IP"),
    ],
)
def test_bad_listen_addresses_say_what_is_wrong(value: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_listen_address(value)


def test_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0")


async def test_the_default_port_taken_means_a_free_port_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.dashboard.features.inbox import service as service_module
    from tui.dashboard.features.inbox.service import InboxService

    blocker = WebhookListener(Inbox(None))
    await blocker.start()
    taken = int(blocker.address.rstrip("/").rsplit(":", 1)[1])
    monkeypatch.setattr(service_module, "DEFAULT_PORT", taken)
    inbox = InboxService()
    try:
        address = await inbox.start()
        assert address is not None and not address.endswith(f":{taken}/")
        assert inbox.note is not None and f"port {taken} is taken" in inbox.note
        assert await inbox.start() == address  # started once
    finally:
        await inbox.close()
        await blocker.close()


async def test_a_configured_address_in_use_is_not_replaced() -> None:
    from tui.dashboard.features.inbox.service import InboxService

    blocker = WebhookListener(Inbox(None))
    await blocker.start()
    taken = blocker.address.removeprefix("http://").rstrip("/")
    inbox = InboxService(taken)
    try:
        assert await inbox.start() is None
        assert inbox.note is not None and f"cannot listen on {taken}" in inbox.note
    finally:
        await blocker.close()
