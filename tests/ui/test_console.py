"""The execute console, driven with Pilot against the emulator.

Most tests run the emulator in process with a recording browser backend (no
Chromium), so they are fast and deterministic. The tests marked `browser` use
a real Chromium behind the emulator served on a loopback socket, because the
CDP panel needs a real websocket; they skip when no browser is installed.
Nothing here leaves 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual import on
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, OptionList, Select, Static, TextArea

from tests.support.browser_pages import ORIGIN, PagesBackend
from tests.support.dashboard import KEY, seeded_emulator
from tests.support.recording_backend import RecordingBackend
from tui.api.cdp import ConnectionState
from tui.api.client import WdsClient
from tui.contract.requests import ScrapeRequest
from tui.dashboard.features.console.cdp_panel import (
    CdpStatusPanel,
    about_browser_ui,
    latency_moved,
    latency_text,
    summarize_params,
)
from tui.dashboard.features.console.highlighting import highlighting_available
from tui.dashboard.features.console.history import ConsoleHistories, ConsoleTarget, RunHistory, RunSpec
from tui.dashboard.features.console.output import RunOutput
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.shell.intents import Intent
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.browser.backend import BrowserHandle, BrowserUnavailable, ExecutionOutcome
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator

START = datetime(2026, 7, 15, 12, 0, tzinfo=UTC)
NODE_CODE = "console.log('hello')\n6 * 7"


@dataclass
class GatedBackend(RecordingBackend):
    """A recording backend whose executions wait until `gate` is set (for in-flight tests)."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)

    async def execute(self, handle: BrowserHandle, code: str, language: str, timeout: float) -> ExecutionOutcome:
        await self.gate.wait()
        return await super().execute(handle, code, language, timeout)


class ConsoleApp(App[None]):
    """The smallest host for the screen: it pushes the console, and answers its intents as the dashboard does."""

    def __init__(self, screen: ConsoleScreen) -> None:
        super().__init__()
        self.console_screen = screen
        self.navigator = Navigator(screen.client)

    def on_mount(self) -> None:
        self.push_screen(self.console_screen)

    @on(Intent)
    def _navigate(self, intent: Intent) -> None:
        self.push_screen(self.navigator.screen_for(intent), self.navigator.when_answered(intent))


# --- helpers ---------------------------------------------------------------------------


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


async def run_and_wait(pilot: Pilot[Any], screen: ConsoleScreen, timeout: float = 60.0) -> None:
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: not screen.running, "the run to end", timeout)
    await pilot.pause()


def text_of(screen: ConsoleScreen, selector: str) -> str:
    widget = screen.query_one(selector, Static)
    return str(widget.render()) if widget.display else ""


def editor(screen: ConsoleScreen, selector: str = "#editor") -> TextArea:
    return screen.query_one(selector, TextArea)


# --- the in-process emulator (recording backend) -----------------------------------------


@pytest.fixture
def backend() -> GatedBackend:
    backend = GatedBackend()
    backend.gate.set()
    return backend


@pytest.fixture
async def emulator(backend: GatedBackend) -> AsyncIterator[Emulator]:
    # `client` (tests/ui/conftest.py) is our client on this emulator.
    emulator = seeded_emulator(seed=5, clock=ManualClock(START), browser_backend=backend, history=False)
    yield emulator
    await emulator.aclose()


async def session_target(client: WdsClient) -> ConsoleTarget:
    created = await client.browser.create(ttl=600)
    # Its cdpUrl points at emulator.test, which only exists inside the ASGI transport.
    return replace(ConsoleTarget.for_session(created), cdp_url=None)


def scrape_job(emulator: Emulator, url: str) -> str:
    team = emulator.team_by_key(KEY)
    assert team is not None and emulator.jobs is not None
    return emulator.jobs.create_scrape(Caller(team, KEY), ScrapeRequest(url=url)).id


