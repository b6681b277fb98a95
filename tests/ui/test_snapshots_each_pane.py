"""Each pane maximised with data of its own, and the crawl status screen, at both sizes.

`test_snapshots.py` has the main screen, its error states and the other
screens; these are the pictures of what a person sees after zooming into one
pane, at 120x40 and 80x24, on a seeded emulator with a frozen clock.
Update with `pytest tests/ui/test_snapshots_each_pane.py --snapshot-update`.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import NOW, dashboard, freeze_cursors, seeded_emulator, wait_until
from tests.support.recording_backend import RecordingBackend
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.crawls.pane import CrawlsPane
from tui.dashboard.features.crawls.status import CrawlStatusScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.kit.pane import Pane
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

SIZES = [(120, 40), (80, 24)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


async def loaded(pilot: Pilot) -> None:
    """Every pane has its data and the picture does not depend on a blinking cursor."""
    await wait_until(pilot, lambda: all(p.data is not None for p in pilot.app.query(Pane)), "all panes")
    await wait_until(pilot, lambda: not any(p.checking_statuses for p in pilot.app.query(ActivityPane)), "statuses")
    await pilot.pause()
    freeze_cursors(pilot.app)
    await pilot.pause()


async def zoom(pilot: Pilot, pane_id: str) -> None:
    pane = pilot.app.query_one(f"#{pane_id}", Pane)
    pane.action_toggle_maximize()
    pane.focus_first()
    await pilot.pause()
    await wait_until(pilot, lambda: not any(p.checking_statuses for p in pilot.app.query(ActivityPane)), "statuses")
    freeze_cursors(pilot.app)
    await pilot.pause()


def with_a_clock() -> tuple[Emulator, ManualClock]:
    """A seeded emulator and the clock that moves its jobs along."""
    clock = ManualClock(NOW)
    return seeded_emulator(clock=clock), clock


@size_ids
def test_crawls_pane_maximised_with_a_running_crawl(snap_compare, size) -> None:
    emulator, clock = with_a_clock()

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        await pilot.app.client.crawl.start("https://northwind.dev/", limit=40, max_depth=3, include_paths=["/blog/.*"])
        clock.advance(2)
        pane = pilot.app.query_one(CrawlsPane)
        pane.refresh_data()
        await wait_until(pilot, lambda: bool(pane.data), "the running crawl")
        await zoom(pilot, "crawls")

    assert snap_compare(dashboard(emulator), terminal_size=size, run_before=run)


@size_ids
def test_crawl_status_screen_part_way(snap_compare, size) -> None:
    emulator, clock = with_a_clock()

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        app = pilot.app
        started = await app.client.crawl.start("https://northwind.dev/", limit=12)
        clock.advance(4)  # some pages scraped, more to come
        app.push_screen(CrawlStatusScreen(app.client, started.id, url="https://northwind.dev/", clock=app.clock))
        await wait_until(pilot, lambda: app.screen.status is not None, "the crawl's status")
        await pilot.pause()

    assert snap_compare(dashboard(emulator), terminal_size=size, run_before=run)


@size_ids
def test_activity_pane_maximised(snap_compare, size) -> None:
    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        await zoom(pilot, "activity")

    assert snap_compare(dashboard(seeded_emulator()), terminal_size=size, run_before=run)


@size_ids
def test_sessions_pane_maximised_with_an_active_and_a_destroyed_session(snap_compare, size) -> None:
    emulator = seeded_emulator(browser_backend=RecordingBackend())

    async def run(pilot: Pilot) -> None:
        await loaded(pilot)
        client = pilot.app.client
        await client.browser.create(ttl=900, activity_ttl=120, stream_web_view=True)
        gone = await client.browser.create(ttl=300)
        await client.browser.delete(gone.id)
        pane = pilot.app.query_one(SessionsPane)
        pane.refresh_data()
        await wait_until(pilot, lambda: pane.data is not None and len(pane.data.sessions) == 2, "both sessions")
        await zoom(pilot, "sessions")

    assert snap_compare(dashboard(emulator), terminal_size=size, run_before=run)
