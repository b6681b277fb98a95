"""The alerts screen's rows: this run's alerts (the engine's) and the journal's, in three sections.

The journal holds what `wds-tui watch`, an earlier run or another dashboard saw;
this run's own alerts are in it too, and are shown once, as this run knows
them (an alert's journal row is keyed by rule, subject and firing time:
`tui.monitor.alert_notices.alert_id`). A journal alert still firing for a rule
and subject that fires here too is the same trouble seen twice: shown once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from tui.monitor.alert_notices import alert_id
from tui.monitor.alerts.engine import Alert
from tui.monitor.hub import UNWATCHED
from tui.monitor.journal import JournalAlert

Section = Literal["firing", "acknowledged", "resolved"]
SECTIONS: tuple[Section, ...] = ("firing", "acknowledged", "resolved")
SECTION_KEY = "section:"
"""The key of a section's heading row (alert keys hold `|`, never this prefix)."""


@dataclass(frozen=True)
class AlertRow:
    """One alert as the screen lists it; `live`: this run's engine holds it (so `a` and `s` act on it)."""

    key: str
    section: Section
    rule: str
    subject: str
    sentence: str
    fired_at: datetime
    repeats: int
    opens: tuple[str, str] | None  # (kind, id): job, crawl, batch or session
    live: bool
    resolved_at: datetime | None = None


def _from_engine(alert: Alert) -> AlertRow:
    section: Section = "resolved" if alert.resolved_at else "acknowledged" if alert.acknowledged else "firing"
    opens = (alert.opens.kind, alert.opens.id) if alert.opens is not None else None
    key = alert_id(alert.rule, alert.subject, alert.fired_at)
    return AlertRow(
        key, section, alert.rule, alert.subject, alert.sentence, alert.fired_at, alert.repeats, opens, True,
        alert.resolved_at,
    )  # fmt: skip


STALE_AFTER = 24 * 3600.0
"""Seconds after which a journal alert still "firing" is taken as left behind by a run that was killed."""


def _from_journal(alert: JournalAlert, now: float) -> AlertRow:
    section: Section = alert.state if alert.state in SECTIONS else "firing"  # type: ignore[assignment]
    resolved = datetime.fromtimestamp(alert.resolved_at, UTC) if alert.resolved_at is not None else None
    sentence = alert.sentence
    # Nobody judges it any more (its run closed, or was killed long ago): listed with the ended ones, said so.
    if alert.state == UNWATCHED or (section != "resolved" and now - alert.updated_at > STALE_AFTER):
        section, resolved = "resolved", datetime.fromtimestamp(alert.updated_at, UTC)
        sentence = f"{sentence} (no longer watched: the run that fired it ended)"
    return AlertRow(
        alert.id, section, alert.rule, alert.subject, sentence, datetime.fromtimestamp(alert.fired_at, UTC),
        alert.repeats, alert.opens, False, resolved,
    )  # fmt: skip


def alert_rows(
    firing: Iterable[Alert], resolved: Iterable[Alert], earlier: Sequence[JournalAlert], now: float | None = None
) -> list[AlertRow]:
    """Every alert once, by section (firing, acknowledged, resolved), the newest first in each (`now`: epoch seconds)."""
    now = time.time() if now is None else now
    rows = [_from_engine(alert) for alert in (*firing, *resolved)]
    known = {row.key for row in rows}
    holding = {(row.rule, row.subject) for row in rows if row.section != "resolved"}
    for alert in earlier:
        row = _from_journal(alert, now)
        if row.key in known or (row.section != "resolved" and (row.rule, row.subject) in holding):
            continue
        known.add(row.key)
        rows.append(row)
    order = {section: index for index, section in enumerate(SECTIONS)}
    return sorted(rows, key=lambda row: (order[row.section], -(row.resolved_at or row.fired_at).timestamp()))
