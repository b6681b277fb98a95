"""The official Python SDK's waiters under the emulator's job control: a client nobody here wrote.

A team in `after_polls` mode: the SDK's crawl waiter polls the status and gets the
crawl `failed` on the chosen poll; a batch held in `manual` keeps the batch waiter
waiting until its own timeout, however fast the clock runs.
"""

from __future__ import annotations

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY
from tui.emulator.core.clock import ScaledClock
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

firecrawl = pytest.importorskip("firecrawl", reason="the official SDK is in the test extras")

pytestmark = pytest.mark.socket

ADMIN_TOKEN = "emu-" + "5d" * 16
SITE = "https://acme-outdoor.com/"


def test_the_sdk_waiters_see_a_failure_on_the_chosen_poll_and_wait_on_a_held_batch() -> None:
    emulator = Emulator.from_keys(
        {"alpha": [ALPHA_KEY]}, seed=7, history=False, clock=ScaledClock(60.0), admin_token=ADMIN_TOKEN
    )
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with ServerThread(emulator) as base_url, httpx.Client(base_url=base_url, headers=admin) as http:
        sdk = firecrawl.Firecrawl(api_key=ALPHA_KEY, api_url=base_url)
        mode = {"mode": "after_polls", "polls": 3, "outcome": "failed", "error": "Proxy pool exhausted."}
        assert http.put("/_emulator/teams/alpha/progression", json=mode).status_code == 200
        crawled = sdk.crawl(SITE, limit=3, poll_interval=0.1)  # type: ignore[arg-type]  # any number sleeps
        view = http.get(f"/_emulator/jobs/{crawled.id}").json()["job"]

        assert http.put("/_emulator/teams/alpha/progression", json={"mode": "manual"}).status_code == 200
        with pytest.raises(TimeoutError, match="did not complete within 1 seconds"):  # 60 s of its clock
            sdk.batch_scrape([SITE, SITE + "about"], poll_interval=0.1, wait_timeout=1)  # type: ignore[arg-type]
        [held] = [job for job in http.get("/_emulator/progression").json()["jobs"] if job["kind"] == "batch_scrape"]
    assert (crawled.status, crawled.completed, crawled.total) == ("failed", 0, 3)
    assert view["polls"] == 3 and view["state"] == "failed"
    assert (held["state"], held["completed"]) == ("scraping", 0)
