"""Helpers of the alerts tests: monitoring settings from `[alerts]` tables, and the alerts firing in an app."""

from __future__ import annotations

from typing import Any

from tui.dashboard.shell.app import WdsApp
from tui.monitor.alerts.engine import Alert
from tui.monitor.settings import MonitorSettings, read_monitor_settings

ONE_SEEDED_FAILURE = {"count": 1, "window_minutes": 180}
"""A job_failed rule that the seeded history's newest failure fires (fernwood.co, 134 minutes before NOW):
a failure counts at the time it ran, so a shorter window leaves it out."""
SEEDED_FAILURE_ENDS = 47
"""Minutes after NOW at which that failure leaves the rule's window."""


def rules(**tables: Any) -> MonitorSettings:
    """Monitoring with the given `[alerts]` tables over the defaults; no desktop notification unless asked."""
    tables.setdefault("delivery", {"notification": "off", "bell": False})
    settings, warnings = read_monitor_settings(tables, None)
    assert warnings == []
    return settings


def firing(app: WdsApp, rule: str) -> list[Alert]:
    return [alert for alert in app.monitor.engine.firing() if alert.rule == rule] if app.monitor else []
