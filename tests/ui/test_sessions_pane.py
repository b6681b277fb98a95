"""The browser sessions pane, driven with Pilot against the in-process emulator.

The emulator runs with a small recording browser backend (bookkeeping only, no
Chromium), a manual clock and a fixed seed; the dashboard's clock is the
emulator's, so times on screen are predictable (TZ is UTC here).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from tests.support.dashboard import KEY, SwitchableTransport, dashboard, open_pane, seeded_emulator, settle
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.api.errors import BadRequestError
from tui.dashboard.features.console.history import ConsoleTarget, RunOutcome, RunSpec
from tui.dashboard.features.console.session_detail import SessionDetailScreen
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.intents import OpenConsole
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Team
from tui.emulator.service import Emulator
from tui.emulator.state.browser_parts import RESTARTED
from tui.emulator.state.snapshot import close_sessions

START = datetime(2026, 7, 15, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def emulator(clock: ManualClock, backend: RecordingBackend) -> AsyncIterator[Emulator]:
    emulator = seeded_emulator(clock=clock, browser_backend=backend, history=False)
    yield emulator
    await emulator.aclose()


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport, clock: ManualClock) -> WdsApp:
    return dashboard(emulator, transport, clock=clock.now)


def cells(pane: SessionsPane) -> dict[str, dict[str, str]]:
    """Session id -> column (its full name, whatever header a narrow pane gives it) -> what the cell shows."""
    table = pane.query_one(LiveTable)
    headings = [column.key for column in table.ordered_columns]
    return {str(key): dict(zip(headings, map(str, table.get_row(key)), strict=True)) for key in table.row_keys}


def the_team(emulator: Emulator) -> Team:
    team = emulator.team_by_key(KEY)
    assert team is not None
    return team


def team_sessions(emulator: Emulator) -> list[Any]:
    return emulator.browser.list(the_team(emulator).id)


def spy_notifications(app: WdsApp) -> list[dict[str, Any]]:
    notes: list[dict[str, Any]] = []
    original = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        notes.append({"message": message, **kwargs})
        original(message, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return notes


async def test_create_then_delete_a_session(app: WdsApp, emulator: Emulator, backend: RecordingBackend) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        await pilot.press("c")
        assert isinstance(app.screen, SessionFormScreen)
        await pilot.press("1", "2", "0", "enter")  # ttl 120 replaces the selected default
        await settle(pilot)

        assert not isinstance(app.screen, SessionFormScreen)
        [session] = team_sessions(emulator)
        assert session.status == "active" and session.ttl == 120 and session.activity_ttl == 300
        row = cells(pane)[session.id]
        assert [row["ID"], row["Status"]] == [session.id[:8], "● active"]
        # created by this app: it ends at expiresAt (12:02), before the idle limit (12:05);
        # in a quarter of the screen the times drop their seconds (zoom shows them)
        assert row["Ends"] == "12:02"
        assert pane.query_one(LiveTable).selected_key() == session.id

        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)

        assert session.status == "destroyed"
        assert [closed for closed, _ in backend.closes] == [session.id]
        await pilot.press("z")  # every column, the live view link whole: the grid's quarter keeps the first ones
        await settle(pilot)
        row = cells(pane)[session.id]
        assert [row[c] for c in ("Status", "Created", "Last activity", "Ends")] == [
            "○ destroyed",
            "12:00:00",
            "12:00:00",
            "ended",
        ]
        assert row["Live view"].startswith("emulator.test/live/") and "token" not in row["Live view"]


async def test_form_rejects_out_of_range_values_under_their_fields_and_keeps_them(
    app: WdsApp, emulator: Emulator, backend: RecordingBackend
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        await pilot.press("c")
        form = app.screen
        assert isinstance(form, SessionFormScreen)
        await pilot.press("5", "tab", "5", "0", "0", "0", "tab", "tab", *"shop")
        await pilot.press("ctrl+s")
        await pilot.pause()

        assert app.screen is form, "an invalid form must stay open"
        ttl_error = form.query_one("#ttl-error", Static)
        activity_error = form.query_one("#activity-ttl-error", Static)
        assert ttl_error.display and "ttl" in str(ttl_error.render()) and "30" in str(ttl_error.render())
        assert activity_error.display and "activityTtl" in str(activity_error.render())
        assert "3600" in str(activity_error.render())
        assert not form.query_one("#profile-name-error", Static).display
        assert [form.query_one(f"#{name}", Input).value for name in ("ttl", "activity-ttl", "profile-name")] == [
            "5",
            "5000",
            "shop",
        ]
        assert backend.launches == [] and team_sessions(emulator) == []

        form.query_one("#ttl", Input).value = "90"
        form.query_one("#activity-ttl", Input).value = "60"
        await pilot.press("ctrl+s")
        await settle(pilot)

        [session] = team_sessions(emulator)
        assert (session.ttl, session.activity_ttl, session.profile_name) == (90, 60, "shop")
        [(_, profile)] = backend.launches
        assert profile is not None and profile.name.endswith("/shop") and profile.save_changes


async def test_escape_closes_the_form_without_creating(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        await pilot.press("c", "escape")
        await settle(pilot)
        assert not isinstance(app.screen, SessionFormScreen)
        assert team_sessions(emulator) == []


@pytest.mark.parametrize(
    ("refusal", "title", "reason"),
    [
        ("session limit", "Rate limited", "maximum number of concurrent"),
        ("no browser", "Service unavailable", "no Chromium here"),
    ],
)
async def test_a_refused_create_says_why_and_the_form_stays_as_typed(
    app: WdsApp, emulator: Emulator, backend: RecordingBackend, refusal: str, title: str, reason: str
) -> None:
    team = the_team(emulator)
    if refusal == "session limit":
        team.max_browser_sessions = 0  # the service answers 429
    else:
        backend.available, backend.unavailable_reason = False, "no Chromium here"  # 503
    async with app.run_test(size=(120, 40)) as pilot:
        notes = spy_notifications(app)
        await open_pane(pilot, SessionsPane)
        await pilot.press("c", "1", "2", "0", "tab", "4", "5")
        await pilot.press("enter")
        await settle(pilot)

        [note] = [n for n in notes if n.get("severity") == "error"]
        assert note["title"] == title and reason in note["message"]
        form = app.screen
        assert isinstance(form, SessionFormScreen), "the form stays open after a refusal"
        assert form.query_one("#ttl", Input).value == "120"
        assert form.query_one("#activity-ttl", Input).value == "45"
        problem = form.query_one("#form-problem", Static)
        assert problem.display and title in str(problem.render())
        assert team_sessions(emulator) == []


async def test_a_400_naming_a_field_marks_that_field_and_the_form_keeps_everything(
    app: WdsApp, emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    issue = {"path": "activityTtl", "message": "activityTtl: must be at most the session's ttl"}

    async def refuse(**_: Any) -> Any:
        raise BadRequestError("Invalid request body.", status=400, code="BAD_REQUEST", details=[issue])

    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        monkeypatch.setattr(app.client.browser, "create", refuse)
        await pilot.press("c", "1", "2", "0", "tab", "6", "0", "0")
        form = app.screen
        await pilot.press("enter")
        await settle(pilot)

        assert app.screen is form, "the form stays open on refusal"
        line = form.query_one("#activity-ttl-error", Static)
        assert line.display and issue["message"] in str(line.render())
        assert form.query_one("#activity-ttl", Input).has_class("-invalid")
        assert not form.query_one("#form-problem", Static).display
        assert [form.query_one(f"#{name}", Input).value for name in ("ttl", "activity-ttl")] == ["120", "600"]
        assert team_sessions(emulator) == []


async def test_delete_asks_first_and_escape_or_enter_on_cancel_keep_the_session(
    app: WdsApp, client: WdsClient, emulator: Emulator, backend: RecordingBackend
) -> None:
    created = await client.browser.create(ttl=600)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        assert cells(pane)[created.id]["Ends"] == "—", "a session this app did not create has no known end"

        await pilot.press("d")
        confirm = app.screen
        assert isinstance(confirm, ConfirmScreen)
        assert isinstance(app.focused, Button) and app.focused.id == "cancel"
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)

        await pilot.press("d", "enter")  # Enter presses the focused button: Cancel
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert [s.status for s in team_sessions(emulator)] == ["active"]
        assert backend.closes == []


async def test_status_filter_changes_the_rows(app: WdsApp, client: WdsClient) -> None:
    alive = await client.browser.create(ttl=600)
    ended = await client.browser.create(ttl=600)
    await client.browser.delete(ended.id)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        assert set(cells(pane)) == {alive.id, ended.id}

        await pilot.press("s")
        await settle(pilot)
        assert pane.status_filter == "active" and set(cells(pane)) == {alive.id}

        await pilot.press("s")
        await settle(pilot)
        assert pane.status_filter == "destroyed" and set(cells(pane)) == {ended.id}

        await pilot.press("s")
        await settle(pilot)
        assert pane.status_filter == "all" and set(cells(pane)) == {alive.id, ended.id}
        assert pane.data is not None and pane.show(pane.data) is False, "same data: nothing to redraw"


async def test_copy_puts_the_id_and_urls_on_the_clipboard_and_warns_about_the_token(
    app: WdsApp, client: WdsClient
) -> None:
    created = await client.browser.create(ttl=600)
    async with app.run_test(size=(120, 40)) as pilot:
        notes = spy_notifications(app)
        await open_pane(pilot, SessionsPane)

        await pilot.press("y")  # y copies the id, as in every list of jobs
        assert app.clipboard == created.id
        assert notes[-1]["message"] == f"copied the id of browser session {created.id}"

        await pilot.press("Y")
        assert app.clipboard == created.cdp_url
        assert notes[-1]["message"] == "copied cdpUrl (contains a secret token)"

        await pilot.press("v")
        assert app.clipboard == created.live_view_url
        assert notes[-1]["message"].startswith("copied live view URL")


async def test_enter_asks_for_the_console_of_an_active_session_only(app: WdsApp, client: WdsClient) -> None:
    created = await client.browser.create(ttl=600)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        requested: list[OpenConsole] = []
        original = pane.post_message

        def post_message(message: Message) -> bool:
            if isinstance(message, OpenConsole):
                requested.append(message)
            return original(message)

        pane.post_message = post_message  # type: ignore[method-assign]
        await pilot.press("enter")
        await pilot.pause()
        assert [m.session.id for m in requested] == [created.id]
        assert requested[0].session.cdp_url == created.cdp_url

        await client.browser.delete(created.id)
        pane.refresh_data()
        await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert len(requested) == 1, "a destroyed session has no console"


async def test_the_profile_column_shows_the_profile_this_dashboard_created_the_session_with(
    app: WdsApp, client: WdsClient
) -> None:
    other = await client.browser.create(ttl=600)  # not created here, and the list names no profile
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        await pilot.press("c")
        form = app.screen
        assert isinstance(form, SessionFormScreen)
        form.query_one("#profile-name", Input).value = "shop"
        await pilot.press("ctrl+s")
        await settle(pilot)

        created = pane.selected_session()
        assert created is not None and created.id != other.id
        await pilot.press("z")  # the profile gives way in the grid's quarter: zoomed, every column shows
        await settle(pilot)
        assert cells(pane)[created.id]["Profile"] == "shop"
        assert cells(pane)[other.id]["Profile"] == "—"


async def detail_of_the_selected(pilot: Any) -> SessionDetailScreen:
    """⏎ on the selected (ended) session: its detail screen."""
    await pilot.press("enter")
    await settle(pilot)
    detail = pilot.app.screen
    assert isinstance(detail, SessionDetailScreen)
    return detail


async def test_enter_on_an_ended_session_shows_what_is_known_of_it(
    app: WdsApp, emulator: Emulator, clock: ManualClock
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        await pilot.press("c")
        form = app.screen
        assert isinstance(form, SessionFormScreen)
        form.query_one("#profile-name", Input).value = "shop"
        await pilot.press("ctrl+s")
        await settle(pilot)
        [session] = team_sessions(emulator)
        # A run in its console during this dashboard's run.
        history = app.memory.console_histories.for_target(ConsoleTarget.for_session(pane.selected_session()))
        run = history.start(RunSpec("code", "await page.title()", "node", None), clock.now())
        run.finish(RunOutcome(success=True, stdout="Example Domain\n", exit_code=0), 0.25)

        clock.advance(90)
        await pilot.press("d", "y")  # delete, confirmed
        await settle(pilot)
        assert pane.selected_session() is not None and not pane.selected_session().is_active

        detail = await detail_of_the_selected(pilot)
        facts = dict(detail.facts())
        assert facts["id"] == session.id and facts["status"] == "destroyed" and facts["profile"] == "shop"
        assert facts["created"] == "2026-07-15 12:00:00"
        assert facts["ended"].startswith("2026-07-15 12:01:30 · deleted from this dashboard (ran 90 s")
        text = " ".join(str(s.render()) for s in detail.query(Static))
        assert "await page.title()" in text and "Example Domain" in text and "succeeded" in text

        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SessionDetailScreen)


async def test_an_ended_session_this_dashboard_never_saw_alive_says_its_end_is_not_known(
    app: WdsApp, client: WdsClient
) -> None:
    created = await client.browser.create(ttl=600)
    await client.browser.delete(created.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        detail = await detail_of_the_selected(pilot)
        facts = dict(detail.facts())
        assert facts["profile"] == "—" and facts["ended"].startswith("not known")
        assert detail.query_one("#session-no-runs", Static).display


async def test_an_ended_session_shows_the_reason_the_service_gives(
    app: WdsApp, client: WdsClient, emulator: Emulator
) -> None:
    created = await client.browser.create(ttl=600)
    await close_sessions(emulator, RESTARTED)  # what a restart on a state file says of a session it cannot reopen
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        detail = await detail_of_the_selected(pilot)
        facts = dict(detail.facts())
        assert facts["id"] == created.id and facts["reason"] == "the emulator restarted"
        assert "the emulator restarted" in str(detail.query_one("#session-reason", Label).render())
