"""The handoff stores a burst a slice per turn of the loop, so what else is ready (keys) runs between slices."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

from tui.dashboard.features.inbox.handoff import SLICE, Handoff
from tui.dashboard.features.inbox.store import Inbox, check_delivery


def delivery(number: int):
    raw = json.dumps({"success": True, "type": "crawl.page", "id": "job-1", "webhookId": f"w{number}", "data": []})
    return check_delivery(raw.encode(), {}, None, peer="127.0.0.1:40000", now=datetime.now(UTC))


async def test_a_burst_is_stored_a_slice_per_turn_with_other_callbacks_between() -> None:
    loop = asyncio.get_running_loop()
    inbox = Inbox()
    handoff = Handoff(inbox, loop)
    stored_when_keys_ran: list[int] = []

    burst = SLICE * 3 + 5
    for number in range(burst):
        await handoff.put(delivery(number))
    assert handoff.full() is False
    # A "key press" ready after the first slice was taken must run before the last slice is.
    await asyncio.sleep(0)
    loop.call_soon(lambda: stored_when_keys_ran.append(len(inbox.rows)))
    for _ in range(10):
        await asyncio.sleep(0)
    assert len(inbox.rows) == burst
    assert stored_when_keys_ran and 0 < stored_when_keys_ran[0] < burst
    # Everything was taken: the byte count went back to nothing and a new delivery wakes the loop again.
    assert handoff._waiting_bytes == 0
    await handoff.put(delivery(burst))
    await asyncio.sleep(0)
    assert len(inbox.rows) == burst + 1
