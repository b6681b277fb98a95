"""A real `Monitor` fed with the answers of real API calls to an in-process emulator, both on one manual clock.

`watching(tmp_path, rule)` builds it as a context does (`open_monitor`, a
journal in `tmp_path`) with that one rule on; the `poll_*` methods make the
calls a dashboard pane or `wds-tui watch` makes and hand their answers to the
monitor's `saw_*` methods, as the wiring does. Every alert event is kept, so a
test reads what was said since its last look with `said()`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

from tests.support.dashboard import BASE_URL, KEY, NOW, SwitchableTransport, client_over
from tui.api.client import WdsClient
from tui.api.errors import APIConnectionError, AuthenticationError
from tui.api.resources.jobs import STATUS_KINDS
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator
from tui.monitor.alerts.engine import AlertEvent
from tui.monitor.alerts.rules import Rule
from tui.monitor.build import open_monitor
from tui.monitor.hub import Monitor
from tui.monitor.settings import MonitorSettings

T = TypeVar("T")


@dataclass(frozen=True)
class Said:
    """One alert event as a test checks it."""

    what: str
    subject: str
    sentence: str


@dataclass
class Watched:
    """The emulator, its clock (the monitor's too), our client on it, and the monitor with what it said.

    `http` is the client's connection to the emulator, for a second client with another key.
    """

    emulator: Emulator
    clock: ManualClock
    http: httpx.AsyncClient
    client: WdsClient
    monitor: Monitor
    events: list[AlertEvent] = field(default_factory=list)
    _read: int = 0

    def advance(self, minutes: float) -> None:
        """Let `minutes` pass for the service and the monitor alike."""
        self.clock.advance(minutes * 60)

    def said(self) -> list[Said]:
        """The alert events since the last call."""
        new = self.events[self._read :]
        self._read = len(self.events)
        return [Said(event.what, event.alert.subject, event.alert.sentence) for event in new]

    def tick(self) -> None:
        """The monitor's timer: rules judged with nothing new."""
        self.monitor.tick()

    # The polls: our client's calls, their answers handed to the monitor.

    async def poll_jobs(self) -> None:
        """The activity list, and the state of each of its jobs that has one (as the activity pane does)."""
        page = await self.client.team.activity(limit=100)
        self.monitor.saw_activity(page.data)
        for entry in page.data:
            if entry.endpoint in STATUS_KINDS:
                summary = await self.client.jobs.summary(entry.endpoint, entry.id)
                self.monitor.saw_job(
                    entry.endpoint, entry.id, summary, target=entry.target, created_at=entry.created_at
                )

    async def poll_crawl(self, crawl_id: str) -> None:
        self.monitor.saw_crawl("crawl", crawl_id, await self.client.crawl.get(crawl_id))

    async def poll_batch(self, batch_id: str) -> None:
        self.monitor.saw_crawl("batch", batch_id, await self.client.batch.get(batch_id))

    async def poll_sessions(self) -> None:
        self.monitor.saw_sessions((await self.client.browser.list()).sessions)

    async def poll_credits(self) -> None:
        self.monitor.saw_credits(await self.client.team.credit_usage())

    async def poll_queue(self) -> None:
        self.monitor.saw_queue(await self.client.team.queue_status())

    async def poll_usage(self) -> None:
        self.monitor.saw_token_usage(await self.client.team.token_usage_historical(by_api_key=True))

    async def journaled_alerts(self) -> list[tuple[str, str, str, dict[str, Any]]]:
        """The journal's `alerts` table once everything queued is written: (rule, subject, state, detail)."""
        assert self.monitor.journal is not None
        await self.monitor.journal.flush()
        return journaled_alerts(self.monitor.journal.path)


async def health_of(monitor: Monitor, call: Awaitable[T]) -> T | None:
    """Make `call` and tell the monitor whether it reached the service (as every pane's fetch does)."""
    try:
        answer = await call
    except APIConnectionError as error:
        monitor.saw_health("unreachable", str(error))
        return None
    except AuthenticationError as error:
        monitor.saw_health("refused", str(error))
        return None
    monitor.saw_health("ok")
    return answer


def journaled_alerts(path: Path) -> list[tuple[str, str, str, dict[str, Any]]]:
    """The `alerts` table of the journal at `path`, as any reader of the file sees it."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT rule, state, detail FROM alerts ORDER BY fired_at").fetchall()
    return [(rule, json.loads(detail)["subject"], state, json.loads(detail)) for rule, state, detail in rows]


def emulator(seed: int = 7, clock: ManualClock | None = None, **kw: Any) -> Emulator:
    """Team `ops` (key KEY) without seeded history, so nothing but what a test does can make an alert."""
    return Emulator.from_keys({"ops": [KEY]}, seed=seed, clock=clock or ManualClock(NOW), history=False, **kw)


@asynccontextmanager
async def watching(
    tmp_path: Path, rule: Rule, service: Emulator | None = None, *, context: str | None = "ops"
) -> AsyncIterator[Watched]:
    """A monitor with `rule` on, fed by our client on `service` (a fresh `emulator()` if None), on its clock."""
    service = service or emulator()
    clock = service.clock
    assert isinstance(clock, ManualClock), "the tests move time by hand"
    transport = SwitchableTransport(service)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http, httpx.AsyncClient() as hooks:
        client = client_over(http)
        monitor = await open_monitor(
            context,
            MonitorSettings(rules=(rule,)),
            read_only=True,
            http_client=hooks,
            clock=clock.now,
            journal_dir=tmp_path,
        )
        watched = Watched(service, clock, http, client, monitor)
        monitor.listen(lambda event, notice: watched.events.append(event))
        try:
            yield watched
        finally:
            await monitor.aclose()
            await service.aclose()


def lifecycle(said: list[Said]) -> list[tuple[str, str]]:
    """What happened to which subject, in order."""
    return [(each.what, each.subject) for each in said]
