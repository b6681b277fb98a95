"""What the webhook inbox received: each delivery checked, the retries of one folded together, all of it bounded.

The service retries a delivery with the same `webhookId` (observed-behaviour:
after 1, 5 and 15 minutes), so one row per `webhookId` with a count is what a
person wants to read. A delivery whose signature does not verify is never
dropped on arrival: it is kept as unverified, in a row of its own, so a forged
copy of an event cannot hide behind the genuine one (nor be hidden by it).

The inbox listens to anyone who can reach it, so what it keeps has bounds an
outsider cannot push: rows and stored bodies are counted per class of trust
(`verified`, and `unverified` for everything else), each class with its own
`Quota`, so a flood of unsigned deliveries only ever pushes out unsigned
ones. A row keeps a small summary of its event (ids and type cut to
`TEXT_LIMIT`, metadata only while it is small); the event's `data` lives
only in the raw body, which is exactly what the byte budget counts. Past the
budget the oldest bodies go first and their rows stay, saying so.
"""

from __future__ import annotations

import heapq
import json
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from tui.api.errors import WebhookPayloadError, WebhookSignatureError
from tui.api.webhooks import check_signature, parse_event, signature_of
from tui.contract.models.webhook import WebhookEvent
from tui.contract.webhook_signature import Secret
from tui.dashboard.kit.formatting import clip

ROWS_PER_CLASS = 1000
"""Rows kept per class of trust; the oldest of the class go first (a dashboard left open for days must not grow)."""
BODY_BUDGET = 64 * 1024 * 1024
"""Bytes of stored bodies, all classes together."""
VERIFIED_SHARE = 0.75
"""The part of the budget kept for verified events when a secret is set (unverified ones share the rest)."""
TEXT_LIMIT = 256
"""Characters kept of an event's type, id and webhookId (a real one is a few dozen)."""
PROBLEM_LIMIT = 2000
"""Characters kept of an event's error and of what was wrong with a delivery."""
METADATA_LIMIT = 8 * 1024
"""Bytes of Python objects an event's metadata may take to be kept with its row (a real one: a few hundred)."""

VERIFIED = "verified"
UNVERIFIED = "unverified"


@dataclass(frozen=True)
class Quota:
    """What one class of trust may keep: rows, and bytes of stored bodies."""

    rows: int
    body_bytes: int


def quotas_for(secret: Secret | None, *, rows: int = ROWS_PER_CLASS, bodies: int = BODY_BUDGET) -> dict[str, Quota]:
    """Each class's share: with a secret, verified events keep most of the budget; without one, nothing verifies."""
    if secret is None:
        return {VERIFIED: Quota(rows, 0), UNVERIFIED: Quota(rows, bodies)}
    verified = int(bodies * VERIFIED_SHARE)
    return {VERIFIED: Quota(rows, verified), UNVERIFIED: Quota(rows, bodies - verified)}


@dataclass(frozen=True, slots=True)
class Delivery:
    """One POST received: when, from where, what it carried and whether its signature holds.

    `verified` is None when no secret is configured (nothing to check against);
    `problem` says why a delivery is unverified or unreadable. `event` is the
    summary a row keeps (no `data`: that stays in `body`); `cut` names what of
    the event was too long to keep with it.
    """

    received_at: datetime
    peer: str
    size: int
    event: WebhookEvent | None
    verified: bool | None
    problem: str | None = None
    body: bytes | None = None
    cut: tuple[str, ...] = ()

    @property
    def trust(self) -> str:
        """The class of trust the delivery counts in."""
        return VERIFIED if self.verified is True else UNVERIFIED


def check_delivery(
    body: bytes, headers: Mapping[str, str], secret: Secret | None, *, peer: str, now: datetime
) -> Delivery:
    """Read and check one delivery; never raises for what a sender can get wrong."""
    verified: bool | None = None
    problem: str | None = None
    if secret is not None:
        try:
            check_signature(body, signature_of(headers), secret)
            verified = True
        except WebhookSignatureError as exc:
            verified, problem = False, exc.message
    cut: tuple[str, ...] = ()
    try:
        event: WebhookEvent | None
        event, cut = summary_of(parse_event(body, headers))
    except WebhookPayloadError as exc:
        event, problem = None, exc.message if problem is None else f"{problem}; {exc.message}"
    problem = clip(problem, PROBLEM_LIMIT) if problem is not None else None
    return Delivery(now, peer, len(body), event, verified, problem, body, cut)


def summary_of(event: WebhookEvent) -> tuple[WebhookEvent, tuple[str, ...]]:
    """What a row keeps of `event`, and what it cut: no data, no extra fields, short texts, small metadata."""
    cut = [
        name
        for name, value in (("type", event.type), ("id", event.id), ("webhookId", event.webhook_id))
        if len(value) > TEXT_LIMIT
    ]
    if event.error is not None and len(event.error) > PROBLEM_LIMIT:
        cut.append("error")
    metadata = event.metadata
    if metadata is not None and held_size(metadata, METADATA_LIMIT) > METADATA_LIMIT:
        metadata = None
        cut.append("metadata")
    # model_construct: the values were validated a moment ago; only what is named here is kept.
    summary = type(event).model_construct(
        success=event.success,
        type=clip(event.type, TEXT_LIMIT),
        id=clip(event.id, TEXT_LIMIT),
        webhook_id=clip(event.webhook_id, TEXT_LIMIT),
        data=None,
        error=clip(event.error, PROBLEM_LIMIT) if event.error is not None else None,
        metadata=metadata,
    )
    return summary, tuple(cut)


