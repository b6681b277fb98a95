"""What the inbox keeps has bounds no sender can push: rows per class of trust, bytes of bodies, the size of a row.

Unit tests of the store (no sockets): deliveries go through the real checks
(`check_delivery`) with real signatures, and memory is measured as Python
holds it (tracemalloc), not as the code counts it.
"""

from __future__ import annotations

import json
import tracemalloc
from datetime import UTC, datetime

from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.dashboard.features.inbox.store import (
    BODY_BUDGET,
    ROWS_PER_CLASS,
    TEXT_LIMIT,
    UNVERIFIED,
    VERIFIED,
    Inbox,
    check_delivery,
    quotas_for,
)

SECRET = "whsec-bounds"
MIB = 1024 * 1024


def deliver(inbox: Inbox, body: dict | bytes, *, signed: bool) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {SIGNATURE_HEADER: sign(raw, SECRET)} if signed else {}
    inbox.add(check_delivery(raw, headers, inbox.secret, peer="127.0.0.1:40000", now=datetime.now(UTC)))


def event(webhook_id: str, **extra: object) -> dict:
    return {"success": True, "type": "crawl.page", "id": "job-1", "webhookId": webhook_id, "data": [], **extra}


def test_verified_events_are_never_evicted_by_unverified_ones() -> None:
    inbox = Inbox(SECRET)
    deliver(inbox, event("genuine"), signed=True)
    for number in range(ROWS_PER_CLASS + 500):
        deliver(inbox, event(f"forged-{number}"), signed=False)
    kept = {row.key for row in inbox.rows}
    assert "genuine/verified" in kept
    assert len(kept) == ROWS_PER_CLASS + 1  # the unverified class at its quota, the verified row besides
    assert "forged-0/unverified" not in kept and f"forged-{ROWS_PER_CLASS + 499}/unverified" in kept


def test_each_class_keeps_its_own_rows_and_evicts_its_own_oldest() -> None:
    inbox = Inbox(SECRET, quotas=quotas_for(SECRET, rows=3))
    evicted: list[str] = []
    inbox.subscribe(lambda change: evicted.extend(change.evicted))
    for number in range(5):
        deliver(inbox, event(f"v{number}"), signed=True)
        deliver(inbox, event(f"u{number}"), signed=False)
    assert [row.key for row in inbox.rows] == [
        "v2/verified",
        "u2/unverified",
        "v3/verified",
        "u3/unverified",
        "v4/verified",
        "u4/unverified",
    ]
    assert evicted == ["v0/verified", "u0/unverified", "v1/verified", "u1/unverified"]


def test_without_a_secret_the_unchecked_class_has_the_whole_budget() -> None:
    quotas = quotas_for(None)
    assert quotas[UNVERIFIED].body_bytes == BODY_BUDGET and quotas[VERIFIED].body_bytes == 0
    with_secret = quotas_for(SECRET)
    assert with_secret[VERIFIED].body_bytes + with_secret[UNVERIFIED].body_bytes == BODY_BUDGET
    assert with_secret[VERIFIED].body_bytes > with_secret[UNVERIFIED].body_bytes


def test_bodies_stay_within_the_budget_oldest_dropped_first_rows_kept_with_a_note() -> None:
    inbox = Inbox(None)  # unchecked: the whole 64 MiB
    text = "x" * (MIB - 200)  # a crawl page's markdown, just under the 1 MiB a delivery may carry
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(96):
            deliver(inbox, event(f"page-{number}", data=[{"markdown": text}]), signed=False)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    rows = inbox.rows
    assert len(rows) == 96  # every row kept
    assert inbox.body_bytes <= BODY_BUDGET
    assert held <= BODY_BUDGET + 4 * MIB, f"{held / MIB:.0f} MiB held for 96 deliveries of 1 MiB"
    dropped = [row for row in rows if row.body_dropped]
    assert dropped and dropped == rows[: len(dropped)]  # the oldest first
    assert all(row.latest.body is None for row in dropped) and rows[-1].latest.body is not None
    assert rows[-1].data_text(40) is not None and dropped[0].data_text(40) is None
    note = inbox.body_note(dropped[0])
    assert note is not None and "body dropped to stay within 64 MiB" in note
    assert inbox.body_note(rows[-1]) is None


def test_what_a_row_holds_is_counted_as_held_not_as_sent() -> None:
    """`[{},{},...]` is 3 bytes of JSON per item and 64 bytes of Python: rows keep the raw body, not the parse."""
    inbox = Inbox(None)
    items = "[" + ",".join(["{}"] * 200_000) + "]"  # 0.6 MB of JSON, 13 MB of dicts once parsed
    bodies = [
        f'{{"success":true,"type":"crawl.page","id":"j","webhookId":"w{n}","data":{items}}}'.encode() for n in range(3)
    ]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for body in bodies:
            deliver(inbox, body, signed=False)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(inbox.rows) == 3
    sent = sum(map(len, bodies))
    assert held <= sent + MIB, f"{held / MIB:.1f} MiB held for {sent / MIB:.1f} MiB of deliveries"


def test_a_row_keeps_a_bounded_summary_and_says_what_it_cut() -> None:
    inbox = Inbox(None)
    metadata = {"ticket": "OPS-1", "blob": ["x"] * 50_000}
    deliver(inbox, event("w" * 5000, type="t" * 5000, metadata=metadata), signed=False)
    deliver(inbox, event("small", metadata={"ticket": "OPS-2"}), signed=False)
    big, small = inbox.rows
    assert big.event is not None and len(big.event.type) == TEXT_LIMIT and len(big.event.webhook_id) == TEXT_LIMIT
    assert big.event.metadata is None and big.event.data is None
    assert set(big.latest.cut) == {"type", "webhookId", "metadata"}
    assert small.event is not None and small.event.metadata == {"ticket": "OPS-2"} and small.latest.cut == ()


def test_a_retry_brings_its_body_back() -> None:
    inbox = Inbox(None, quotas=quotas_for(None, bodies=3 * 1024))
    first = event("again", data=[{"markdown": "a" * 1000}])
    deliver(inbox, first, signed=False)
    for number in range(3):
        deliver(inbox, event(f"other-{number}", data=[{"markdown": "b" * 1000}]), signed=False)
    again = inbox.get("again/unchecked")
    assert again is not None and again.body_dropped
    deliver(inbox, first, signed=False)
    assert again.count == 2 and not again.body_dropped and again.latest.body is not None
    assert inbox.body_bytes <= 3 * 1024
