"""At 80x24 and 120x40 every pane's table fits its width: columns give way in order, nothing scrolls sideways."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tests.support.recording_backend import RecordingBackend
from tests.ui.test_snapshots import all_panes_loaded
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.kit.widgets.live_table import LiveTable


async def with_two_sessions(pilot: Pilot) -> None:
    await all_panes_loaded(pilot)
    client = pilot.app.client
    await client.browser.create(ttl=900, stream_web_view=True)
    gone = await client.browser.create(ttl=300)
    await client.browser.delete(gone.id)
    pane = pilot.app.query_one(SessionsPane)
    pane.refresh_data()
    await wait_until(pilot, lambda: pane.data is not None and len(pane.data.sessions) == 2, "both sessions")
    await pilot.pause()


def headers(table: LiveTable) -> list[str]:
    return [column.key for column in table.ordered_columns]


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (200, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_no_pane_scrolls_sideways(size: tuple[int, int]) -> None:
    app = dashboard(seeded_emulator(browser_backend=RecordingBackend()))
    async with app.run_test(size=size) as pilot:
        await with_two_sessions(pilot)
        for table in app.query(LiveTable):
            assert not table.show_horizontal_scrollbar, table.id
            assert table.virtual_size.width <= table.scrollable_content_region.width, table.id
        activity = app.query_one(ActivityPane).query_one(LiveTable)
        assert "target" in headers(activity)  # the column that says most stays, cut in the middle
        sessions = app.query_one(SessionsPane).query_one(LiveTable)
        assert headers(sessions)[:3] == ["ID", "Status", "Ends"]


async def test_zoom_shows_every_column_whole_at_120_columns() -> None:
    app = dashboard(seeded_emulator(browser_backend=RecordingBackend()))
    async with app.run_test(size=(120, 40)) as pilot:
        await with_two_sessions(pilot)
        pane = app.query_one(SessionsPane)
        table = pane.query_one(LiveTable)
        assert "Live view" not in headers(table)  # the grid's quarter has no room for it
        pane.focus_first()
        await pilot.press("z")
        await pilot.pause()
        await pilot.pause()
        assert headers(table) == ["ID", "Status", "Ends", "Profile", "Created", "Last activity", "Live view"]
        links = [str(table.get_row(key)[-1]) for key in table.row_keys]
        assert all("…" not in link and link.startswith("emulator.test/live/") for link in links)
        assert not table.show_horizontal_scrollbar
