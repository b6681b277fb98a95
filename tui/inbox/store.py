"""What the webhook inbox received: each delivery checked, the retries of one folded together.

The service retries a delivery with the same `webhookId` (observed-behaviour:
after 1, 5 and 15 minutes), so one row per `webhookId` with a count is what a
person wants to read. A delivery whose signature does not verify is never
dropped: it is kept as unverified, in a row of its own, so a forged copy of an
event cannot hide behind the genuine one (nor be hidden by it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from tui.api.errors import WebhookPayloadError, WebhookSignatureError
from tui.api.models.webhook import WebhookEvent
from tui.api.webhooks import Secret, check_signature, parse_event, signature_of

MAX_ROWS = 1000
"""Rows kept; the oldest go first (a dashboard left open for days must not grow without bound)."""


@dataclass(frozen=True)
class Delivery:
    """One POST received: when, from where, what it carried and whether its signature holds.

    `verified` is None when no secret is configured (nothing to check against);
    `problem` says why a delivery is unverified or unreadable.
    """

    received_at: datetime
    peer: str
    size: int
    event: WebhookEvent | None
    verified: bool | None
    problem: str | None = None


@dataclass
class InboxRow:
    """The deliveries of one event: the first, the latest, and how many arrived."""

    key: str
    first: Delivery
    latest: Delivery
    count: int = 1
    deliveries: list[Delivery] = field(default_factory=list)

    @property
    def event(self) -> WebhookEvent | None:
        return self.latest.event

    @property
    def verified(self) -> bool | None:
        return self.latest.verified


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
    try:
        event: WebhookEvent | None = parse_event(body, headers)
    except WebhookPayloadError as exc:
        event, problem = None, exc.message if problem is None else f"{problem}; {exc.message}"
    return Delivery(now, peer, len(body), event, verified, problem)


class Inbox:
    """The rows of this run, newest last, at most `max_rows`; listeners hear of each delivery."""

    def __init__(self, secret: Secret | None = None, *, max_rows: int = MAX_ROWS) -> None:
        self.secret = secret
        self.max_rows = max_rows
        self._rows: OrderedDict[str, InboxRow] = OrderedDict()
        self._listeners: list[Callable[[InboxRow], None]] = []
        self._unreadable = 0
        self.received = 0

    @property
    def rows(self) -> list[InboxRow]:
        """Every row, oldest first."""
        return list(self._rows.values())

    def subscribe(self, listener: Callable[[InboxRow], None]) -> Callable[[], None]:
        """Call `listener` with the row each delivery lands in; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def add(self, delivery: Delivery) -> InboxRow:
        """Keep `delivery`: in its event's row when it is a retry of the same verification, else a new row."""
        self.received += 1
        key = self._key_of(delivery)
        row = self._rows.get(key)
        if row is None:
            row = InboxRow(key, delivery, delivery, deliveries=[delivery])
            self._rows[key] = row
            while len(self._rows) > self.max_rows:
                self._rows.popitem(last=False)
        else:
            row.latest = delivery
            row.count += 1
            row.deliveries.append(delivery)
            del row.deliveries[:-10]  # the last few attempts are what a person compares
        for listener in list(self._listeners):
            listener(row)
        return row

    def _key_of(self, delivery: Delivery) -> str:
        if delivery.event is None:
            self._unreadable += 1
            return f"unreadable #{self._unreadable}"
        trust = {True: "verified", False: "unverified", None: "unchecked"}[delivery.verified]
        return f"{delivery.event.webhook_id}/{trust}"
