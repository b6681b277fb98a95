"""A served emulator whose clock runs 60 times as fast: a stalled crawl's alert fires within real seconds.

`wds-tui emulator --clock-speed 60` in its own process; our client polls a
crawl paced at one page every 10 emulator minutes (10 real seconds), and a real
monitor on a clock running at the emulator's pace, with a 2-minute stall rule,
says so after about 2 real seconds, repeats every 2, and resolves when the
first page comes in.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from tests.monitor.emulator_watch import journaled_alerts
from tests.support.processes import emulator_with_banner
from tui.api.client import WdsClient
from tui.emulator.core.clock import ScaledClock
from tui.monitor.alerts.engine import AlertEvent
from tui.monitor.alerts.rules import CrawlStalledRule
from tui.monitor.build import open_monitor
from tui.monitor.settings import MonitorSettings

pytestmark = pytest.mark.socket

KEY = "wds-" + "c5" * 16
SPEED = 60
SECONDS_A_PAGE = 600
"""The crawl's `delay`: 10 emulator minutes between pages, 10 real seconds at SPEED."""


@pytest.mark.serial  # asserts wall-clock time: alone, not beside other workers
async def test_crawl_stalled_fires_within_real_seconds_on_an_emulator_sixty_times_as_fast(tmp_path: Path) -> None:
    flags = ("--clock-speed", str(SPEED), "--seed", "3", "--no-traffic", "--api-key", f"ops={KEY}")
    with emulator_with_banner(*flags) as (url, banner, _):
        assert "live traffic off" in banner
        # The monitor's clock runs at the emulator's pace (the stall is counted in the service's minutes).
        clock = ScaledClock(SPEED)
        rule = CrawlStalledRule(minutes=2, repeat_minutes=2)
        async with httpx.AsyncClient() as hooks, WdsClient(url, KEY, max_retries=0) as client:
            monitor = await open_monitor(
                "ops",
                MonitorSettings(rules=(rule,)),
                read_only=True,
                http_client=hooks,
                clock=clock.now,
                journal_dir=tmp_path,
            )
            heard: list[tuple[float, AlertEvent]] = []
            monitor.listen(lambda event, notice: heard.append((time.monotonic() - started, event)))
            crawl = await client.crawl.start("https://acme-outdoor.com/", limit=3, delay=SECONDS_A_PAGE)
            started = time.monotonic()
            while time.monotonic() - started < 30 and not any(event.what == "resolved" for _, event in heard):
                status = await client.crawl.get(crawl.id)
                monitor.saw_crawl("crawl", crawl.id, status)
                await asyncio.sleep(0.25)
            await client.crawl.cancel(crawl.id)
            await monitor.aclose()
            assert monitor.journal is not None
            journal = monitor.journal.path
    said = [(event.what, round(at, 1)) for at, event in heard]
    whats = [what for what, _ in said]
    assert whats[0] == "fired" and whats[-1] == "resolved" and "repeated" in whats, said
    fired_after = heard[0][0]
    assert 1.5 <= fired_after <= 8, f"fired {fired_after:.1f} real seconds after the crawl started: {said}"
    assert heard[0][1].alert.sentence.startswith(f"crawl {crawl.id} has had no new page for 2 min (0 of 3 pages)")
    assert heard[-1][0] >= SECONDS_A_PAGE / SPEED - 1, "resolved only once the first page came in"
    [(name, subject, state, detail)] = journaled_alerts(journal)
    assert (name, subject, state) == ("crawl_stalled", crawl.id, "resolved")
    assert detail["repeats"] == whats.count("repeated")
