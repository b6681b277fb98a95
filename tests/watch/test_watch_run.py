"""`WatchRun` in-process: alerts reach the log with their context, a stop drains delivery for a bounded
time only, closes every journal, and writes the last line."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import SecretStr

from tests.support.webhook_receiver import Receiver
from tests.watch.recording_feed import CountingTransport, client_on, seeded
from tui.monitor.alerts.rules import JobFailedRule
from tui.monitor.build import open_monitor
from tui.monitor.delivery.deliverer import DeliveryConfig, WebhookTarget
from tui.monitor.settings import MonitorSettings
from tui.monitor.watch.event_log import EventLog
from tui.monitor.watch.poller import Intervals, Poller
from tui.monitor.watch.run import WatchRun
from tui.monitor.watch.watched import Watched

pytestmark = pytest.mark.socket


async def test_a_stop_waits_for_a_hung_webhook_only_as_long_as_allowed(tmp_path: Path) -> None:
    stream = io.StringIO()
    async with Receiver(delay=30) as hook, client_on(CountingTransport(seeded())) as client:
        settings = MonitorSettings(
            # A day's window: a failure counts at the time it ran, and the seeded ones ran hours ago.
            rules=(JobFailedRule(count=1, window_minutes=24 * 60),),
            delivery=DeliveryConfig(webhooks=[WebhookTarget(url=SecretStr(hook.url))]),
        )
        monitor = await open_monitor("ops", settings, read_only=False, journal_dir=tmp_path)
        run = WatchRun(
            [Watched("ops", monitor, Poller(client, monitor, intervals=Intervals.every(0.5)))],
            EventLog(stream),
            drain_seconds=0.5,
        )
        running = asyncio.create_task(run.run())

        async def until(ready: Callable[[], bool]) -> None:
            while not ready():
                await asyncio.sleep(0.05)

        await asyncio.wait_for(until(lambda: '"event": "alert"' in stream.getvalue()), 20)
        await asyncio.wait_for(until(lambda: bool(hook.received)), 20)  # the first post is on its way, and will hang
        run.stop("test")
        assert await asyncio.wait_for(running, 20) == 0  # the hook answers after 30 s: it was not waited for
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["event"] for line in lines[:2]] == ["start", "watching"]
    alerts = [line for line in lines if line["event"] == "alert"]
    assert alerts and all(line["context"] == "ops" and line["rule"] == "job_failed" for line in alerts)
    given_up = [line for line in lines if line["event"] == "delivery" and not line["ok"]]
    assert given_up and "not sent: stopped after 0.5 s" in given_up[-1]["message"]
    assert lines[-1]["event"] == "stop" and lines[-1]["reason"] == "test"
    assert lines[-1]["contexts"]["ops"]["alerts_firing"] == len({line["subject"] for line in alerts})
    assert monitor.journal is not None and monitor.journal.read_now(
        lambda history: sum(history.calls_per_day(2).values())
    )