def console(client: WdsClient, target: ConsoleTarget, history: RunHistory | None = None) -> ConsoleScreen:
    return ConsoleScreen(client, target, clock=lambda: START, history=history, timer=iter(range(0, 10_000, 2)).__next__)


async def test_a_run_shows_each_part_of_the_answer(client: WdsClient, backend: GatedBackend) -> None:
    screen = console(client, await session_target(client))
    backend.script(ExecutionOutcome("hello\n", "a warning\n", 0, False, None, "42"))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        editor(screen).text = NODE_CODE
        await run_and_wait(pilot, screen)

        output = screen.query_one(RunOutput)
        assert output.part_text("stdout") == "hello"
        assert output.part_text("result") == "42"
        assert output.part_text("stderr") == "a warning"
        assert output.part_text("failure") is None and output.part_text("error") is None
        assert output.part_text("output") is None, "only interact prompts have an AI answer"
        assert output.summary == "✓ succeeded in 2.00 s · exit code 0 · not killed"
        assert [(c.code, c.language, c.timeout) for c in backend.executions] == [(NODE_CODE, "node", 30)]
        assert editor(screen).text == NODE_CODE, "a successful run leaves the code in the editor too"


async def test_a_failing_program_shows_exit_code_killed_and_error(client: WdsClient, backend: GatedBackend) -> None:
    screen = console(client, await session_target(client))
    backend.script(ExecutionOutcome("", "Traceback ...\n", None, True, "Timed out after 1 s", None))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        editor(screen).text = "while True: pass"
        screen.query_one("#language", Select).value = "python"
        screen.query_one("#timeout", Input).value = "1"
        await run_and_wait(pilot, screen)

        output = screen.query_one(RunOutput)
        assert output.summary.startswith("✗ failed in 2.00 s · exit code — · killed by the timeout")
        assert output.part_text("error") == "Timed out after 1 s"
        assert output.part_text("stderr") == "Traceback ..."
        assert backend.executions[-1].language == "python" and backend.executions[-1].timeout == 1


async def test_timeout_out_of_range_says_so_next_to_the_field_and_sends_nothing(
    client: WdsClient, backend: GatedBackend
) -> None:
    screen = console(client, await session_target(client))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        await pilot.press(*"1+1")
        screen.query_one("#timeout", Input).focus()
        await pilot.press("5", "0", "0")
        assert "1-300" in text_of(screen, "#timeout-error"), "the field says what is wrong while typing"
        await pilot.press("ctrl+r")
        await pilot.pause()

        assert "timeout must be 1-300 seconds, not 500" in text_of(screen, "#timeout-error")
        assert backend.executions == [] and len(screen.history) == 0 and not screen.running
        assert editor(screen).text == "1+1" and screen.query_one("#timeout", Input).value == "500"

        await pilot.press("backspace", "backspace")  # "5": in range again
        assert text_of(screen, "#timeout-error") == ""
        await run_and_wait(pilot, screen)
        assert [(c.code, c.timeout) for c in backend.executions] == [("1+1", 5)]


async def test_an_empty_editor_is_not_sent(client: WdsClient, backend: GatedBackend) -> None:
    screen = console(client, await session_target(client))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")  # offers the example (tests/ui/test_console_keys.py)
        await pilot.press("n")  # declined: the editor stays empty and says why nothing ran
        await pilot.pause()
        assert text_of(screen, "#code-error").startswith("Nothing to run: the editor is empty")
        assert backend.executions == []


async def test_a_destroyed_session_keeps_the_code_and_shows_the_410(client: WdsClient) -> None:
    target = await session_target(client)
    screen = console(client, target)
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        editor(screen).text = NODE_CODE
        await client.browser.delete(target.id)
        await run_and_wait(pilot, screen)

        output = screen.query_one(RunOutput)
        failure = output.part_text("failure")
        assert failure is not None
        assert failure.startswith("Gone\n410 GONE: Browser session has been destroyed.")
        assert "the code is still in the editor" in output.summary
        assert editor(screen).text == NODE_CODE
        assert screen.history.latest is not None and screen.history.latest.state == "call failed"


