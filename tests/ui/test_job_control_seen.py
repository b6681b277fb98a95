"""A crawl held by the emulator's job control and moved to `failed` looks, to the dashboard, like any failed crawl.

The emulator's admin prefix holds team `ops`'s new crawls; the crawls pane shows
the crawl running with no page while the clock runs, and once the tester moves it
to `failed` the pane's next poll shows it failed and the `crawl_failed` alert fires.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.dashboard import SwitchableTransport, dashboard, open_pane, wait_until
from tests.support.emulator_teams import client_for
from tests.ui.alerts_helpers import firing, rules
from tui.api.client import WdsClient
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator


async def test_a_manual_crawl_moved_to_failed_shows_failed_and_fires_crawl_failed(
    tmp_path: Path, client: WdsClient, clock: ManualClock, emulator: Emulator, transport: SwitchableTransport
) -> None:
    admin = {"Authorization": f"Bearer {emulator.admin_token}"}
    async with client_for(emulator) as http:
        held = await http.put("/_emulator/teams/ops/progression", json={"mode": "manual"}, headers=admin)
        assert held.status_code == 200, held.text
        started = await client.crawl.start("https://acme-outdoor.com/", limit=12)
        clock.advance(120)  # on the clock, 12 pages take 6 s
        app = dashboard(emulator, transport, clock=clock.now, monitoring=rules(), journal_dir=tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            pane = await open_pane(pilot, CrawlsPane)
            table = pane.query_one(CrawlTable)

            def pages() -> str:
                return str(table.get_row(started.id)[1]) if started.id in table.row_keys else ""

            await wait_until(pilot, lambda: "0/12" in pages(), "the held crawl's row")
            assert "failed" not in pages() and "completed" not in pages()
            moved = await http.post(
                f"/_emulator/jobs/{started.id}/transition",
                json={"to": "failed", "error": "Proxy pool exhausted."},
                headers=admin,
            )
            assert moved.status_code == 200, moved.text
            pane.refresh_data()
            await wait_until(pilot, lambda: "failed 0/12" in pages(), "the failed row")
            await wait_until(pilot, lambda: bool(firing(app, "crawl_failed")), "the crawl_failed alert")
            [alert] = firing(app, "crawl_failed")
    assert alert.subject == started.id and "failed" in alert.sentence
