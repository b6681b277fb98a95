"""An alert event in the words every outlet delivers (`AlertNotice`), and its id in the journal."""

from __future__ import annotations

from datetime import datetime

from tui.monitor.alerts.engine import Alert, AlertEvent
from tui.monitor.delivery.notice import AlertNotice, Severity

SEVERITY: dict[str, Severity] = {
    "service_down": "critical",
    "credits": "critical",
    "usage_spike": "warning",
    "session_expiring": "info",
}
"""How urgent a fired alert of each rule kind is (the rest: warning); a resolved one is always info."""


def notice_of(event: AlertEvent, context: str | None) -> AlertNotice:
    """What is delivered of an alert event: a title naming rule and context, the sentence as the body."""
    alert = event.alert
    where = f" [{context}]" if context else ""
    state = "resolved" if event.what == "resolved" else "alert"
    details: dict[str, object] = {
        "kind": alert.kind,
        "fired_at": alert.fired_at.isoformat(),
        "repeats": alert.repeats,
        "acknowledged": alert.acknowledged,
    }
    if alert.opens is not None:
        details["opens"] = {"kind": alert.opens.kind, "id": alert.opens.id}
    return AlertNotice(
        rule=alert.rule,
        subject=alert.subject,
        state=event.what,
        title=f"wds-tui{where} {state}: {alert.rule}",
        body=alert.sentence,
        severity="info" if event.what == "resolved" else SEVERITY.get(alert.kind, "warning"),
        at=event.at,
        context=context,
        details=details,
    )


def alert_id(rule: str, subject: str, fired_at: datetime) -> str:
    """The journal's id of one alert's life: its later states update the same row."""
    return f"{rule}|{subject}|{fired_at.timestamp():.3f}"


def alert_detail(alert: Alert) -> dict[str, object]:
    """What the journal keeps of an alert beyond its row's columns: enough for the alerts screen to show and open it."""
    detail: dict[str, object] = {"subject": alert.subject, "sentence": alert.sentence, "repeats": alert.repeats}
    if alert.opens is not None:
        detail["opens"] = {"kind": alert.opens.kind, "id": alert.opens.id}
    return detail