async def test_history_recalls_and_reruns_an_earlier_run(client: WdsClient, backend: GatedBackend) -> None:
    screen = console(client, await session_target(client))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        editor(screen).text = "first()"
        await run_and_wait(pilot, screen)
        editor(screen).text = "print('second')"
        screen.query_one("#language", Select).value = "python"
        await run_and_wait(pilot, screen)

        history = screen.query_one("#history", OptionList)
        assert [str(history.get_option_at_index(i).prompt) for i in range(2)] == [
            "#2 12:00:00 python ✓ print('second')",
            "#1 12:00:00 node   ✓ first()",
        ]
        editor(screen).insert("\n# unsent", editor(screen).document.end)
        history.focus()
        await pilot.press("down", "enter")
        assert editor(screen).text == "first()"
        assert screen.query_one("#language", Select).value == "node"
        assert screen.focused is editor(screen)
        await pilot.press("ctrl+z")
        assert editor(screen).text == "print('second')\n# unsent", "a recall never destroys what was typed"
        await pilot.press("ctrl+y")

        await pilot.press("f5")  # re-run the highlighted run
        await wait_until(pilot, lambda: len(backend.executions) == 3 and not screen.running, "the re-run")
        assert [(c.code, c.language) for c in backend.executions] == [
            ("first()", "node"),
            ("print('second')", "python"),
            ("first()", "node"),
        ]


async def test_a_run_in_flight_is_not_sent_twice(client: WdsClient, backend: GatedBackend) -> None:
    backend.gate.clear()
    screen = console(client, await session_target(client))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        editor(screen).text = "slow()"
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: len(backend.executions) == 0 and screen.running, "the run to start")
        await pilot.press("ctrl+r", "ctrl+r")
        assert text_of(screen, "#run-state") == "running…"
        assert screen.query_one(RunOutput).summary == "running…"
        backend.gate.set()
        await wait_until(pilot, lambda: not screen.running, "the run to end")
        assert len(backend.executions) == 1 and len(screen.history) == 1
        assert text_of(screen, "#run-state") == ""


async def test_closing_keeps_the_draft_for_the_next_console(client: WdsClient) -> None:
    target = await session_target(client)
    histories = ConsoleHistories()
    first = console(client, target, histories.for_target(target))
    app = ConsoleApp(first)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"unsent")
        await pilot.press("escape")  # one Escape closes the screen, from the editor too
        assert app.screen is not first

        second = console(client, target, histories.for_target(target))
        await app.push_screen(second)
        await pilot.pause()
        assert editor(second).text == "unsent"


async def test_interact_prompt_gets_the_no_model_502_and_stop_asks_first(
    client: WdsClient, emulator: Emulator, backend: GatedBackend
) -> None:
    job_id = scrape_job(emulator, "https://acme-outdoor.com/")
    screen = console(client, ConsoleTarget.for_interact(job_id))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        assert screen.query_one(CdpStatusPanel).state is None, "no CDP URL before the first run"
        await pilot.press("ctrl+g")
        assert screen.mode == "prompt" and screen.query_one("#prompt", TextArea).display
        assert screen.query_one("#language", Select).disabled
        await pilot.press(*"click login")
        await run_and_wait(pilot, screen)

        failure = screen.query_one(RunOutput).part_text("failure")
        assert failure is not None and failure.startswith("Bad gateway\n502 BAD_GATEWAY: AI agent execution failed")
        assert "no AI model" in failure
        assert backend.launches == [] and screen.query_one("#prompt", TextArea).text == "click login"

        await pilot.press("ctrl+t")
        assert isinstance(screen.app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: "could not stop" in screen.query_one(RunOutput).summary, "the stop answer")
        assert "404" in (screen.query_one(RunOutput).part_text("failure") or "")


