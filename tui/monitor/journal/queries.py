"""What the history screen asks of the journal, answered from one connection.

Days are UTC calendar days (`YYYY-MM-DD`), the last `days` of them up to `now`, or
(with `start`, epoch seconds) everything from that moment on: the "since 18:02" of a
dashboard started again after a while (`away` says what happened in that span).
Credits per day and per key come from the deltas between usage snapshots (the
service gives only a running total per billing period): a snapshot of a new
period counts from zero.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tui.contract.models.job_summary import FAILED
from tui.monitor.journal.records import DASHBOARD_SEEN, TEAM_KEY, WATCH_STARTED

_FAILED_ROW = f"(status = '{FAILED}' OR http_status >= 400)"


def host_of(target: str) -> str:
    """The host of a URL target; a target that is not a URL (or not a well-formed one) counts as itself."""
    try:
        return urlsplit(target).hostname or target
    except ValueError:  # "https://[red]x/": brackets that are no IPv6 address, in text from outside
        return target


@dataclass(frozen=True)
class DayFailures:
    """One day's calls and how many failed."""

    day: str
    failed: int
    total: int

    @property
    def percent(self) -> float:
        """Failed calls as a share of the day's, 0 to 100."""
        return 100.0 * self.failed / self.total if self.total else 0.0


ENDED_BADLY = ("failed", "cancelled")
"""The final states of a crawl or batch that a person who was away wants to hear about."""


@dataclass(frozen=True)
class AwaySummary:
    """What the journal learnt from `since` on: calls, failed calls by kind, crawls and batches that
    ended badly by (kind, status), and credits used (all keys, from usage snapshots' deltas)."""

    since: float
    calls: int
    failed_by_kind: dict[str, int]
    ended_badly: dict[tuple[str, str], int]
    credits: float

    @property
    def anything(self) -> bool:
        """Whether there is anything to say: a call, a crawl or batch that ended badly, credits used."""
        return bool(self.calls or self.ended_badly or self.credits)


@dataclass(frozen=True)
class JournalAlert:
    """One alert as the journal last recorded it (written by this dashboard, another, or `wds-tui watch`)."""

    id: str
    rule: str
    state: str  # firing, acknowledged or resolved
    fired_at: float
    resolved_at: float | None
    updated_at: float
    subject: str
    sentence: str
    repeats: int
    opens: tuple[str, str] | None  # (kind, id) of the job, crawl, batch or session it names


def _journal_alert(row: tuple[Any, ...]) -> JournalAlert:
    alert_id, rule, state, fired_at, resolved_at, updated_at, detail_text = row
    try:
        detail = json.loads(detail_text)
    except ValueError:
        detail = {}
    detail = detail if isinstance(detail, dict) else {}
    opens = detail.get("opens")
    target = (
        (str(opens["kind"]), str(opens["id"])) if isinstance(opens, dict) and {"kind", "id"} <= set(opens) else None
    )
    repeats = detail.get("repeats")
    return JournalAlert(
        alert_id,
        rule,
        state,
        fired_at,
        resolved_at,
        updated_at,
        str(detail.get("subject", "")),
        str(detail.get("sentence", "")),
        repeats if isinstance(repeats, int) else 0,
        target,
    )


