"""Nothing fails silently: an unexpected exception (a bug of ours) in any worker is said on screen and notified.

Each test makes one client call raise `RuntimeError`, as a bug would, in a
place where such an exception used to vanish: creating and deleting a
session, loading a job, following a crawl (whose polling must go on), and
watching a session's CDP socket.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.support.dashboard import SwitchableTransport, dashboard, open_pane, seeded_emulator, settle, wait_until
from tests.support.recording_backend import RecordingBackend
from tui.api.cdp import CdpClient
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.console.cdp_panel import CdpStatusPanel
from tui.dashboard.features.console.history import ConsoleTarget
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.features.crawls.pane import CrawlsPane
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.shell.app import WdsApp
from tui.emulator.service import Emulator

BUG = "boom: a bug planted by the test"


def boom(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError(BUG)


async def raising(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError(BUG)


def error_notes(app: WdsApp) -> list[str]:
    return [f"{n.title} {n.message}" for n in app._notifications if n.severity == "error"]


def notified(app: WdsApp) -> bool:
    return any("RuntimeError" in note and BUG in note for note in error_notes(app))


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    emulator = seeded_emulator(browser_backend=RecordingBackend())
    yield emulator
    await emulator.aclose()


@pytest.fixture
def app(emulator: Emulator, transport: SwitchableTransport) -> WdsApp:
    return dashboard(emulator, transport)


async def test_a_bug_while_creating_a_session_is_notified_and_the_form_keeps_what_was_typed(
    app: WdsApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pane(pilot, SessionsPane)
        monkeypatch.setattr(app.client.browser, "create", raising)
        await pilot.press("c", "1", "2", "0", "enter")
        await wait_until(pilot, lambda: notified(app), "the notification")
        form = app.screen
        assert isinstance(form, SessionFormScreen), "the form stays open"
        assert form.query_one("#ttl", Input).value == "120"
        assert any("SessionFormScreen.create" in note for note in error_notes(app))


async def test_a_bug_while_deleting_a_session_is_notified(app: WdsApp, monkeypatch: pytest.MonkeyPatch) -> None:
    created = await app.client.browser.create(ttl=600)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        assert pane.selected_session() is not None and pane.selected_session().id == created.id  # type: ignore[union-attr]
        monkeypatch.setattr(app.client.browser, "delete", raising)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: notified(app), "the notification")
        assert any("SessionsPane.delete_session" in note for note in error_notes(app))


async def test_a_bug_while_loading_a_job_is_said_in_place_and_notified(
    app: WdsApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        scrape = await app.client.scrape.create("https://northwind.dev/blog")
        monkeypatch.setattr(app.client.jobs, "get", raising)
        screen = JobDetailScreen(app.client, "scrape", scrape.job_id)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: notified(app), "the notification")
        notice = str(screen.query_one("#job-notice", Static).render())
        assert "RuntimeError" in notice and BUG in notice


async def test_a_bug_while_following_a_crawl_is_shown_and_polling_goes_on(
    app: WdsApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        started = await app.client.crawl.start("https://northwind.dev/", limit=3)
        real_get = app.client.crawl.get
        monkeypatch.setattr(app.client.crawl, "get", raising)
        screen = CrawlStatusScreen(app.client, started.id, clock=app.clock, interval=0.05)
        await app.push_screen(screen)
        error = screen.query_one("#crawl-error", Static)
        await wait_until(pilot, lambda: bool(error.display), "the error line")
        assert "RuntimeError" in str(error.render()) and BUG in str(error.render())

        monkeypatch.setattr(app.client.crawl, "get", real_get)  # the bug goes away: the next poll recovers
        await wait_until(pilot, lambda: screen.status is not None and not error.display, "recovery")


async def test_a_bug_in_a_pane_s_poll_marks_it_stale_and_polling_goes_on(
    app: WdsApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, CrawlsPane)
        real_active = app.client.crawl.active
        failed_polls = 0

        async def raising_counted() -> Any:
            nonlocal failed_polls
            failed_polls += 1
            return await raising()

        monkeypatch.setattr(app.client.crawl, "active", raising_counted)
        pane.interval = 0.05
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.stale_since is not None, "the stale mark")
        assert pane.failure is not None and "RuntimeError" in pane.failure and "a bug in wds-tui" in pane.failure
        await wait_until(pilot, lambda: failed_polls >= 4, "a few more failing polls")
        assert pane.stale_since is not None
        monkeypatch.setattr(app.client.crawl, "active", real_active)  # the loop is still alive: it recovers
        await wait_until(pilot, lambda: pane.stale_since is None, "recovery")


async def test_a_bug_while_watching_the_cdp_socket_is_shown_and_notified(
    app: WdsApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(CdpClient, "start", boom)
        target = ConsoleTarget("session", "s-1", "ws://127.0.0.1:9/cdp/s-1", "Execute console · browser session s-1")
        screen = ConsoleScreen(app.client, target, clock=app.clock)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: notified(app), "the notification")
        panel = screen.query_one(CdpStatusPanel)
        state = str(panel.query_one("#cdp-state", Static).render())
        reason = str(panel.query_one("#cdp-reason", Static).render())
        assert "stopped by an error" in state and BUG in reason
        assert any("CdpStatusPanel._watch" in note for note in error_notes(app))
