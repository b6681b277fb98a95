"""Thirty emulated days of a seeded emulator's live traffic, polled by `wds-tui watch`'s real `Poller` into a
real `Monitor` and its journal, on one manual clock (deterministic: nothing waits on real time).

The emulator's live traffic is its own `TrafficGenerator` (two keys of one team), called by hand a few
times a step instead of on its real-time timer; every `STEP_HOURS` the poller makes each of its polls, as
its timers would, and the monitor's tick runs. The service keeps 24 hours of activity: a step of a few
hours reads every entry. `SeededRun` keeps what the generator did, for the tests to compare with.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import httpx

from tests.support.dashboard import BASE_URL, NOW, SwitchableTransport, client_over
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator
from tui.monitor.build import open_monitor
from tui.monitor.journal import Journal
from tui.monitor.settings import MonitorSettings
from tui.monitor.watch.poller import Poller

KEYS = ("wds-" + "c1" * 16, "wds-" + "d2" * 16)
DAYS = 30
STEP_HOURS = 3
CALLS_PER_STEP = 3
FIRST_DAY = NOW - timedelta(days=DAYS - 1, hours=NOW.hour)
"""00:00 UTC of the first of the 30 days that end with NOW's (2025-05-17 to 2025-06-15)."""
KIND_OF_PATH = {"/v2/scrape": "scrape", "/v2/map": "map", "/v2/crawl": "crawl", "/v2/batch/scrape": "batch_scrape"}


@dataclass
class SeededRun:
    """The journal the run wrote (closed), and what the traffic did: calls accepted by (UTC day, kind)."""

    journal_path: Path
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    refused: int = 0


async def thirty_days_watched(journal_dir: Path, seed: int = 22) -> SeededRun:
    """Run the 30 days from FIRST_DAY to NOW; the journal is `journal_dir`'s `ops` file."""
    clock = ManualClock(FIRST_DAY)
    emulator = Emulator.from_keys({"ops": list(KEYS)}, seed=seed, clock=clock)
    traffic = emulator.traffic
    monitor = await open_monitor("ops", MonitorSettings(), read_only=True, clock=clock.now, journal_dir=journal_dir)
    assert monitor.journal is not None
    run = SeededRun(monitor.journal.path)
    steps = int((NOW - FIRST_DAY) / timedelta(hours=STEP_HOURS))
    try:
        async with (
            httpx.AsyncClient(transport=SwitchableTransport(emulator), base_url=BASE_URL) as http,
            traffic.client() as callers,
        ):
            poller = Poller(client_over(http, KEYS[0]), monitor)
            for _ in range(steps):
                for _ in range(CALLS_PER_STEP):
                    clock.advance(STEP_HOURS * 3600 / CALLS_PER_STEP)
                    response = await traffic.tick(callers)
                    if response.status_code < 400:
                        day = time.strftime("%Y-%m-%d", time.gmtime(clock.now().timestamp()))
                        run.calls[(day, KIND_OF_PATH[response.request.url.path])] += 1
                    else:
                        run.refused += 1
                await emulator.jobs.running_batches.catch_up_all()  # what the served emulator's loop does
                await poller.poll_activity()
                await poller.poll_crawls()
                await poller.poll_credits()
                await poller.poll_queue()
                await poller.poll_token_usage()
                await poller.poll_sessions()
                monitor.tick()
    finally:
        await monitor.aclose()
        await emulator.aclose()
    return run


def journal_at_the_end(run: SeededRun) -> Journal:
    """The run's journal opened again, its clock at the run's end (NOW), as a dashboard started then opens it."""
    return Journal(run.journal_path, clock=lambda: NOW.timestamp())
