"""One webhook delivery: the event's bytes, where they go, the headers they carry, each attempt.

Its own module because a delivery is a record that outlives its sending: the dispatcher
(`webhooks.py`) queues, sends and retries it, and what it holds (the same body and
`webhookId` on every attempt, the headers the sender owns) is what the receiver sees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from tui.contract.webhook_signature import SIGNATURE_HEADER

DeliveryState = Literal["pending", "delivered", "failed", "cancelled"]


@dataclass(frozen=True)
class Attempt:
    """One POST of a delivery: when (emulator time), and the receiver's status or the error."""

    at: datetime
    status_code: int | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


@dataclass
class Delivery:
    """One event for one receiver, with its attempts so far."""

    webhook_id: str
    job_id: str
    team_id: str
    event: str
    url: str
    headers: dict[str, str]
    body: bytes
    due_at: datetime
    attempts: list[Attempt] = field(default_factory=list)
    state: DeliveryState = "pending"
    in_flight: bool = False

    @property
    def payload(self) -> dict[str, Any]:
        return json.loads(self.body)


# Headers the sender owns: the signature (a custom one would be a forgery the receiver
# might read first) and the message framing (a wrong length loses the body).
RESERVED_HEADERS = frozenset({SIGNATURE_HEADER.lower(), "content-length", "transfer-encoding", "host", "connection"})


def delivery_headers(custom: dict[str, str]) -> dict[str, str]:
    """The headers of an attempt: the webhook's custom ones, less those the sender owns."""
    headers = {"Content-Type": "application/json", "User-Agent": "wds-emulator-webhooks/1"}
    for name, value in custom.items():
        if name.lower() in RESERVED_HEADERS:
            continue
        # One spelling per name: a custom `content-type` replaces the default, never doubles it.
        for known in [known for known in headers if known.lower() == name.lower()]:
            del headers[known]
        headers[name] = value
    return headers
