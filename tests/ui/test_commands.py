"""The command palette (ctrl+p), driven as a person would: search, pick, and see the action happen.

The palette lists the actions of the screen it was opened on (not of itself),
each with its key, and runs each on the pane or screen that owns it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, ClassVar

import pytest
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from tests.support.dashboard import SwitchableTransport, dashboard, open_pane, seeded_emulator, settle, wait_until
from tests.support.recording_backend import RecordingBackend
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.crawls.pane import CrawlsPane
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.keys.help import HelpScreen
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.intents import AskSupport, Intent, OpenJob
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


@pytest.fixture
async def emulator(clock: ManualClock, backend: RecordingBackend) -> AsyncIterator[Emulator]:
    emulator = seeded_emulator(clock=clock, browser_backend=backend)
    yield emulator
    await emulator.aclose()


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport) -> WdsApp:
    return dashboard(emulator, transport)


def record_intents(app: WdsApp) -> list[Intent]:
    """Every intent the app is asked to answer, in order (the screens still open)."""
    seen: list[Intent] = []
    original = app.navigator.screen_for

    def screen_for(intent: Intent) -> Any:
        seen.append(intent)
        return original(intent)

    app.navigator.screen_for = screen_for  # type: ignore[method-assign]
    return seen


async def search(pilot: Pilot[Any], query: str) -> dict[str, str]:
    """Open the palette, type `query`, and return the hits shown: name -> help text (the key)."""
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette), "the palette")
    await pilot.press(*query)
    commands = pilot.app.screen.query_one(CommandList)

    def gathered() -> bool:
        searching = [w for w in pilot.app.workers if w.group == CommandPalette._GATHER_COMMANDS_GROUP]
        return commands.option_count > 0 and not any(w.is_running for w in searching)

    await wait_until(pilot, gathered, "the hits")
    return {hit.text: hit.help for hit in shown_hits(commands)}


def shown_hits(commands: CommandList) -> list[Any]:
    """The hits listed, in order (not the "no matches" line)."""
    options = [commands.get_option_at_index(i) for i in range(commands.option_count)]
    return [option.hit for option in options if hasattr(option, "hit")]


async def run_hit(pilot: Pilot[Any], name: str) -> None:
    """In the open palette, highlight the hit called `name` and press Enter."""
    commands = pilot.app.screen.query_one(CommandList)
    commands.highlighted = [hit.text for hit in shown_hits(commands)].index(name)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(pilot.app.screen, CommandPalette), "the palette to close")
    await pilot.pause()


async def test_refresh_runs_on_the_pane_named_even_with_the_focus_elsewhere(
    app: WdsApp, transport: SwitchableTransport
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, CrawlsPane)  # the focus is on the crawls pane
        hits = await search(pilot, "refresh")
        for title in ("Active crawls", "Team activity", "Token usage", "Browser sessions"):
            assert hits[f"{title}: Refresh"] == "key r"
        before = len(transport.paths)
        await run_hit(pilot, "Browser sessions: Refresh")
        await settle(pilot)
        assert transport.paths[before:] == ["/v2/browser"]


async def test_zoom_zooms_the_pane_named(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, CrawlsPane)
        hits = await search(pilot, "zoom")
        assert hits["Team activity: Zoom"] == "key z"
        await run_hit(pilot, "Team activity: Zoom")
        assert app.zoomed is app.query_one(ActivityPane)
        assert app.query_one(ActivityPane).has_focus_within, "the keys go to the pane shown"


async def test_session_finds_the_sessions_actions_and_runs_one(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        hits = await search(pilot, "session")
        assert hits["Browser sessions: Create"] == "key c"
        assert hits["Browser sessions: Status filter"] == "key s"
        assert hits["App: Go to sessions"] == "key 4"
        await run_hit(pilot, "Browser sessions: Create")
        assert isinstance(app.screen, SessionFormScreen)


async def test_support_asks_about_the_highlighted_job(app: WdsApp) -> None:
    """The activity pane's "Ask support" (a, added with the support screen) is in the palette and runs."""
    intents = record_intents(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, ActivityPane)
        hits = await search(pilot, "support")
        [name] = [name for name in hits if name.startswith("Team activity:") and "support" in name.lower()]
        assert hits[name] == "key a"
        await run_hit(pilot, name)
        await settle(pilot)
        assert [type(intent) for intent in intents] == [AskSupport]


