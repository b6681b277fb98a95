"""Make the README's pictures from the app itself (harlequin's export_screenshots habit).

    python screenshots/make_screenshots.py

Runs a seeded emulator on a loopback socket (with a real Chromium when one is
found, so the console's CDP panel is live), gives it a little traffic, drives
the dashboard headless at 120x40 and saves SVG screenshots beside this file.
Name pictures to make only those (`python screenshots/make_screenshots.py
dashboard capacity`); without names, all of them (`PICTURES`).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import TextArea

from tui.api.client import WdsClient
from tui.contract.models.browser import BrowserSessionCreated
from tui.contract.redact import mask_key
from tui.dashboard.features.activity.failed_view import FailedJobsScreen
from tui.dashboard.features.activity.rows import ActivityTable
from tui.dashboard.features.activity.triage import TriageScreen
from tui.dashboard.features.console.cdp_panel import CdpStatusPanel
from tui.dashboard.features.console.history import ConsoleTarget
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.features.support.answer import SupportAnswerView
from tui.dashboard.features.support.ask import AskSupportScreen
from tui.dashboard.features.usage.capacity_line import CapacityLine
from tui.dashboard.kit.pane import Pane
from tui.dashboard.shell.service_info import ServiceInfo
from tui.dashboard.startup.app_factory import make_app
from tui.emulator.browser.chromium import browser_backend_from_environment
from tui.emulator.server import running
from tui.emulator.service import Emulator

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the served page's driver lives with the browser tests
KEY = "wds-" + "5c" * 16
SIZE = (120, 40)
SITE = "https://northwind.dev"
PICTURES = ("dashboard", "capacity", "triage", "history", "console", "failed_jobs", "ask_support", "alerts", "web")
LOW_CREDITS_SHARE = 0.06
"""Credits the team is left with for the capacity picture, as a share of this month's use: under a tenth of its plan,
so the line shows "⚠ low" beside "⚠ saturated"."""
MISSING = (
    (50, "product/11"),
    (44, "old-pricing"),
    (37, "product/12"),
    (29, "gone/3141"),
    (21, "old-pricing"),
    (12, "product/13"),
    (4, "product/14"),
    (2, "gone/2718"),
)
"""(minutes ago, a page acme-outdoor.com does not have): 404s on three paths over the last hour, for the triage."""


class RewoundClock:
    """The emulator's clock: real time, set back while the script makes the last hour's failures."""

    def __init__(self, back: timedelta) -> None:
        self.back = back

    def now(self) -> datetime:
        return datetime.now(UTC) - self.back


async def until(pilot: Pilot, predicate, seconds: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.1)):
        if predicate():
            return
        await pilot.pause(0.1)
    raise TimeoutError("the picture never got ready")


async def main(wanted: set[str]) -> None:
    clock = RewoundClock(timedelta(minutes=MISSING[0][0]))  # the seeded history ends before the failures
    emulator = Emulator.from_keys(
        {"ops": [KEY]}, seed=7, browser_backend=browser_backend_from_environment(), clock=clock
    )
    async with running(emulator) as base_url:
        async with WdsClient(base_url, KEY) as setup:
            for minutes, path in MISSING:
                clock.back = timedelta(minutes=minutes)
                await setup.scrape.create(url=f"https://acme-outdoor.com/{path}")
            clock.back = timedelta(0)
            await setup.crawl.start(f"{SITE}/", limit=40, max_depth=3, include_paths=["/blog/.*"])
            await setup.crawl.start("https://acme-outdoor.com/", limit=25, scrape_options={"formats": ["markdown", "links"]})
            session = await setup.browser.create(ttl=900, activity_ttl=300)
        client = WdsClient(base_url, KEY)
        service = ServiceInfo(host=base_url.removeprefix("http://"), masked_key=mask_key(KEY), embedded=True)
        app = make_app(client, service)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: all(p.data is not None for p in app.query(Pane)))
            line = app.query_one(CapacityLine)
            await until(pilot, lambda: line.data is not None)
            await pilot.pause(0.5)
            if "dashboard" in wanted:
                app.save_screenshot("dashboard.svg", str(HERE))
            if "capacity" in wanted:
                await capacity_picture(pilot, emulator, line)
            if "triage" in wanted:
                await triage_picture(pilot)
            if "history" in wanted:
                await history_picture(pilot)
            if "console" in wanted:
                await console_picture(pilot, session)
            if {"failed_jobs", "ask_support"} & wanted:
                await diagnosis_pictures(pilot, wanted)
        if "alerts" in wanted:
            await alerts_picture(base_url, service)
        if "web" in wanted:
            await web_picture(base_url)
    print(f"wrote {', '.join(name for name in PICTURES if name in wanted)} in {HERE}")


async def capacity_picture(pilot: Pilot, emulator: Emulator, line: CapacityLine) -> None:
    """The usage pane zoomed (3 z): its capacity line with the crawls' queue saturated and credits run low."""
    app = pilot.app
    team = emulator.team_by_key(KEY)
    assert team is not None and line.data is not None and line.data.credits is not None
    balance = line.data.credits
    used = (balance.plan_credits or 0) - balance.remaining_credits
    team.credits_remaining = int(used * LOW_CREDITS_SHARE)
    await pilot.press("3", "z")
    line.refresh_data()
    await until(pilot, lambda: line.data is not None and line.data.credits_low and line.data.saturated)
    await pilot.pause(0.5)
    app.save_screenshot("capacity.svg", str(HERE))
    await pilot.press("z")


