"""The poller feeding a real monitor: each finished job counted once, under the kind the metrics name,
and journaled with its final state, crawls and batches included (they are told both as jobs and as progress)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from tests.watch.recording_feed import CountingTransport, client_on, seeded
from tui.api.resources.jobs import STATUS_KINDS
from tui.monitor.build import open_monitor
from tui.monitor.settings import MonitorSettings
from tui.monitor.watch.poller import Poller

COUNTED_AS = {"crawl": "crawl", "batch_scrape": "batch"}
"""How the monitor counts the activity kinds it follows as progress."""


async def test_every_finished_job_is_counted_once_and_journaled_with_its_state(tmp_path: Path) -> None:
    async with client_on(CountingTransport(seeded())) as client:
        monitor = await open_monitor("ops", MonitorSettings(), read_only=True, journal_dir=tmp_path)
        try:
            poller = Poller(client, monitor)
            await poller.poll_activity()
            await poller.poll_activity()
            expected: Counter[tuple[str, str]] = Counter()
            finished: dict[str, str] = {}
            progress: set[str] = set()
            async for entry in client.team.iter_activity():
                if entry.endpoint not in STATUS_KINDS:
                    continue
                summary = await client.jobs.summary(entry.endpoint, entry.id)
                if summary.finished:
                    state = "failed" if summary.failed else summary.state or "unknown"
                    expected[(COUNTED_AS.get(entry.endpoint, entry.endpoint), state)] += 1
                    finished[entry.id] = state
                    if entry.endpoint in COUNTED_AS:
                        progress.add(entry.id)
            assert monitor.stats.jobs == expected
            assert {kind for kind, _ in expected} >= {"scrape", "crawl", "batch"}
            assert monitor.journal is not None
            await monitor.journal.flush()
            path = monitor.journal.path
        finally:
            await monitor.aclose()
    with sqlite3.connect(path) as journal:
        rows = dict(journal.execute("SELECT id, status FROM activity WHERE status IS NOT NULL").fetchall())
        ended = {row[0] for row in journal.execute("SELECT id FROM crawls_batches WHERE finished_at IS NOT NULL")}
    assert rows == finished  # every finished job's activity row has its state, crawls' and batches' too
    assert progress and progress <= ended  # and each ended crawl or batch its outcome
