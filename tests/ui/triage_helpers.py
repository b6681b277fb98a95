"""Failures made on the emulator for the window, triage and export tests: 404s on three paths, spread over an hour.

`produce_failures` scrapes, through our client, pages the emulator's sites do
not have, each at its own time on the emulator's clock, with two good pages
among them; it leaves the clock at END. The seeded history ends before NOW,
so the last hour before END holds these scrapes only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from textual.pilot import Pilot

from tests.support.dashboard import NOW, PaneHost, frozen_clock, wait_until
from tui.api.client import WdsClient
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock

END = NOW + timedelta(hours=1)

PLAN: tuple[tuple[int, str], ...] = (
    (55, "https://fernwood.co/gone/1234567"),
    (50, "https://acme-outdoor.com/product/11"),
    (40, "https://acme-outdoor.com/product/12"),
    (30, "https://acme-outdoor.com/old-pricing"),
    (25, "https://acme-outdoor.com/"),
    (20, "https://acme-outdoor.com/old-pricing"),
    (10, "https://acme-outdoor.com/product/13"),
    (8, "https://acme-outdoor.com/old-pricing"),
    (6, "https://fernwood.co/"),
    (5, "https://acme-outdoor.com/product/14"),
    (2, "https://fernwood.co/gone/7654321"),
)
"""(minutes before END, URL scraped then). The home pages answer 200; every other path 404."""

GOOD = {"https://acme-outdoor.com/", "https://fernwood.co/"}

PATTERNS = {
    "/gone/": ("fernwood.co", "/gone/{n}"),
    "/product/": ("acme-outdoor.com", "/product/{n}"),
    "/old-pricing": ("acme-outdoor.com", "/old-pricing"),
}
"""What the triage should make of each failing path: its host and its path pattern."""


@dataclass(frozen=True)
class Made:
    """One scrape made: when, what URL, the job's id, and whether it failed."""

    at: datetime
    url: str
    job_id: str
    failed: bool


async def produce_failures(client: WdsClient, clock: ManualClock) -> list[Made]:
    """Scrape the PLAN's URLs at their times; the clock is left at END."""
    made = []
    for minutes, url in PLAN:
        clock.set(END - timedelta(minutes=minutes))
        result = await client.scrape.create(url=url)
        assert result.data is not None and result.data.metadata.scrape_id
        failed = url not in GOOD
        assert (result.data.metadata.status_code == 404) == failed, url
        made.append(Made(clock.now(), url, result.data.metadata.scrape_id, failed))
    clock.set(END)
    return made


def expected_groups(made: list[Made], since: datetime) -> dict[tuple[str, str], list[Made]]:
    """(host, path pattern) -> the failures made since `since`, newest first."""
    groups: dict[tuple[str, str], list[Made]] = {}
    for each in made:
        if each.failed and each.at >= since:
            part = next(part for part in PATTERNS if part in each.url)
            groups.setdefault(PATTERNS[part], []).append(each)
    return {key: sorted(jobs, key=lambda m: m.at, reverse=True) for key, jobs in groups.items()}


def window_host(client: WdsClient) -> PaneHost:
    """The activity pane alone on a clock at END, opening every screen asked for as the dashboard does."""
    clock = frozen_clock(END)
    return PaneHost(
        lambda: ActivityPane(client, interval=3600, clock=clock, id="activity"),
        navigator=Navigator(client, clock=clock),
    )


async def pane_ready(pilot: Pilot) -> ActivityPane:
    """The pane once its first page is shown, focused."""
    pane = pilot.app.query_one(ActivityPane)
    await wait_until(pilot, lambda: pane._is_current(pane.data), "the activity page")
    pane.focus_first()
    await pilot.pause()
    return pane


async def press_window(pilot: Pilot, pane: ActivityPane, text: str) -> None:
    """Press t until the pane shows the window `text` ("15 min", "1 h", ...) and its entries are in."""
    for _ in range(4):
        if str(pane.border_title).endswith(f"last {text}"):
            break
        await pilot.press("t")
    assert str(pane.border_title) == f"Team activity · last {text}"
    await wait_until(pilot, lambda: pane._is_current(pane.data), f"the {text} window")
    await pilot.pause()
