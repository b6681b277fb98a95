"""Putting one context's monitor together from its settings: journal, rules, deliverer."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx

from tui.monitor.alerts.engine import AlertEngine
from tui.monitor.delivery.deliverer import Deliverer
from tui.monitor.hub import Monitor
from tui.monitor.journal import Journal
from tui.monitor.settings import MonitorSettings

WEBHOOK_TIMEOUT = 10.0
"""Seconds one webhook post may take (each is retried by its outlet queue)."""


async def open_monitor(
    context: str | None,
    settings: MonitorSettings,
    *,
    read_only: bool,
    http_client: httpx.AsyncClient | None = None,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    journal_dir: Path | None = None,
) -> Monitor:
    """The context's monitor, its journal opened off the event loop (a broken file is moved aside, never raised).

    `http_client` posts the webhooks (its owner closes it; None: the monitor makes
    one and closes it with itself); `journal_dir` replaces
    the state directory (tests, `--journal-dir`).
    """
    path = settings.journal_file(context, journal_dir)
    journal = (
        await Journal.open(path, policy=settings.retention, clock=lambda: clock().timestamp())
        if path is not None
        else None
    )
    owned = http_client is None
    if http_client is None:
        http_client = httpx.AsyncClient(timeout=httpx.Timeout(WEBHOOK_TIMEOUT), follow_redirects=False)
    deliverer = Deliverer(settings.delivery, http_client, read_only=read_only)
    engine = AlertEngine(settings.rules, clock)
    monitor = Monitor(context=context, engine=engine, journal=journal, deliverer=deliverer, clock=clock)
    if owned:
        monitor.close_with(http_client.aclose)
    return monitor
