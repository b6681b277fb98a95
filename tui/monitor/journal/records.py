"""What the journal keeps: one small frozen dataclass per kind of thing seen, with the SQL that writes it.

Times are seconds since the epoch (UTC). A record whose final state arrives later
(an activity entry's status, a crawl's outcome, a session's end, an alert's
resolution) is written again with the same id: the row is updated, and a field
the later record does not know (None) keeps what an earlier one said.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ActivityRecord:
    """One API call of the team (`kind`: scrape, crawl, ...), and its job's final status when known."""

    id: str
    kind: str
    created_at: float
    target: str | None = None
    status: str | None = None
    error: str | None = None
    http_status: int | None = None


@dataclass(frozen=True)
class CrawlOrBatchRecord:
    """A crawl or a batch (`kind`), its status and pages; `finished_at` once it ended."""

    id: str
    kind: str
    created_at: float
    status: str | None = None
    pages_done: int | None = None
    pages_total: int | None = None
    error: str | None = None
    finished_at: float | None = None


TEAM_KEY = "team"
"""A usage snapshot's key when the service did not split usage by API key."""


@dataclass(frozen=True)
class UsageSnapshot:
    """Credits one API key had used in its billing period (from `period_start`) when read at `at`."""

    at: float
    api_key: str
    period_start: float
    credits: float


@dataclass(frozen=True)
class QueueReading:
    """The team's queue at `at`: jobs worked on, jobs waiting, and how many may run at once."""

    at: float
    active: int
    waiting: int
    max_concurrency: int | None = None


@dataclass(frozen=True)
class CreditReading:
    """The credits left in the period at `at` (and the plan's, when the service says)."""

    at: float
    remaining: float
    plan: float | None = None


@dataclass(frozen=True)
class SessionRecord:
    """A browser session seen; `ended_at` and `ended_how` (closed, expired, ...) once it ended."""

    id: str
    created_at: float
    ended_at: float | None = None
    ended_how: str | None = None


@dataclass(frozen=True)
class WebhookEventRecord:
    """A webhook delivery received: its event type, the job it names, whether its signature held."""

    received_at: float
    event: str
    job_id: str | None = None
    verified: bool = False


@dataclass(frozen=True)
class AlertRecord:
    """An alert of `rule` (`state`: firing, acknowledged, resolved, ...), with what triggered it."""

    id: str
    rule: str
    state: str
    fired_at: float
    resolved_at: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DashboardSeen:
    """A dashboard of this context was running at `at` (written as it starts and as it exits).

    The journal keeps the latest such time (two dashboards sharing the file: the later one),
    so the next dashboard can say what happened while nobody watched.
    """

    at: float


DASHBOARD_SEEN = "dashboard_seen"
"""The `meta` key of the last time a dashboard ran."""


@dataclass(frozen=True)
class WatchStarted:
    """`wds-tui watch` began recording this context at `at`; the journal keeps the first such time.

    A dashboard opened for the first time on a journal that watch wrote has no run of its own
    to count from: it counts from here.
    """

    at: float


WATCH_STARTED = "watch_started"
"""The `meta` key of the first time `wds-tui watch` recorded into the journal."""

Record = (
    ActivityRecord
    | CrawlOrBatchRecord
    | UsageSnapshot
    | QueueReading
    | CreditReading
    | SessionRecord
    | WebhookEventRecord
    | AlertRecord
    | DashboardSeen
    | WatchStarted
)


def _keep_known(columns: tuple[str, ...]) -> str:
    return ", ".join(f"{name} = coalesce(excluded.{name}, {name})" for name in columns)


_STATEMENTS: dict[type, str] = {
    ActivityRecord: (
        "INSERT INTO activity (id, kind, target, created_at, status, error, http_status, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        + _keep_known(("target", "status", "error", "http_status"))
        + ", updated_at = excluded.updated_at"
    ),
    CrawlOrBatchRecord: (
        "INSERT INTO crawls_batches (id, kind, created_at, status, pages_done, pages_total, error, finished_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        + _keep_known(("status", "pages_done", "pages_total", "error"))
        # The first end seen is when it ended: a later sighting (a restart, another reader) must not move it.
        + ", finished_at = coalesce(finished_at, excluded.finished_at)"
        + ", updated_at = excluded.updated_at"
    ),
    UsageSnapshot: "INSERT INTO usage_snapshots (at, api_key, period_start, credits) VALUES (?, ?, ?, ?)",
    QueueReading: "INSERT INTO queue_readings (at, active, waiting, max_concurrency) VALUES (?, ?, ?, ?)",
    CreditReading: "INSERT INTO credit_readings (at, remaining, plan) VALUES (?, ?, ?)",
    SessionRecord: (
        "INSERT INTO sessions (id, created_at, ended_at, ended_how, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET "
        + _keep_known(("ended_at", "ended_how"))
        + ", updated_at = excluded.updated_at"
    ),
    WebhookEventRecord: "INSERT INTO webhook_events (received_at, event, job_id, verified) VALUES (?, ?, ?, ?)",
    AlertRecord: (
        "INSERT INTO alerts (id, rule, state, fired_at, resolved_at, detail, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET state = excluded.state, detail = excluded.detail, "
        + _keep_known(("resolved_at",))
        + ", updated_at = excluded.updated_at"
    ),
    DashboardSeen: (
        f"INSERT INTO meta (key, value) VALUES ('{DASHBOARD_SEEN}', ?)"
        " ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)"
    ),
    WatchStarted: (
        f"INSERT INTO meta (key, value) VALUES ('{WATCH_STARTED}', ?)"
        " ON CONFLICT (key) DO UPDATE SET value = min(value, excluded.value)"
    ),
}


def statement(record: Record, now: float) -> tuple[str, tuple[Any, ...]]:
    """The SQL that writes `record` and its parameters; `now` is when it is written."""
    match record:
        case ActivityRecord():
            values: tuple[Any, ...] = (
                record.id,
                record.kind,
                record.target,
                record.created_at,
                record.status,
                record.error,
                record.http_status,
                now,
            )
        case CrawlOrBatchRecord():
            values = (
                record.id,
                record.kind,
                record.created_at,
                record.status,
                record.pages_done,
                record.pages_total,
                record.error,
                record.finished_at,
                now,
            )
        case UsageSnapshot():
            values = (record.at, record.api_key, record.period_start, record.credits)
        case QueueReading():
            values = (record.at, record.active, record.waiting, record.max_concurrency)
        case CreditReading():
            values = (record.at, record.remaining, record.plan)
        case SessionRecord():
            values = (record.id, record.created_at, record.ended_at, record.ended_how, now)
        case WebhookEventRecord():
            values = (record.received_at, record.event, record.job_id, int(record.verified))
        case AlertRecord():
            detail = json.dumps(record.detail, default=str, sort_keys=True)
            values = (record.id, record.rule, record.state, record.fired_at, record.resolved_at, detail, now)
        case DashboardSeen() | WatchStarted():
            values = (record.at,)
    return _STATEMENTS[type(record)], values


def statements(records: list[Record], now: float) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The SQL for `records` with the parameters of each run of one kind, in their order (for `executemany`).

    Order is kept, not merely grouped by kind: a later record of an entry must win over an earlier one.
    """
    runs: list[tuple[str, list[tuple[Any, ...]]]] = []
    for record in records:
        sql, values = statement(record, now)
        if runs and runs[-1][0] == sql:
            runs[-1][1].append(values)
        else:
            runs.append((sql, [values]))
    return runs
