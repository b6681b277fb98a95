"""Each list that shows full URLs passes them on as links: activity and failed-job targets, crawls, batch rows, map links.

How a linked cell is drawn (a link where the app has links on, text
elsewhere, the whole URL when cut) is tests/ui/test_table_links.py's; here,
that each list hands its URL to the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from tests.support.dashboard import (
    NOW,
    SwitchableTransport,
    client_on,
    dashboard,
    emulator_service,
    seeded_emulator,
    settle,
)
from tui.api.client import WdsClient
from tui.contract.models import ActivityEntry
from tui.dashboard.features.activity.rows import table_row
from tui.dashboard.features.batch.status import url_rows
from tui.dashboard.features.crawls.rows import job_row
from tui.dashboard.features.crawls.tracker import TrackedJob
from tui.dashboard.features.map.links import LinkList
from tui.dashboard.features.map.links_table import LinksTable
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.startup.app_factory import make_app
from tui.emulator.core.clock import ManualClock

URL = "https://acme-outdoor.com/guides/waterproofing-your-boots-after-a-season"


def link_of(cell: object) -> str | None:
    return cell.style.link if isinstance(cell, Text) and not isinstance(cell.style, str) else None


def test_an_activity_or_failed_job_row_links_its_target_and_a_query_stays_text() -> None:
    scrape = ActivityEntry(id="job-1", endpoint="scrape", created_at=NOW, target=URL)
    cell = table_row(scrape, NOW, None)[4]
    assert link_of(cell) == URL and str(cell) == URL.removeprefix("https://")  # shown bare, links whole
    search = ActivityEntry(id="job-2", endpoint="search", created_at=NOW, target="waterproof boots")
    assert table_row(search, NOW, None)[4] == "waterproof boots"  # not a web address: no link


def test_a_crawl_row_links_its_url() -> None:
    _, cells = job_row(TrackedJob("crawl", "crawl-1", "active list", url=URL), NOW)
    assert link_of(cells[2]) == URL


def test_a_batch_row_of_the_crawls_pane_links_its_first_url() -> None:
    _, cells = job_row(TrackedJob("batch_scrape", "batch-1", "activity", url=URL), NOW)
    assert link_of(cells[2]) == URL and str(cells[2]).endswith("· batch")


async def test_a_batch_row_links_its_url(client: WdsClient, clock: ManualClock) -> None:
    started = await client.batch.create([URL])
    clock.advance(3600)
    status = await client.batch.get(started.id)
    assert [link_of(cells[2]) for _, cells in url_rows(status)] == [URL]


@dataclass(frozen=True)
class FakeLink:
    url: str
    title: str | None
    description: str | None


class MapApp(App[None]):
    hyperlinks = True  # what WdsApp takes from its navigator

    def compose(self) -> ComposeResult:
        yield LinksTable(LinkList([FakeLink(URL + "/" + "x" * 80, "Boots", None)]), width=80)


async def test_a_map_link_cut_to_its_column_links_the_whole_url() -> None:
    app = MapApp()
    async with app.run_test(size=(80, 6)) as pilot:
        await pilot.pause()
        row = list(app.query_one(LinksTable).render_line(1))
        assert "…" in "".join(segment.text for segment in row)
        assert {segment.style.link for segment in row if segment.style and segment.style.link} == {URL + "/" + "x" * 80}


@pytest.mark.parametrize(
    ("environ", "hyperlinks"),
    [({"TERM": "xterm-256color"}, True), ({"TERM": "dumb"}, False), ({"TERM": "xterm", "WDS_HYPERLINKS": "0"}, False)],
)
def test_the_dashboard_takes_its_links_from_the_terminal_once(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], hyperlinks: bool
) -> None:
    monkeypatch.delenv("WDS_HYPERLINKS", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    app = make_app(client_on(SwitchableTransport(seeded_emulator())), emulator_service())
    assert app.hyperlinks is hyperlinks and app.navigator.hyperlinks is hyperlinks


async def test_the_activity_pane_draws_its_targets_as_links_on_the_dashboard() -> None:
    app = dashboard(seeded_emulator(), hyperlinks=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.query_one("#activity", Pane).query_one(LiveTable)
        drawn = {seg.style.link for y in range(1, table.size.height) for seg in table.render_line(y) if seg.style}
        assert any(link and link.startswith("https://") for link in drawn)