async def triage_picture(pilot: Pilot) -> None:
    """The last hour's failures grouped by cause (t twice: 24 h -> 15 min -> 1 h)."""
    app = pilot.app
    await pilot.press("2", "t", "t", "c")
    await until(
        pilot,
        lambda: isinstance(app.screen, TriageScreen) and app.screen.walk.state.finished and not app.screen.walking,
        60,
    )
    await pilot.pause(0.5)
    app.save_screenshot("triage.svg", str(HERE))
    await pilot.press("escape", "t", "t")  # back on the pane, at 24 h again
    await pilot.pause(0.5)


async def history_picture(pilot: Pilot) -> None:
    """The history screen (H) over a journal of 30 seeded days (the history tests' month), on its calls tab."""
    from tests.ui.history_seed import HISTORY_NOW, seeded_journal
    from tui.dashboard.features.history.journal_state import JournalState
    from tui.dashboard.features.history.screen import HistoryScreen

    app = pilot.app
    with tempfile.TemporaryDirectory() as folder:
        journal = await seeded_journal(Path(folder) / "ops.sqlite3")
        screen = HistoryScreen(JournalState.given(journal), now=lambda: HISTORY_NOW)
        app.push_screen(screen)
        await until(pilot, lambda: screen.figures is not None and bool(screen.query("ChartBars")))
        await pilot.pause(0.5)
        app.save_screenshot("history.svg", str(HERE))
        app.pop_screen()
        await journal.aclose()


async def console_picture(pilot: Pilot, session: BrowserSessionCreated) -> None:
    """The execute console on the browser session, a page opened and its title asked."""
    app = pilot.app
    target = ConsoleTarget.for_session(session)
    app.push_screen(ConsoleScreen(app.client, target, clock=app.clock))
    await pilot.pause(0.5)
    editor = app.screen.query_one(TextArea)
    editor.text = f'await page.goto("{SITE}/blog");\nawait page.title()'
    await pilot.press("ctrl+r")
    panel = app.screen.query_one(CdpStatusPanel)
    await until(pilot, lambda: any("Blog" in (page.title or "") for page in panel.pages))
    for widget in app.screen.query("TextArea, Input"):
        widget.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause(1.0)
    app.save_screenshot("console.svg", str(HERE))
    app.pop_screen()


async def diagnosis_pictures(pilot: Pilot, wanted: set[str]) -> None:
    """The failed jobs of the day, then the support agent asked about one."""
    app = pilot.app
    await pilot.press("2", "e")
    await until(pilot, lambda: isinstance(app.screen, FailedJobsScreen) and not app.screen.walking, 60)
    table = app.screen.query_one(ActivityTable)
    scrapes = [i for i, key in enumerate(table.row_keys) if "HTTP" in str(table.get_row(key)[2])]
    table.move_cursor(row=scrapes[0] if scrapes else 0)
    await pilot.pause(0.5)
    if "failed_jobs" in wanted:
        app.save_screenshot("failed_jobs.svg", str(HERE))
    if "ask_support" not in wanted:
        return
    await pilot.press("a")
    await until(pilot, lambda: isinstance(app.screen, AskSupportScreen))
    await pilot.press("ctrl+s")
    answer = app.screen.query_one("#answer", SupportAnswerView)
    await until(pilot, lambda: answer.record is not None and answer.record.state != "asking", 90)
    await pilot.pause(1.0)
    answer.focus()  # no blinking cursor in the picture
    await pilot.pause(0.5)
    app.save_screenshot("ask_support.svg", str(HERE))


async def alerts_picture(base_url: str, service: ServiceInfo) -> None:
    """The alerts screen (A) of a dashboard with monitoring on: the last hour's 404s fire job_failed, credits too."""
    from tui.dashboard.features.alerts.screen import AlertsScreen
    from tui.monitor.settings import read_monitor_settings

    settings, _ = read_monitor_settings({"credits": {"min_remaining_percent": 99}}, None)
    with tempfile.TemporaryDirectory() as journal:  # the user's own journal is not written
        app = make_app(WdsClient(base_url, KEY), service, monitoring=settings, journal_dir=Path(journal))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.monitor is not None and len(app.monitor.engine.firing()) >= 2, 60)
            await pilot.pause(1.0)
            app.clear_notifications()  # the toasts said it already: the picture shows the screen
            await pilot.press("A")
            await until(pilot, lambda: isinstance(app.screen, AlertsScreen))
            await pilot.pause(0.5)
            app.save_screenshot("alerts.svg", str(HERE))


async def web_picture(base_url: str) -> None:
    """The dashboard served as a web page (`wds-tui serve`), in headless Chromium."""
    from tests.browser.served_page import served_dashboard, served_page
    from tui.emulator.browser.locate import find_chromium

    with tempfile.TemporaryDirectory() as home:
        environment = {"PATH": os.environ.get("PATH", ""), "HOME": home, "WDS_CONFIG": f"{home}/none.toml",
                       "WDS_BASE_URL": base_url, "WDS_API_KEY": KEY}
        with served_dashboard(environment, Path(home) / "serve.log") as url:
            async with served_page(url, find_chromium(), width=1200, height=780) as shown:
                await shown.wait_for("Team activity", "Token usage", "connected")
                await asyncio.sleep(3.0)  # the status column and the usage chart fill in
                await shown.page.screenshot(path=str(HERE / "web.png"))


if __name__ == "__main__":
    unknown = sorted(set(sys.argv[1:]) - set(PICTURES))
    if unknown:
        sys.exit(f"no such picture: {', '.join(unknown)} (there are: {', '.join(PICTURES)})")
    asyncio.run(main(set(sys.argv[1:]) or set(PICTURES)))
