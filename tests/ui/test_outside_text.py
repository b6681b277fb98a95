"""Text from outside is shown as text in the dashboard (issue 18, part 1): the two crashes of the issue.

One `POST /v2/scrape` of `https://lumen-labs.io/a[/b]` put a target into the
team's activity that ended the dashboard with MarkupError at every start, and
one unsigned webhook whose type was `crawl.page[/oops]` ended it when the inbox
showed it. Both run here on the real emulator and the real inbox listener.
"""

from __future__ import annotations

import json

import httpx
from pydantic import SecretStr
from textual.widgets import OptionList

from tests.support.dashboard import (
    BASE_URL,
    KEY,
    NOW,
    SLOW,
    SwitchableTransport,
    client_on,
    dashboard,
    emulator_service,
    frozen_clock,
    seeded_emulator,
    settle,
)
from tui.dashboard.features.activity.pane import ActivityPane, ActivityTable
from tui.dashboard.features.inbox.screen import WebhookInboxScreen
from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.startup.app_factory import make_app
from tui.dashboard.startup.context_picker import ContextPickerScreen
from tui.dashboard.startup.contexts import ContextSwitch
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

BRACKETED = "https://lumen-labs.io/a[/b]"
ACTION = "https://lumen-labs.io/x[@click=app.quit]quit[/]"


def shown(table: LiveTable) -> list[list[str]]:
    """What each row of `table` reads on screen, cell by cell."""
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


async def scrape(emulator: Emulator, *urls: str) -> None:
    """`POST /v2/scrape` each of `urls`, as any client of the service may."""
    transport = httpx.ASGITransport(app=create_app(emulator))
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        for url in urls:
            answer = await http.post("/v2/scrape", json={"url": url}, headers={"Authorization": f"Bearer {KEY}"})
            assert answer.status_code == 200, answer.text


async def test_a_bracketed_target_in_activity_is_shown_as_typed_and_is_no_action() -> None:
    emulator = seeded_emulator()
    await scrape(emulator, BRACKETED, ACTION)
    app = dashboard(emulator)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        pane = app.query_one(ActivityPane)
        targets = [row[4] for row in shown(pane.query_one(ActivityTable))]
        assert "lumen-labs.io/a[/b]" in targets
        assert "lumen-labs.io/x[@click=app.quit]quit[/]" in targets
        # Clicking the target's text runs nothing: the app is still there and on its panes.
        table = pane.query_one(ActivityTable)
        row = next(i for i, cells in enumerate(shown(table)) if "click" in cells[4])
        await pilot.click(table, offset=(table.size.width - 10, row + 1))
        await pilot.pause()
        assert app.is_running and app.screen is app.screen_stack[0]


def app_with_inbox() -> tuple[WdsApp, InboxService]:
    emulator = seeded_emulator(clock=ManualClock(NOW))
    webhooks = InboxService("127.0.0.1:0", SecretStr("whsec-outside-text"))
    client = client_on(SwitchableTransport(emulator))
    return make_app(client, emulator_service(), clock=frozen_clock(NOW), refresh=SLOW, webhooks=webhooks), webhooks


async def test_an_unsigned_webhook_with_markup_in_its_type_is_shown_in_the_inbox() -> None:
    app, webhooks = app_with_inbox()
    async with app.run_test(size=(160, 40)) as pilot:
        for _ in range(200):
            if webhooks.address is not None:
                break
            await pilot.pause(0.05)
        assert webhooks.address is not None
        await pilot.press("w")
        body = {
            "success": True,
            "type": "crawl.page[/oops]",
            "id": "job[bold]1",
            "webhookId": "w[@click=app.quit]x[/]",
            "metadata": {"[/meta]": "\x1b]52;c;aGk=\x07"},
            "error": "broke \x1b[2J[/]",
            "data": [],
        }
        async with httpx.AsyncClient() as http:
            answer = await http.post(webhooks.address, content=json.dumps(body).encode())
        assert answer.status_code == 200
        # The screen puts deliveries in its table a tenth of a second after they land (a burst together).
        for _ in range(200):
            if isinstance(app.screen, WebhookInboxScreen) and app.screen.query_one("#inbox-table", LiveTable).row_count:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, WebhookInboxScreen)
        [row] = shown(screen.query_one("#inbox-table", LiveTable))
        assert row[1] == "crawl.page[/oops]" and row[3] == "w[@click=app.quit]x[/]"
        detail = str(screen.query_one("#inbox-detail").render())
        assert "error: broke ␛[2J[/]" in detail and "\x1b" not in detail
        assert app.is_running


async def test_every_notification_is_plain_text_whoever_sends_it() -> None:
    # A pane's notify says "markup" to the app by default: the app reads none, and shows each control by a stand-in.
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.query_one(ActivityPane).notify("refused [/b] \x1b]52;c;aGk=\x07 [@click=app.quit]q[/]", title="t\x9b[/i]")
        await pilot.pause()
        [notification] = list(app._notifications)
        assert notification.message == "refused [/b] ␛]52;c;aGk=␇ [@click=app.quit]q[/]" and not notification.markup
        assert notification.title == "t�[/i]"
        assert app.is_running


async def test_a_context_named_with_brackets_is_listed_as_named() -> None:
    emulator = seeded_emulator()
    app = dashboard(emulator, SwitchableTransport(emulator))
    app.contexts = ContextSwitch(["prod[/b]", "staging"], "prod[/b]", lambda name: (name, []))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        for _ in range(100):
            if isinstance(app.screen, ContextPickerScreen):
                break
            await pilot.pause(0.05)
        options = app.screen.query_one(OptionList)
        assert str(options.get_option_at_index(0).prompt) == "● prod[/b]"
        assert app.is_running
