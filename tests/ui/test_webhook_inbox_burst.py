"""The inbox screen under a burst: rows put in the table in a few updates (never rebuilt), evictions and dropped bodies shown.

The dashboard runs with its real listener on a loopback port; the burst is
real concurrent POSTs. How fast it all goes is measured by
`tests/benchmarks/bench_inbox.py`, not here.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tests.ui.test_webhook_inbox import SECRET, app_with_inbox, until
from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.dashboard.features.inbox.screen import WebhookInboxScreen
from tui.dashboard.features.inbox.store import Inbox, quotas_for
from tui.dashboard.kit.widgets.live_table import LiveTable

pytestmark = pytest.mark.socket


def body(webhook_id: str, **extra: object) -> bytes:
    return json.dumps(
        {"success": True, "type": "crawl.page", "id": "job-1", "webhookId": webhook_id, "data": [], **extra}
    ).encode()


async def open_inbox(pilot, app) -> tuple[WebhookInboxScreen, LiveTable]:  # type: ignore[no-untyped-def]
    await pilot.press("w")
    await until(pilot, lambda: isinstance(app.screen, WebhookInboxScreen) and app.memory.webhooks.address)
    screen = app.screen
    return screen, screen.query_one("#inbox-table", LiveTable)


async def test_a_burst_is_put_in_the_table_in_a_few_updates_without_rebuilding_it() -> None:
    app, webhooks, _ = app_with_inbox()
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = await open_inbox(pilot, app)
        rebuilds: list[int] = []
        updates: list[int] = []
        real_replace, real_put = table._replace_all, getattr(table, "put_rows", None)
        table._replace_all = lambda rows: (rebuilds.append(len(rows)), real_replace(rows))[1]  # type: ignore[method-assign]
        if real_put is not None:
            table.put_rows = lambda rows, **kw: (updates.append(len(rows)), real_put(rows, **kw))[1]  # type: ignore[method-assign]

        async with httpx.AsyncClient(limits=httpx.Limits(max_connections=16)) as client:
            signed = [body(f"wh-{n}") for n in range(300)]
            answers = await asyncio.gather(
                *(
                    client.post(webhooks.address, content=raw, headers={SIGNATURE_HEADER: sign(raw, SECRET)})
                    for raw in signed
                )
            )
        assert {answer.status_code for answer in answers} == {200}
        await until(pilot, lambda: table.row_count == 300)
        assert rebuilds == []  # rows were added, not the table made again
        assert sum(updates) == 300 and len(updates) < 60  # a few updates of many rows each, not one per delivery
        assert table.row_keys == [row.key for row in reversed(webhooks.inbox.rows)]  # newest first
        assert "300 deliveries in 300 events" in str(screen.query_one("#inbox-title").render())


async def test_evicted_rows_leave_the_table_and_a_dropped_body_is_said() -> None:
    app, webhooks, _ = app_with_inbox()
    webhooks.inbox = Inbox(webhooks.inbox.secret, quotas=quotas_for(SECRET, rows=4, bodies=4000))
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = await open_inbox(pilot, app)
        async with httpx.AsyncClient() as client:
            genuine = body("genuine", data=[{"markdown": "g" * 1500}])
            await client.post(webhooks.address, content=genuine, headers={SIGNATURE_HEADER: sign(genuine, SECRET)})
            for n in range(6):  # unsigned: they push out each other, never the verified row
                await client.post(webhooks.address, content=body(f"forged-{n}", data=[{"markdown": "f" * 300}]))
            for n in range(2):  # signed, larger: the verified class's 3,000 bytes of bodies overflow
                raw = body(f"later-{n}", data=[{"markdown": "l" * 1200}])
                await client.post(webhooks.address, content=raw, headers={SIGNATURE_HEADER: sign(raw, SECRET)})
        await until(pilot, lambda: "9 deliveries" in str(screen.query_one("#inbox-title").render()))
        await until(pilot, lambda: table.row_count == 7)
        assert table.row_keys == [
            "later-1/verified",
            "later-0/verified",
            "forged-5/unverified",
            "forged-4/unverified",
            "forged-3/unverified",
            "forged-2/unverified",
            "genuine/verified",
        ]
        table.focus()
        table.move_cursor(row=6)  # the genuine event, its body dropped for the newer ones
        await pilot.pause()
        detail = str(screen.query_one("#inbox-detail").render())
        assert "body dropped to stay within" in detail and "verified events' bodies" in detail
        assert "data:" not in detail
        table.move_cursor(row=0)
        await pilot.pause()
        detail = str(screen.query_one("#inbox-detail").render())
        assert "body dropped" not in detail and 'data: [{"markdown": "llll' in detail