async def test_session_console_hides_interact_keys(client: WdsClient) -> None:
    screen = console(client, await session_target(client))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t", "ctrl+g")
        assert screen.app.screen is screen and screen.mode == "code"
        assert not screen.query("#prompt") and not screen.query("#mode")


@pytest.mark.parametrize(("installed", "usable"), [("0.25.2", True), ("0.26.1", False), (None, False)])
def test_highlighting_needs_a_tree_sitter_that_textual_8_can_use(
    monkeypatch: pytest.MonkeyPatch, installed: str | None, usable: bool
) -> None:
    def version(name: str) -> str:
        assert name == "tree-sitter"
        if installed is None:
            raise importlib.metadata.PackageNotFoundError(name)
        return installed

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert highlighting_available() is usable


def test_history_is_bounded_and_numbers_runs() -> None:
    history = RunHistory(limit=2)
    for text in ("a", "b", "c"):
        history.start(RunSpec("code", text, "node", None), START)
    assert [run.spec.text for run in history] == ["b", "c"]
    assert history.get(1) is None and history.get(3) is not None and len(history) == 2


def test_latency_and_event_lines_stay_short_and_steady() -> None:
    assert [latency_text(v) for v in (None, 0.4, 3.2, 42.0, 43.0, 251.0)] == [
        "latency —",
        "latency <1 ms",
        "latency 3 ms",
        "latency 40 ms",
        "latency 45 ms",
        "latency 250 ms",
    ]
    assert latency_moved(None, 1.0) and not latency_moved(1.0, 2.9) and latency_moved(1.0, 3.1)
    assert not latency_moved(40.0, 49.0) and latency_moved(40.0, 51.0)
    info = {"targetInfo": {"type": "page", "url": "http://127.0.0.1/a", "title": "A"}}
    assert summarize_params("Target.targetInfoChanged", info) == "page http://127.0.0.1/a “A”"
    assert len(summarize_params("X.y", {"data": "z" * 500})) == 90


def test_chrome_s_own_interface_stays_out_of_the_event_log() -> None:
    assert about_browser_ui({"targetInfo": {"type": "browser_ui", "url": "chrome://newtab-footer/"}})
    assert not about_browser_ui({"targetInfo": {"type": "page", "url": "https://example.com/"}})
    assert not about_browser_ui({"targetId": "ABC"})


# --- a real Chromium behind the emulator on a loopback socket -------------------------------


@pytest.fixture(scope="module")
def site() -> str:
    """The browser tests' web site (`/title/<t>` is a page titled t), which `live`'s browsers see
    through request interception: sandboxed, they reach no loopback page of the host."""
    return ORIGIN


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[tuple[Emulator, WdsClient]]:
    """The emulator with real Chromium sessions, served on a loopback port, and a client on it."""
    from tui.emulator.browser.locate import find_chromium
    from tui.emulator.server import running

    try:
        binary = find_chromium()
    except BrowserUnavailable as exc:
        pytest.skip(f"no Chromium here: {exc}")
    backend = PagesBackend(binary, temp_parent=tmp_path, profiles_dir=tmp_path / "profiles")
    emulator = seeded_emulator(seed=5, clock=ManualClock(START), browser_backend=backend, history=False)
    try:
        async with running(emulator) as base_url, WdsClient(base_url, KEY) as client:
            yield emulator, client
    finally:
        await backend.shutdown()


@contextmanager
def count_refreshes(panel: CdpStatusPanel) -> Iterator[Counter[str]]:
    """Count `refresh()` calls on the panel and everything in it, by widget id (or class name)."""
    counts: Counter[str] = Counter()
    original = Widget.refresh

    def counting(widget: Widget, *args: Any, **kwargs: Any) -> Widget:
        if panel in widget.ancestors_with_self:
            counts[widget.id or type(widget).__name__] += 1
        return original(widget, *args, **kwargs)

    Widget.refresh = counting  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        Widget.refresh = original  # type: ignore[method-assign]


