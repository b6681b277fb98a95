"""A pane shows the client's timeout as any other failure (issue 9, part 5).

The service is the emulator on a real socket that turns faulty: after a good first answer a
fault rule sends its bodies at a trickle (10 bytes a second, a byte every 0.1 s), which
httpx's per-read timeouts never stop. The pane keeps its data, marks it stale and says it
timed out.
"""

from __future__ import annotations

import time

import pytest

from tests.support.dashboard import KEY, NOW, PaneHost, frozen_clock, wait_until
from tests.support.faulty_emulator import faulty_emulator
from tui.api.client import WdsClient
from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.kit.pane import PaneStatus

pytestmark = pytest.mark.socket


@pytest.mark.serial  # a timeout on the wall clock
async def test_a_trickling_service_shows_as_a_timeout_in_the_pane() -> None:
    with faulty_emulator({"ops": [KEY]}) as (base_url, faults):
        async with WdsClient(base_url, KEY, timeout=1, max_retries=0) as client:
            app = PaneHost(lambda: ActivityPane(client, interval=3600, clock=frozen_clock(NOW), id="activity"))
            async with app.run_test(size=(120, 40)) as pilot:
                pane = app.query_one(ActivityPane)
                await wait_until(pilot, lambda: pane.data is not None, "the first page")
                rule = faults.add(method="GET", path="/v2/team/activity", slow=10)
                started = time.monotonic()
                pane.refresh_data()
                await wait_until(pilot, lambda: pane.stale_since is not None, "the stale mark", seconds=10)
                assert time.monotonic() - started < 5
                assert faults.fired(rule) == 1
                await pilot.pause()
                status = str(pane.query_one(PaneStatus).content)
                assert "stale since" in status
                assert "The service did not answer in time" in status and "within the call's 1 s" in status
