"""Alert notices for the monitor's tests."""

from __future__ import annotations

from datetime import UTC, datetime

from tui.monitor.delivery.notice import AlertNotice, AlertState


def notice(
    title: str = "3 scrapes failed", body: str = "example.com: 503 within 10 min", state: AlertState = "fired"
) -> AlertNotice:
    return AlertNotice(
        rule="job_failed",
        subject="example.com",
        state=state,
        title=title,
        body=body,
        severity="warning",
        at=datetime(2026, 11, 27, 12, 0, tzinfo=UTC),
        context="prod",
    )
