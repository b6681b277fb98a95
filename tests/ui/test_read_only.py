"""Read-only mode: every action that changes something is absent from the footer and the palette, and refused.

The walk presses every key of every pane and of the app, and runs every palette
command, on a dashboard whose client is NOT read-only: so the UI's refusals
alone are proved to keep every mutating request from the emulator. The
client's own guard is tested apart (tests/api/test_read_only_client.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import httpx
from textual.pilot import Pilot

from tests.ui.conftest import (
    SwitchableTransport,
    dashboard,
    seeded_emulator,
    wait_until,
)
from tui.api.base_client import only_reads
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.keys.palette import DashboardCommands
from tui.dashboard.shell.intents import OpenScrapeForm
from tui.dashboard.keys.keymap import described_bindings, palette_actions
from tui.dashboard.kit.pane import Pane
from tui.dashboard.keys.read_only import MUTATING_ACTIONS, action_name


class RecordingTransport(SwitchableTransport):
    """The in-process emulator, recording each request's method and path."""

    def __init__(self, emulator: Any) -> None:
        super().__init__(emulator)
        self.requests: list[tuple[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((request.method, request.url.path))
        return await super().handle_async_request(request)


def read_only_dashboard() -> tuple[WdsApp, RecordingTransport]:
    emulator = seeded_emulator()
    transport = RecordingTransport(emulator)
    app = dashboard(emulator, transport)
    app.service = replace(app.service, read_only=True)
    app.header.read_only = True
    return app, transport


async def loaded(pilot: Pilot[Any]) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: all(p.data is not None for p in app.query(Pane)), "every pane's data", 10)


def shown_actions(app: WdsApp) -> set[str]:
    """The actions the footer offers now, by bare name."""
    footer = {action_name(b.binding.action) for b in app.screen.active_bindings.values()}
    return footer


SKIPPED_KEYS = ("q", "ctrl+c", "escape", "enter")


async def go_on_and_back(pilot: Pilot[Any]) -> None:
    """If a screen opened, press each of its keys once (a form's send, a dialog's yes), then close it."""
    app = pilot.app
    if len(app.screen_stack) > 1:
        screen = app.screen
        for node in (screen, *screen.query("*")):
            for binding in described_bindings(node):
                if binding.key not in SKIPPED_KEYS and app.screen is screen:
                    await pilot.press(binding.key)
                    await pilot.pause(0.05)
    while len(app.screen_stack) > 1:
        app.pop_screen()
        await pilot.pause()


def mutating_requests(transport: RecordingTransport) -> list[tuple[str, str]]:
    return [(method, path) for method, path in transport.requests if not only_reads(method, path)]


async def test_the_header_says_read_only_and_nothing_mutating_is_offered() -> None:
    app, _ = read_only_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        assert "READ-ONLY" in str(app.header.render())
        for pane in app.query(Pane):
            pane.focus_first()
            await pilot.pause()
            offered = shown_actions(app)
            assert not offered & set(MUTATING_ACTIONS), (pane.id, offered & set(MUTATING_ACTIONS))
            names = [name for name, _, _ in DashboardCommands(app.screen)._commands()]
            assert names, "the palette still lists the reading actions"
            for name in names:
                lowered = name.lower()
                for banned in ("create", "delete", "cancel crawl", "interact", "ask support", "scrape a url",
                               "start a crawl", "map a site", "batch scrape"):
                    assert banned not in lowered, name


async def test_every_key_and_palette_command_sends_no_mutating_request() -> None:
    app, transport = read_only_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        app_keys = [b.key for b in described_bindings(app) if b.key not in ("q", "ctrl+c")]
        for pane in app.query(Pane):
            pane.focus_first()
            await pilot.pause()
            keys = [b.key for node in (pane, *pane.query("*")) for b in described_bindings(node)]
            for key in [*keys, *app_keys]:
                if key in SKIPPED_KEYS:
                    continue
                await pilot.press(key)
                await pilot.pause(0.05)
                await go_on_and_back(pilot)
                pane.focus_first()
            for entry in palette_actions(app.screen):
                if action_name(entry.action) in ("quit", "interrupt"):
                    continue
                await entry.run()
                await pilot.pause(0.05)
                await go_on_and_back(pilot)
        app.clear_notifications()
        app.post_message(OpenScrapeForm())  # reached some other way: refused with a toast
        await pilot.pause(0.3)
        assert len(app.screen_stack) == 1
        assert any("Read-only" in str(n.message) for n in app._notifications)
        assert not app._exit
        await pilot.pause(0.5)
    assert transport.requests, "the walk did read"
    assert mutating_requests(transport) == []


async def test_a_mutating_key_reached_directly_is_refused_with_a_message() -> None:
    app, transport = read_only_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("4")
        await pilot.pause()
        assert await app.run_action("create", app.query_one("#sessions"))
        await pilot.pause()
        toasts = [str(n.message) for n in app._notifications]
        assert any(t.startswith("Read-only: creating a browser session is turned off") for t in toasts), toasts
        assert len(app.screen_stack) == 1
    assert mutating_requests(transport) == []
