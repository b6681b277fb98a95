"""The app's monitor (`tui.monitor`): opened after the first frame, fed by the panes, closed at exit.

The monitor journals what the panes saw and runs the context's alert rules.
Opening its journal reads the file (a check, perhaps a repair), so it happens in
a worker after the app is up: start-up never waits on SQLite, and until it is
open `monitor` is None and the panes' sightings are simply not kept.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from textual.app import App
from textual.message import Message

if TYPE_CHECKING:
    from tui.monitor.alerts.engine import AlertEvent
    from tui.monitor.delivery.notice import AlertNotice
    from tui.monitor.hub import Monitor
    from tui.monitor.settings import MonitorSettings

ReturnType = TypeVar("ReturnType")
log = logging.getLogger(__name__)

TICK_SECONDS = 15.0
"""How often the rules are judged with nothing new: stalls and expiries happen with time."""
BACKLOG = 200
"""Sightings kept while the monitor opens (the panes' first answers come before it), handed to it once open."""


class MonitorOpened(Message):
    """The monitor is open (`app.monitor` is set): what waits for the journal may read it now."""


class AlertHappened(Message):
    """An alert fired, repeated or resolved (posted from the monitor's listener)."""

    def __init__(self, event: AlertEvent, notice: AlertNotice) -> None:
        super().__init__()
        self.event = event
        self.notice = notice


class HasAMonitor(App[ReturnType], Generic[ReturnType]):
    """Mixed into the app, which sets `monitor_settings`, `read_only_monitor`, `clock` (None settings: no monitor)."""

    monitor_settings: MonitorSettings | None
    monitor_context: str | None
    monitor_read_only: bool
    journal_dir: Path | None
    monitor: Monitor | None = None
    monitor_problem: str | None = None
    """Why the monitor could not be opened, for the alerts and history screens."""
    monitor_backlog: deque[Callable[[Monitor], object]] | None = None
    """While the monitor opens: what the panes saw meanwhile (`tui.dashboard.kit.monitor_feed`); else None."""

    def expect_monitor(self, settings: MonitorSettings | None) -> None:
        """Set the settings (None: no monitor); from now on, until it opens, what panes see waits for it."""
        self.monitor_settings = settings
        self.monitor_backlog = deque(maxlen=BACKLOG) if settings is not None else None

    def open_monitor(self, clock: Callable[[], datetime]) -> None:
        """Open the monitor in a worker (nothing when monitoring is off); posts `MonitorOpened` once it is."""
        if self.monitor_settings is None:
            return
        self.run_worker(self._open_monitor(self.monitor_settings, clock), name="monitor", exit_on_error=False)

    async def _open_monitor(self, settings: MonitorSettings, clock: Callable[[], datetime]) -> None:
        from tui.monitor.build import open_monitor

        try:
            monitor = await open_monitor(
                self.monitor_context,
                settings,
                read_only=self.monitor_read_only,
                clock=clock,
                journal_dir=self.journal_dir,
            )
        except OSError as exc:  # a state directory that cannot be made: no journal, no alerts, said once
            self.monitor_backlog = None
            self.monitor_problem = f"monitoring is off: {exc.strerror or exc}"
            self.notify(self.monitor_problem, severity="warning", timeout=10)
            return
        self.monitor = monitor
        monitor.listen(lambda event, notice: self.post_message(AlertHappened(event, notice)))
        journal = monitor.journal
        if journal is not None and journal.notice:
            self.notify(journal.notice, severity="warning", timeout=10)
        self._catch_up(monitor)
        self.set_interval(TICK_SECONDS, monitor.tick, name="alert rules")
        self.post_message(MonitorOpened())

    def _catch_up(self, monitor: Monitor) -> None:
        """Hand the monitor what the panes saw while it opened: their first answers are not asked again."""
        backlog, self.monitor_backlog = self.monitor_backlog, None
        for feed in backlog or ():
            try:
                feed(monitor)
            except Exception:  # as tell_monitor: a monitor problem is logged, never the app's end
                log.exception("the monitor could not take an early sighting")

    async def close_monitor(self) -> None:
        """Write what is queued and stop delivery."""
        monitor, self.monitor = self.monitor, None
        if monitor is not None:
            await monitor.aclose()
