"""What the dashboard does with an alert: the header's count, a toast, the bell, a desktop notification; `A`.

The monitor (`tui.dashboard.shell.monitoring`) posts `AlertHappened` for each
alert that fires, repeats or resolves. A fired or repeated one is a toast as
urgent as the notice says, the terminal's bell (`bell` in `[alerts.delivery]`)
and a desktop notification through the terminal (`notification`: OSC 9, 777
or 99, chosen from the terminal's environment unless set; wrapped for tmux);
a resolved one is a short, quiet toast. Read-only mode shows all of it: only
delivery outside (a command, webhooks) is held back, by the monitor's deliverer.

The webhook inbox's deliveries reach the monitor from here too (the inbox is
the app's, not a pane's). Nothing the monitor does can fail the app: a problem
is logged and the dashboard goes on.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar

from textual import on
from textual.app import App

from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.shell.intents import OpenAlerts
from tui.dashboard.shell.monitoring import AlertHappened, MonitorOpened
from tui.dashboard.shell.terminal_output import write_to_terminal

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from tui.dashboard.kit.widgets.status_header import StatusHeader
    from tui.dashboard.shell.app_memory import AppMemory
    from tui.monitor.delivery.notice import AlertNotice
    from tui.monitor.hub import Monitor
    from tui.monitor.settings import MonitorSettings

ReturnType = TypeVar("ReturnType")
log = logging.getLogger(__name__)

TOAST_SEVERITY: dict[str, SeverityLevel] = {"info": "information", "warning": "warning", "critical": "error"}
FIRED_TOAST_SECONDS = 10.0
RESOLVED_TOAST_SECONDS = 4.0


class RaisesAlerts(App[ReturnType], Generic[ReturnType]):
    """Mixed into the app (after `HasAMonitor`), which sets `header` and `memory`."""

    header: StatusHeader
    memory: AppMemory
    monitor: Monitor | None
    monitor_settings: MonitorSettings | None
    monitor_problem: str | None
    terminal_env: Mapping[str, str] | None = None
    """The environment that names the terminal (None: the process's own, read when an alert is told)."""
    terminal_write: Callable[[str], object] | None = None
    """Where notifications and the bell go (None: the terminal itself, never when headless); tests pass their own."""
    _stop_watching_deliveries: Callable[[], None] | None = None

    def watch_the_inbox(self) -> None:
        """Hand every webhook delivery (its type, whether its signature held) to the monitor, for the whole run."""
        self._stop_watching_deliveries = self.memory.webhooks.watch_deliveries(
            lambda event_type, verified, job_id: tell_monitor(
                self, lambda monitor: monitor.saw_webhook(event_type, verified=verified, job_id=job_id)
            )
        )

    def stop_watching_the_inbox(self) -> None:
        if self._stop_watching_deliveries is not None:
            self._stop_watching_deliveries()
            self._stop_watching_deliveries = None

    @on(MonitorOpened)
    def _count_when_opened(self) -> None:
        self._count_alerts()

    @on(AlertHappened)
    def _alert_happened(self, message: AlertHappened) -> None:
        self._count_alerts()
        notice = message.notice
        if notice.state == "resolved":
            self.notify(notice.body, title=f"✓ resolved: {notice.rule}", timeout=RESOLVED_TOAST_SECONDS)
            return
        again = f" (again, #{message.event.alert.repeats + 1})" if notice.state == "repeated" else ""
        self.notify(
            notice.body,
            title=f"▲ {notice.rule}{again}",
            severity=TOAST_SEVERITY.get(notice.severity, "warning"),
            timeout=FIRED_TOAST_SECONDS,
        )
        self._tell_the_terminal(notice)

    def _count_alerts(self) -> None:
        monitor = self.monitor
        self.header.alerts = len(monitor.engine.firing()) if monitor is not None else 0

    def _tell_the_terminal(self, notice: AlertNotice) -> None:
        """The desktop notification and the bell, as `[alerts.delivery]` asks (nothing when both are off)."""
        settings = self.monitor_settings
        if settings is None:
            return
        from tui.monitor.delivery.terminal import notice_bytes

        delivery = settings.delivery
        env = self.terminal_env if self.terminal_env is not None else os.environ
        try:
            text = notice_bytes(notice, delivery.notification.value, env, bell=delivery.bell).decode("utf-8")
            if text:
                write = self.terminal_write or (lambda codes: write_to_terminal(self, codes))
                write(text)
        except Exception:  # a terminal that cannot be written to must not end the dashboard
            log.exception("the alert's notification could not be written to the terminal")

    def action_alerts(self) -> None:
        """Open the alerts screen: firing, acknowledged and resolved, this run's and the journal's."""
        self.run_worker(self._open_alerts(), group="alerts-screen", exclusive=True, exit_on_error=False)

    async def _open_alerts(self) -> None:
        # The journal is read in a thread before the screen opens: its first frame shows them all.
        monitor = self.monitor
        problem = self.monitor_problem
        earlier: tuple[object, ...] = ()
        if monitor is None and self.monitor_settings is not None and problem is None:
            problem = "The monitor is still opening its journal: alerts show here in a moment."
        if monitor is not None and monitor.journal is not None:
            try:
                earlier = tuple(await monitor.journal.read(lambda queries: queries.alerts()))
            except (sqlite3.Error, OSError) as exc:
                log.warning("the journal's alerts could not be read: %s", exc)
                problem = f"The journal could not be read ({exc}): this run's alerts only."
        self.post_message(OpenAlerts(monitor, earlier, problem))
