"""Issue 11: maps of 100,000 links are answered without holding up other teams' requests."""

from __future__ import annotations

import httpx
import pytest

from tests.emulator.conftest import ALPHA_KEY, auth
from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator
from tui.emulator.sites.sizes import BIGGEST_HOST


@pytest.mark.socket
def test_maps_of_the_biggest_site_back_to_back_leave_the_loop_free(emulator: Emulator) -> None:
    body = {"url": f"https://{BIGGEST_HOST}/", "limit": 100_000}
    with ServerThread(emulator) as base_url:
        def bad() -> list[int]:
            with httpx.Client(base_url=base_url, headers=auth(ALPHA_KEY), timeout=60) as c:
                # Counted, not parsed: parsing 21 MiB here would hold this process's GIL, the server's too.
                return [c.post("/v2/map", json=body).content.count(b'"url":') for _ in range(4)]

        latencies, run = activity_latencies_while(base_url, bad, lead_seconds=0.05)
        assert run.error is None and run.result == [100_000] * 4
        assert_loop_free(latencies)