def held_size(value: object, limit: int) -> int:
    """Bytes of Python objects `value` holds (shared ones counted each time), counting stops past `limit`.

    Parsed JSON can take many times its text's size (`[{},{},...]`: 64 bytes
    per two characters), so what a row keeps is counted as it is held.
    Iterative: metadata can be nested as deep as the parser allowed.
    """
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return total


@dataclass(slots=True)
class InboxRow:
    """The deliveries of one event: when the first came, the latest (with its body while kept), how many arrived."""

    key: str
    seq: int
    first_at: datetime
    latest: Delivery
    count: int = 1
    body_dropped: bool = False

    @property
    def event(self) -> WebhookEvent | None:
        return self.latest.event

    @property
    def verified(self) -> bool | None:
        return self.latest.verified

    @property
    def trust(self) -> str:
        return self.latest.trust

    def data_text(self, limit: int) -> str | None:
        """The event's `data` as JSON, cut to `limit` characters; None without a body or data."""
        if self.latest.body is None:
            return None
        try:
            payload = json.loads(self.latest.body)
            data = payload.get("data") if isinstance(payload, dict) else None
            return json_prefix(data, limit) if data else None
        except RecursionError:
            return "(nested too deeply to show)"
        except ValueError:
            return None


def json_prefix(value: Any, limit: int) -> str:
    """`json.dumps(value)` cut to `limit` characters, without encoding more than that of a large value."""
    pieces: list[str] = []
    length = 0
    for piece in json.JSONEncoder(default=str).iterencode(value):
        pieces.append(piece)
        length += len(piece)
        if length > limit:
            break
    return clip("".join(pieces), limit)


@dataclass(frozen=True, slots=True)
class Change:
    """What one delivery changed: the row it landed in, and the rows dropped to keep the class in its quota."""

    row: InboxRow
    evicted: tuple[str, ...] = ()


class _Class:
    """The rows and stored bodies of one class of trust."""

    def __init__(self, quota: Quota) -> None:
        self.quota = quota
        self.rows: OrderedDict[str, InboxRow] = OrderedDict()  # oldest first
        self.bodies: OrderedDict[str, int] = OrderedDict()  # key -> bytes held, oldest body first
        self.body_bytes = 0

    def hold_body(self, row: InboxRow) -> None:
        self.release_body(row.key)
        body = row.latest.body
        if body is None:
            return
        self.bodies[row.key] = len(body)
        self.body_bytes += len(body)
        while self.body_bytes > self.quota.body_bytes and self.bodies:
            oldest, _ = next(iter(self.bodies.items()))
            self.release_body(oldest)
            dropped = self.rows[oldest]
            dropped.latest = replace(dropped.latest, body=None)
            dropped.body_dropped = True

    def release_body(self, key: str) -> None:
        size = self.bodies.pop(key, None)
        if size is not None:
            self.body_bytes -= size

    def evict_over_quota(self) -> list[str]:
        evicted = []
        while len(self.rows) > self.quota.rows:
            key, _ = self.rows.popitem(last=False)
            self.release_body(key)
            evicted.append(key)
        return evicted


class Inbox:
    """The rows of this run, oldest first, each class of trust within its `Quota`; listeners hear of each change."""

    def __init__(self, secret: Secret | None = None, *, quotas: Mapping[str, Quota] | None = None) -> None:
        self.secret = secret
        self.quotas = dict(quotas if quotas is not None else quotas_for(secret))
        self._classes = {trust: _Class(quota) for trust, quota in self.quotas.items()}
        self._listeners: list[Callable[[Change], None]] = []
        self._unreadable = 0
        self._seq = 0
        self.received = 0

    @property
    def rows(self) -> list[InboxRow]:
        """Every row, oldest first."""
        return list(self)

    def __iter__(self) -> Iterator[InboxRow]:
        return heapq.merge(*(c.rows.values() for c in self._classes.values()), key=lambda row: row.seq)

    def __len__(self) -> int:
        return sum(len(c.rows) for c in self._classes.values())

    def get(self, key: str | None) -> InboxRow | None:
        """The row of `key`, if it is still kept."""
        if key is None:
            return None
        return next((c.rows[key] for c in self._classes.values() if key in c.rows), None)

    @property
    def body_bytes(self) -> int:
        """Bytes of bodies held now."""
        return sum(c.body_bytes for c in self._classes.values())

    def body_note(self, row: InboxRow) -> str | None:
        """Why `row` has no body any more, in words; None while it has one."""
        if not row.body_dropped:
            return None
        budget = self.quotas[row.trust].body_bytes
        trust = {True: "verified", False: "unverified", None: "unchecked"}[row.verified]
        return (
            f"body dropped to stay within {budget / 2**20:g} MiB of {trust} events' bodies "
            "(oldest first); the row keeps the event's type, ids and metadata"
        )

    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call `listener` with the `Change` of each delivery; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def add(self, delivery: Delivery) -> Change:
        """Keep `delivery`: in its event's row when it is a retry of the same verification, else a new row."""
        self.received += 1
        key = self._key_of(delivery)
        kept = self._classes[delivery.trust]
        row = kept.rows.get(key)
        if row is None:
            self._seq += 1
            row = InboxRow(key, self._seq, delivery.received_at, delivery)
            kept.rows[key] = row
        else:
            row.latest = delivery
            row.count += 1
            row.body_dropped = False
        kept.hold_body(row)
        change = Change(row, tuple(kept.evict_over_quota()))
        for listener in list(self._listeners):
            listener(change)
        return change

    def _key_of(self, delivery: Delivery) -> str:
        if delivery.event is None:
            self._unreadable += 1
            return f"unreadable #{self._unreadable}"
        trust = {True: "verified", False: "unverified", None: "unchecked"}[delivery.verified]
        return f"{delivery.event.webhook_id}/{trust}"
