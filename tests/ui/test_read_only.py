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
import pytest
from textual.app import ComposeResult
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen

from tests.support.dashboard import SwitchableTransport, dashboard, seeded_emulator, wait_until
from tui.api.base_client import only_reads
from tui.dashboard.keys.keymap import described_bindings, palette_actions
from tui.dashboard.keys.overrides import binding_classes
from tui.dashboard.keys.palette import DashboardCommands
from tui.dashboard.kit.mutations import declared_mutation, refusal
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.intents import OpenScrapeForm


def action_name(action: str) -> str:
    """The bare name of an action string: "app.quit" -> "quit", "sort('url')" -> "sort"."""
    return action.split("(", 1)[0].rsplit(".", 1)[-1]


MUTATING_ACTIONS = {
    name.removeprefix("action_")
    for cls in binding_classes()
    for name in dir(cls)
    if name.startswith("action_") and declared_mutation(cls, name.removeprefix("action_"))
}
"""Every action that declares it changes the service (`@mutates`), by bare name."""


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
    """The actions the footer offers now, by bare name (its keys, as drawn)."""
    return {action_name(str(getattr(key, "action", ""))) for key in app.screen.query("FooterKey")}


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
            # The footer rebuilds after the refresh that follows a focus change: wait for it, not one pause.
            await wait_until(pilot, lambda: bool(shown_actions(app)), f"the footer's reading keys on {pane.id}")
            offered = shown_actions(app)
            assert not offered & set(MUTATING_ACTIONS), (pane.id, offered & set(MUTATING_ACTIONS))
            names = [name for name, _, _ in DashboardCommands(app.screen)._commands()]
            assert names, "the palette still lists the reading actions"
            for name in names:
                lowered = name.lower()
                for banned in (
                    "create",
                    "delete",
                    "cancel crawl",
                    "interact",
                    "ask support",
                    "scrape a url",
                    "start a crawl",
                    "map a site",
                    "batch scrape",
                ):
                    assert banned not in lowered, name


# One test per pane (the walk from all four took over a minute, the longest test of the
# suite): the pane's keys, the app's keys and the palette's commands, with that pane focused.
@pytest.mark.parametrize("pane_id", ["crawls", "activity", "usage", "sessions"])
async def test_every_key_and_palette_command_sends_no_mutating_request(pane_id: str) -> None:
    app, transport = read_only_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        app_keys = [b.key for b in described_bindings(app) if b.key not in ("q", "ctrl+c")]
        pane = app.query_one(f"#{pane_id}", Pane)
        pane.focus_first()
        await pilot.pause()
        keys = [b.key for node in (pane, *pane.query("*")) for b in described_bindings(node)]
        assert keys, f"the {pane_id} pane has keys to walk"
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


class NotesScreen(Screen[None]):
    """A screen whose `submit` changes nothing on the service, and does not say it does."""

    BINDINGS = [Binding("ctrl+s", "submit", "Keep the notes", id="notes.submit")]

    def __init__(self) -> None:
        super().__init__()
        self.submitted = 0

    def compose(self) -> ComposeResult:
        yield Footer()

    def action_submit(self) -> None:
        self.submitted += 1


async def test_an_action_is_refused_for_what_it_declares_not_for_its_name() -> None:
    app, transport = read_only_dashboard()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        notes = NotesScreen()
        await app.push_screen(notes)
        await wait_until(pilot, lambda: "submit" in shown_actions(app), "the notes screen's footer offering submit")
        assert any(entry.action == "submit" for entry in palette_actions(notes))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert notes.submitted == 1
        assert not any("Read-only" in str(n.message) for n in app._notifications)
        app.pop_screen()
        await pilot.pause()

        declared = [
            (cls, name.removeprefix("action_"))
            for cls in binding_classes()
            for name in dir(cls)
            if name.startswith("action_") and declared_mutation(cls, name.removeprefix("action_"))
        ]
        assert {(cls.__name__, name) for cls, name in declared} >= {
            ("SessionsPane", "create"),
            ("ScrapeFormScreen", "submit"),
            ("ConsoleScreen", "run"),
            ("WdsApp", "batch_form"),
        }
        for cls, name in declared:
            app.clear_notifications()
            await pilot.pause()
            stand_in = app if cls is type(app) else cls.__new__(cls)  # refused before Textual looks at it
            assert await app.run_action(name, stand_in), (cls.__name__, name)
            await pilot.pause()
            what = declared_mutation(cls, name)
            assert [str(n.message) for n in app._notifications] == [refusal(str(what))], (cls.__name__, name)
    assert mutating_requests(transport) == []