class HistoryQueries:
    """The journal's read side over `connection`, with `now` (epoch seconds) as the end of every span."""

    def __init__(self, connection: sqlite3.Connection, now: float) -> None:
        self._connection = connection
        self._deltas: dict[float, list[tuple[str, str, float]]] = {}  # by span start: per day and per key share them
        self.now = now

    def _since(self, days: int, start: float | None = None) -> float:
        """`start` if given, else the start of the UTC day `days - 1` days before today's."""
        if start is not None:
            return start
        today = self.now - self.now % 86400
        return today - (days - 1) * 86400

    def calls_per_day(self, days: int = 30, *, start: float | None = None) -> dict[tuple[str, str], int]:
        """Calls by (day, kind)."""
        rows = self._connection.execute(
            "SELECT date(created_at, 'unixepoch'), kind, count(*) FROM activity"
            " WHERE created_at >= ? GROUP BY 1, 2 ORDER BY 1, 2",
            (self._since(days, start),),
        )
        return {(day, kind): count for day, kind, count in rows}

    def failures_per_day(self, days: int = 30, *, start: float | None = None) -> list[DayFailures]:
        """Each day with calls: how many, how many failed."""
        rows = self._connection.execute(
            f"SELECT date(created_at, 'unixepoch'), sum({_FAILED_ROW}), count(*) FROM activity"
            " WHERE created_at >= ? GROUP BY 1 ORDER BY 1",
            (self._since(days, start),),
        )
        return [DayFailures(day, int(failed or 0), total) for day, failed, total in rows]

    def top_failing_hosts(
        self, days: int = 30, limit: int = 10, *, start: float | None = None
    ) -> list[tuple[str, int]]:
        """The hosts of failed calls' targets, most failures first (a target that is not a URL counts as itself)."""
        rows = self._connection.execute(
            f"SELECT target FROM activity WHERE created_at >= ? AND {_FAILED_ROW} AND target IS NOT NULL",
            (self._since(days, start),),
        )
        hosts = Counter(host_of(target) for (target,) in rows)
        return sorted(hosts.items(), key=lambda item: (-item[1], item[0]))[:limit]

    def top_failure_causes(
        self, days: int = 30, limit: int = 10, *, start: float | None = None
    ) -> list[tuple[str, int]]:
        """Failed calls by cause (their error, else `HTTP <status>`), most first."""
        rows = self._connection.execute(
            "SELECT coalesce(error, 'HTTP ' || http_status, 'unknown'), count(*) FROM activity"
            f" WHERE created_at >= ? AND {_FAILED_ROW} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ?",
            (self._since(days, start), limit),
        )
        return [(cause, count) for cause, count in rows]

    def _credit_deltas(self, days: int, start: float | None = None) -> list[tuple[str, str, float]]:
        """(day, api key, credits used since that key's previous snapshot) for each snapshot in the span."""
        since = self._since(days, start)
        if since not in self._deltas:
            self._deltas[since] = self._read_deltas(since)
        return self._deltas[since]

    def _read_deltas(self, since: float) -> list[tuple[str, str, float]]:
        rows = self._connection.execute(
            "SELECT at, api_key, period_start, credits FROM usage_snapshots ORDER BY api_key, at"
        )
        last: dict[str, tuple[float, float]] = {}
        deltas = []
        for at, key, period_start, credits in rows:
            previous = last.get(key)
            last[key] = (period_start, credits)
            if previous is None:
                continue  # the first snapshot seen is the base, not usage of its own day
            if period_start == previous[0]:
                delta = max(0.0, credits - previous[1])  # a reading lower than the last is a correction, not use
            elif period_start > previous[0]:
                delta = credits  # a new billing period counts from zero
            else:
                delta = 0.0  # an older period's reading that arrived late
                last[key] = previous
            if at >= since:
                day = time.strftime(
                    "%Y-%m-%d", time.gmtime(at)
                )  # as SQLite's date(at, 'unixepoch'), without a query a row
                deltas.append((day, key, delta))
        return deltas

    def credits_per_day(self, days: int = 30, *, start: float | None = None) -> dict[str, float]:
        """Credits used each day, all keys together.

        A day read both as the team's total (a usage pane not split by key) and by key
        (`watch`, or the pane split) counts the keys only: the two are the same use.
        """
        team: dict[str, float] = defaultdict(float)
        keys: dict[str, float] = defaultdict(float)
        for day, key, delta in self._credit_deltas(days, start):
            (team if key == TEAM_KEY else keys)[day] += delta
        totals = {day: keys[day] if day in keys else used for day, used in team.items()} | dict(keys)
        return dict(sorted(totals.items()))

    def credits_per_key(self, days: int = 30, *, start: float | None = None) -> dict[str, float]:
        """Credits used in the span by each API key (the team's total only when no key was read apart)."""
        totals: dict[str, float] = defaultdict(float)
        for _day, key, delta in self._credit_deltas(days, start):
            totals[key] += delta
        if len(totals) > 1:
            totals.pop(TEAM_KEY, None)
        return dict(sorted(totals.items()))

    def finished_per_day(self, days: int = 30, *, start: float | None = None) -> dict[tuple[str, str, str], int]:
        """Crawls and batches that ended, by (day, kind, final status)."""
        rows = self._connection.execute(
            "SELECT date(finished_at, 'unixepoch'), kind, coalesce(status, 'unknown'), count(*)"
            " FROM crawls_batches WHERE finished_at >= ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            (self._since(days, start),),
        )
        return {(day, kind, status): count for day, kind, status, count in rows}

    def dashboard_seen(self) -> float | None:
        """When a dashboard of this context last ran (started or exited), if one ever did."""
        return self._meta_time(DASHBOARD_SEEN)

    def watch_started(self) -> float | None:
        """When `wds-tui watch` first recorded into this journal, if it ever did."""
        return self._meta_time(WATCH_STARTED)

    def away_since(self) -> float | None:
        """Where "while you were away" counts from: the last dashboard's run, else (none ever ran on this
        journal) the start of the `watch` that wrote it; None when neither is known."""
        seen = self.dashboard_seen()
        return seen if seen is not None else self.watch_started()

    def _meta_time(self, key: str) -> float | None:
        row = self._connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return float(row[0]) if row is not None else None

    def away(self, start: float) -> AwaySummary:
        """What happened from `start` (epoch seconds) to now, for the line a dashboard shows as it starts."""
        calls = self._connection.execute("SELECT count(*) FROM activity WHERE created_at >= ?", (start,)).fetchone()[0]
        by_kind = self._connection.execute(
            f"SELECT kind, count(*) FROM activity WHERE created_at >= ? AND {_FAILED_ROW} GROUP BY 1 ORDER BY 2 DESC, 1",
            (start,),
        )
        ended = self._connection.execute(
            "SELECT kind, status, count(*) FROM crawls_batches WHERE finished_at >= ? AND status IN (?, ?)"
            " GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2",
            (start, *ENDED_BADLY),
        )
        credits = sum(self.credits_per_day(0, start=start).values())
        return AwaySummary(
            since=start,
            calls=int(calls),
            failed_by_kind={kind: count for kind, count in by_kind},
            ended_badly={(kind, status): count for kind, status, count in ended},
            credits=credits,
        )

    def alerts(self, limit: int = 200) -> list[JournalAlert]:
        """The alerts last changed, newest first (a row is one alert's life: fired, acknowledged, resolved)."""
        rows = self._connection.execute(
            "SELECT id, rule, state, fired_at, resolved_at, updated_at, detail FROM alerts"
            " ORDER BY updated_at DESC LIMIT ?",
            (limit,),
        )
        return [_journal_alert(row) for row in rows]
