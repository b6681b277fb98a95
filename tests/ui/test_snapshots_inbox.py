"""Pictures of the webhook inbox, at 120x40 and 80x24: verified, retried, forged and unreadable deliveries.

The listener's port is chosen by the system, so the picture's inbox answers
`address` with a fixed one (its listener is tested on real sockets in
tests/inbox and tests/ui/test_webhook_inbox.py); the deliveries go through
the real checks (`check_delivery`) with the real signatures.

Update after an intended change with
`pytest tests/ui/test_snapshots_inbox.py --snapshot-update` and look at the pictures.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from pydantic import SecretStr
from textual.pilot import Pilot

from tests.support.dashboard import NOW, dashboard, freeze_cursors, seeded_emulator, wait_until
from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.dashboard.features.inbox.screen import WebhookInboxScreen
from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.features.inbox.store import check_delivery

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
SECRET = "whsec-picture"


class PictureInbox(InboxService):
    """An inbox that says it listens on a fixed address (a real port would change every run)."""

    @property
    def address(self) -> str | None:
        return "http://127.0.0.1:8099/"

    async def start(self) -> str | None:
        return self.address


def filled_inbox() -> PictureInbox:
    service = PictureInbox(None, SecretStr(SECRET))

    def deliver(body: dict, minutes: int, signature_secret: str | None = SECRET) -> None:
        raw = json.dumps(body).encode()
        headers = {SIGNATURE_HEADER: sign(raw, signature_secret)} if signature_secret else {}
        when = NOW - timedelta(minutes=minutes)
        service.inbox.add(check_delivery(raw, headers, service.inbox.secret, peer="127.0.0.1:51234", now=when))

    crawl = "5f0c2a9e-1b7d-4c3e-9a8f-2d6b1e4c7a90"
    started = {
        "success": True,
        "type": "crawl.started",
        "id": crawl,
        "webhookId": "0d8e6f4a-7c21-4b9e-8f3d-5a1c2e9b7d60",
        "data": [],
        "metadata": {"ticket": "OPS-42"},
    }
    deliver(started, 9)
    deliver(started, 8)  # a retry: the same webhookId, one row with ×2
    page = {
        "success": True,
        "type": "batch_scrape.page",
        "id": "9b1e4d2c-3a5f-4e6d-8c7b-1f2a3e4d5c6b",
        "webhookId": "6a2f9c1e-8d4b-4f7a-9e3c-2b5d8a1f6c40",
        "data": [{"metadata": {"statusCode": 200}}],
    }
    deliver(page, 5)
    deliver({**started, "webhookId": "ffffffff-0000-4000-8000-000000000000"}, 3, signature_secret="guessed")
    service.inbox.add(check_delivery(b"<html>", {}, service.inbox.secret, peer="10.0.0.7:40000", now=NOW))
    return service


@size_ids
def test_webhook_inbox(snap_compare, size) -> None:
    app = dashboard(seeded_emulator())
    app.memory.webhooks = filled_inbox()  # the picture's inbox instead of a listening one

    async def run(pilot: Pilot) -> None:
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WebhookInboxScreen), "the inbox")
        await pilot.pause()
        freeze_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)