async def test_an_action_that_cannot_run_now_is_not_offered(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        hits = await search(pilot, "sessions")
        assert "Browser sessions: Delete" not in hits, "no session is selected: nothing to delete"
        assert "Browser sessions: Create" in hits
        await pilot.press("escape")
        await settle(pilot)

        await app.client.browser.create(ttl=600)
        app.query_one(SessionsPane).refresh_data()
        await settle(pilot)
        hits = await search(pilot, "sessions")
        assert hits["Browser sessions: Delete"] == "key d"
        assert hits["Browser sessions: Console"] == "key ⏎"


async def test_the_palette_on_a_job_screen_lists_that_screens_actions(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, ActivityPane)
        scrape = next(entry for entry in pane.data.page.data if entry.endpoint == "scrape")  # type: ignore[union-attr]
        pane.post_message(OpenJob("scrape", scrape.id))
        await wait_until(pilot, lambda: isinstance(app.screen, JobDetailScreen), "the job screen")
        await settle(pilot)
        screen = app.screen
        hits = await search(pilot, "job detail")
        assert {"Job detail: Back", "Job detail: Reload", "Job detail: JSON"} <= set(hits)
        assert not any(name.startswith("Browser sessions:") for name in hits), "the panes are not on this screen"
        await run_hit(pilot, "Job detail: JSON")
        assert app.screen is screen

        hits = await search(pilot, "back")
        await run_hit(pilot, "Job detail: Back")
        assert not isinstance(app.screen, JobDetailScreen)


async def test_the_app_keys_are_listed_with_their_keys(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        hits = await search(pilot, "help")
        assert hits["App: Help: the keys that work here"] == "key ? / f1"
        await run_hit(pilot, "App: Help: the keys that work here")
        assert isinstance(app.screen, HelpScreen)
        assert "Keys" not in (await search_system(pilot))


async def search_system(pilot: Pilot[Any]) -> set[str]:
    """Textual's own commands for the screen on top (its "Keys" panel is replaced by the help)."""
    return {command.title for command in pilot.app.get_system_commands(pilot.app.screen)}


class ReportScreen(Screen[None]):
    """A screen the palette and the help have never heard of, with a widget of its own keys."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "export", "Export the report")]

    def __init__(self) -> None:
        super().__init__()
        self.exported = 0

    def compose(self) -> ComposeResult:
        yield Counter()

    def on_mount(self) -> None:
        self.query_one(Counter).focus()

    def action_export(self) -> None:
        self.exported += 1


class Counter(Static, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("plus", "bump", "Count one more")]
    count = 0

    def action_bump(self) -> None:
        self.count += 1


async def test_a_new_screen_is_listed_from_its_bindings_alone(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        screen = ReportScreen()
        await app.push_screen(screen)
        await pilot.pause()
        hits = await search(pilot, "report")
        assert hits["Report: Export the report"] == "key x"
        await run_hit(pilot, "Report: Export the report")
        assert screen.exported == 1
        hits = await search(pilot, "count")
        await run_hit(pilot, "Report: Count one more")
        assert screen.query_one(Counter).count == 1

        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        groups = {group.title: [e.description for e in group.actions] for group in app.screen.groups}
        assert groups["Report"] == ["Count one more", "Export the report"]


async def test_window_triage_and_export_are_in_the_palette_and_run(app: WdsApp) -> None:
    """The activity pane's t, c and s (issue 21) are palette commands like every key."""
    intents = record_intents(app)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, ActivityPane)
        hits = await search(pilot, "export")
        assert hits["Team activity: Export"] == "key s"
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, CommandPalette), "the palette to close")
        hits = await search(pilot, "window")
        assert hits["Team activity: Window"] == "key t"
        await run_hit(pilot, "Team activity: Window")
        assert str(pane.border_title) == "Team activity · last 15 min"
        hits = await search(pilot, "triage")
        assert hits["Team activity: Triage"] == "key c"
        await run_hit(pilot, "Team activity: Triage")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "TriageScreen", "the triage view")
        assert [type(intent).__name__ for intent in intents] == ["OpenTriage"]
