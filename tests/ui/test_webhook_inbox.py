"""The webhook inbox in the dashboard: a crawl's webhook arrives verified, a forged event is shown unverified."""

from __future__ import annotations

import json

import httpx
from pydantic import SecretStr

from tests.support.dashboard import (
    NOW,
    SLOW,
    SwitchableTransport,
    client_on,
    emulator_service,
    frozen_clock,
    seeded_emulator,
)
from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.dashboard.features.inbox.screen import WebhookInboxScreen
from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.startup.app_factory import make_app
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

SECRET = "whsec-dashboard-inbox"


def app_with_inbox(secret: str | None = SECRET, listen: str = "127.0.0.1:0") -> tuple[WdsApp, InboxService, Emulator]:
    emulator = seeded_emulator(clock=ManualClock(NOW), webhook_secret=SECRET)
    webhooks = InboxService(listen, SecretStr(secret) if secret else None)
    app = make_app(
        client_on(SwitchableTransport(emulator)),
        emulator_service(),
        clock=frozen_clock(NOW),
        refresh=SLOW,
        webhooks=webhooks,
    )
    return app, webhooks, emulator


async def until(pilot, predicate, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("never happened")


def cells(screen: WebhookInboxScreen) -> list[list[str]]:
    table = screen.query_one("#inbox-table", LiveTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


async def test_a_crawl_webhook_arrives_verified_and_a_forged_one_is_shown_unverified() -> None:
    app, webhooks, emulator = app_with_inbox()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: webhooks.address is not None)  # --webhook-listen: listening from the start
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WebhookInboxScreen))
        screen = app.screen
        assert isinstance(screen, WebhookInboxScreen)
        address = webhooks.address
        assert address is not None and address.startswith("http://127.0.0.1:")
        assert "Listening on " + address in str(screen.query_one("#inbox-address").render())

        started = await app.client.crawl.start(
            "https://acme-outdoor.com/",
            limit=3,
            webhook={"url": address, "metadata": {"ticket": "OPS-42"}, "events": ["started"]},
        )
        # In-process, the emulator's dispatcher sends what is due when asked (a served one runs it on a timer).
        [delivery] = await emulator.webhooks.run_due()
        assert delivery.state == "delivered"
        await until(pilot, lambda: len(webhooks.inbox.rows) == 1)
        forged = json.dumps(
            {"success": True, "type": "crawl.started", "id": started.id, "webhookId": "forged-1", "data": []}
        ).encode()
        async with httpx.AsyncClient() as http:
            answer = await http.post(address, content=forged, headers={SIGNATURE_HEADER: sign(forged, "guessed")})
        assert answer.status_code == 200
        await until(pilot, lambda: len(cells(screen)) == 2)

        rows = cells(screen)  # newest first
        assert rows[0][1:3] == ["crawl.started", started.id[:8]] and rows[0][4] == "✗ unverified"
        assert rows[1][1:3] == ["crawl.started", started.id[:8]] and rows[1][4] == "✓ verified"
        assert rows[1][6] == '{"ticket":"OPS-42"}'
        assert "does not match" in str(screen.query_one("#inbox-detail").render())  # the forged row is highlighted
        await pilot.press("escape")
        assert not isinstance(app.screen, WebhookInboxScreen)
        assert webhooks.address == address  # still listening behind the dashboard


async def test_w_starts_the_listener_when_no_address_was_given_and_a_taken_port_is_said() -> None:
    app, webhooks, _ = app_with_inbox(secret=None, listen="127.0.0.1:0")
    webhooks.configured = None  # as with nothing configured: started by the first w
    async with app.run_test(size=(80, 24)) as pilot:
        assert webhooks.address is None
        await pilot.press("w")
        await until(pilot, lambda: webhooks.address is not None)
        text = str(app.screen.query_one("#inbox-address").render())
        assert "no secret set" in text

    blocker = InboxService("127.0.0.1:0")
    await blocker.start()
    taken = blocker.address.rstrip("/").rsplit(":", 1)[1]
    app, webhooks, _ = app_with_inbox(listen=f"127.0.0.1:{taken}")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: webhooks.note is not None)
            assert webhooks.address is None and "cannot listen on 127.0.0.1:" in webhooks.note
            await pilot.press("w")
            await until(pilot, lambda: "Not listening" in str(app.screen.query_one("#inbox-address").render()))
    finally:
        await blocker.close()


async def test_w_on_the_inbox_does_not_stack_a_second_inbox() -> None:
    app, webhooks, _ = app_with_inbox()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WebhookInboxScreen))
        await pilot.press("w")
        await pilot.pause()
        assert sum(isinstance(screen, WebhookInboxScreen) for screen in app.screen_stack) == 1


def test_counts_read_as_words() -> None:
    from tui.dashboard.features.inbox.screen import plural

    assert plural(1, "delivery", "deliveries") == "1 delivery"
    assert plural(3, "delivery", "deliveries") == "3 deliveries"
    assert plural(2, "event") == "2 events"