def page_rows(panel: CdpStatusPanel) -> list[list[str]]:
    """The pages as the panel shows them (title, url, state), each also checked in the drawn text."""
    shown = str(panel.query_one("#cdp-pages", Static).render())
    rows = [list(row) for row in panel.page_rows]
    assert all(f"{title} · {state}\n{url}" in shown for title, url, state in rows), shown
    return rows


@pytest.mark.browser
async def test_the_cdp_panel_follows_the_page_the_code_navigated_to(
    live: tuple[Emulator, WdsClient], site: str
) -> None:
    _, client = live
    created = await client.browser.create(ttl=600)
    screen = ConsoleScreen(client, created, clock=lambda: START)
    url = f"{site}/title/Console%20Test"
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        panel = screen.query_one(CdpStatusPanel)
        await wait_until(pilot, lambda: panel.state is ConnectionState.CONNECTED, "the CDP connection")
        editor(screen).text = f"await page.goto('{url}')\nawait page.title()"
        await run_and_wait(pilot, screen)

        output = screen.query_one(RunOutput)
        assert output.part_text("failure") is None and output.part_text("error") is None
        assert output.part_text("result") == "Console Test"
        await wait_until(pilot, lambda: ["Console Test", url, "ready"] in page_rows(panel), "the page in the panel")
        assert text_of(screen, "#cdp-state") == "● connected"
        assert "Chrome/" in text_of(screen, "#cdp-browser")
        assert panel.query_one("#cdp-events").lines, "the event log shows the navigation's CDP events"

        for _ in range(30):  # until a page poll (1 s) passes with nothing redrawn: the navigation's last are in
            with count_refreshes(panel) as refreshed:
                await pilot.pause(1.0)
            if refreshed.keys() <= {"cdp-latency"}:
                break
        with count_refreshes(panel) as refreshed:
            await pilot.pause(3.0)  # three page polls with nothing changing
        # latency may move under load, but is sampled at most once in this window
        assert refreshed.keys() <= {"cdp-latency"} and refreshed["cdp-latency"] <= 1, refreshed
        assert text_of(screen, "#cdp-latency").endswith(" ms")

        await client.browser.delete(created.id)
        await wait_until(pilot, lambda: panel.state is ConnectionState.DESTROYED, "the destroyed state")
        assert text_of(screen, "#cdp-state") == "✕ session destroyed"
        await run_and_wait(pilot, screen)
        assert (output.part_text("failure") or "").startswith("Gone\n410")
        assert editor(screen).text.startswith("await page.goto(")


@pytest.mark.browser
async def test_interact_code_runs_and_stop_destroys_the_session(live: tuple[Emulator, WdsClient], site: str) -> None:
    emulator, client = live
    job_id = scrape_job(emulator, f"{site}/title/Job%20Page")
    screen = ConsoleScreen(client, ConsoleTarget.for_interact(job_id), clock=lambda: START)
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        panel = screen.query_one(CdpStatusPanel)
        editor(screen).text = "await page.title()"
        await run_and_wait(pilot, screen)

        assert screen.query_one(RunOutput).part_text("result") == "Job Page"
        await wait_until(pilot, lambda: panel.state is ConnectionState.CONNECTED, "the CDP connection")
        await wait_until(pilot, lambda: any(row[0] == "Job Page" for row in page_rows(panel)), "the job's page")

        await pilot.press("ctrl+t")
        await pilot.press("y")
        await wait_until(pilot, lambda: panel.state is ConnectionState.DESTROYED, "the destroyed state")
        # The socket can close before the stop's answer is shown: either may come first.
        await wait_until(
            pilot, lambda: screen.query_one(RunOutput).summary == "Browser session stopped", "the stop's answer"
        )
        client_of_panel = panel.client
        await pilot.press("escape", "escape")
        assert client_of_panel is not None and client_of_panel.state.final
