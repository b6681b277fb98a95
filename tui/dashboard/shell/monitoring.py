"""The app's monitor (`tui.monitor`): opened after the first frame, fed by the panes, closed at exit.

The monitor journals what the panes saw and runs the context's alert rules.
Opening its journal reads the file (a check, perhaps a repair), so it happens in
a worker after the app is up: start-up never waits on SQLite, and until it is
open `monitor` is None and the panes' sightings wait in a short backlog.

The panes feed it only what they show, and only while they show it: a pane
under another screen, paused or scrolled past does not poll. So, given a
read-only `monitor_client`, the app also runs `watch`'s own poller
(`tui.monitor.watch.poller`) in the background, on slower intervals: every
activity entry and job state, crawl, credit and queue reading reaches the
journal and the rules whatever is on screen, as with `wds-tui watch`.
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
    from tui.api.client import WdsClient
    from tui.monitor.alerts.engine import AlertEvent
    from tui.monitor.delivery.notice import AlertNotice
    from tui.monitor.delivery.outlet_queue import Outcome
    from tui.monitor.hub import Monitor
    from tui.monitor.settings import MonitorSettings
    from tui.monitor.watch.poller import Poller

ReturnType = TypeVar("ReturnType")
log = logging.getLogger(__name__)

TICK_SECONDS = 15.0
"""How often the rules are judged with nothing new: stalls and expiries happen with time."""
BACKLOG = 200
FIRST_BACKGROUND_POLL = 3.0
"""Seconds after the monitor opens before the background polls start: the panes' first answers go first."""
DRAIN_AT_EXIT = 2.0
"""Seconds the alerts still being sent (a webhook in its retry) get at exit before they are given up."""
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
    monitor_client: WdsClient | None = None
    """A read-only client for the background polls (None: the panes alone feed the monitor, as in tests)."""
    monitor_poller: Poller | None = None

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
        if monitor.deliverer is not None:
            monitor.deliverer.on_outcome = self._say_delivery_failure
        self._catch_up(monitor)
        if self.monitor_client is not None:
            # watch's poller judges the rules on its own tick (`Intervals.tick`): one timer, not two.
            self.run_worker(self._poll_in_background(monitor, self.monitor_client), name="monitor polls")
        else:
            self.set_interval(TICK_SECONDS, self._tick_rules, name="alert rules")
        self.post_message(MonitorOpened())

    def _tick_rules(self) -> None:
        monitor = self.monitor
        if monitor is None:
            return
        try:
            monitor.tick()
        except Exception:  # a rule that fails is logged; the timer (and the dashboard) go on
            log.exception("the alert rules could not be judged")

    def _say_delivery_failure(self, outlet: str, notice: AlertNotice, outcome: Outcome) -> None:
        """An alert that could not be sent outside is said on screen (the outlet's message masks hook URLs)."""
        if not outcome.ok:
            self.notify(f"{notice.rule}: {outcome.message}", title="alert not delivered", severity="warning")

    async def _poll_in_background(self, monitor: Monitor, client: WdsClient) -> None:
        import asyncio

        from tui.monitor.watch.poller import Intervals, Poller

        await asyncio.sleep(FIRST_BACKGROUND_POLL)
        # Slower than watch's: the panes feed what they show at their own pace; these polls fill the gaps.
        intervals = Intervals(activity=30.0, crawls=20.0, credits=120.0, queue=30.0, sessions=60.0, tick=TICK_SECONDS)
        self.monitor_poller = Poller(client, monitor, intervals=intervals)
        await self.monitor_poller.run()

    def _catch_up(self, monitor: Monitor) -> None:
        """Hand the monitor what the panes saw while it opened: their first answers are not asked again."""
        backlog, self.monitor_backlog = self.monitor_backlog, None
        for feed in backlog or ():
            try:
                feed(monitor)
            except Exception:  # as tell_monitor: a monitor problem is logged, never the app's end
                log.exception("the monitor could not take an early sighting")

    async def close_monitor(self) -> None:
        """Stop the background polls, give alerts on their way a moment, write what is queued, stop delivery."""
        import asyncio

        if self.monitor_poller is not None:
            self.monitor_poller.stop()
        monitor, self.monitor = self.monitor, None
        if monitor is not None:
            if monitor.deliverer is not None:
                try:
                    await asyncio.wait_for(monitor.deliverer.drain(), DRAIN_AT_EXIT)
                except TimeoutError:
                    log.warning("alerts still being sent at exit were given up after %s s", DRAIN_AT_EXIT)
            await monitor.aclose()
        if self.monitor_client is not None:
            await self.monitor_client.aclose()
