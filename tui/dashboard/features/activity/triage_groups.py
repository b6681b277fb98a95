"""Failures grouped by cause: what the triage view lists, worked out apart from any widget.

A failed job's cause is four things read from its entry and its status: the
error (the HTTP status its page answered, else the service's error code
such as `SCRAPE_TIMEOUT`, else the message with its numbers taken out), the
target's host, the target's path as a pattern (numbers and ids collapsed,
`/product/123` and `/product/456` are `/product/{n}`), and the job's kind.
Jobs that agree on all four are one group: "404 on three paths" is three
groups, each with its count, when it was first and last seen, and a
sparkline of when it happened over the window, in block characters that read
without colour.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from tui.dashboard.features.activity.failed_search import Found
from tui.dashboard.kit.export import Cell, ExportTable
from tui.dashboard.kit.formatting import NO_VALUE

SPARK_BUCKETS = 12
SPARK_LEVELS = "▁▂▃▄▅▆▇█"
SPARK_NONE = "·"
"""A bucket with no failure: a dot, so the line keeps its width and "none" reads apart from "a few"."""

_ERROR_CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
_NUMBER = re.compile(r"\d+")
_ID = re.compile(r"^(?=.*\d)[0-9a-fA-F-]{8,}$|^(?=.*\d)(?=.*[a-zA-Z])[A-Za-z0-9_-]{16,}$")
_DIGIT_RUN = re.compile(r"\d{2,}")
_CLAUSE_END = re.compile(r"[.:;,]\s|\s[—-]\s")
MAX_CAUSE = 40


def cause_of(found: Found) -> str:
    """`HTTP 404`, an error code (`SCRAPE_TIMEOUT`), the error's first clause without numbers, or the state."""
    summary = found.status.summary
    if summary is not None and summary.http_status is not None and summary.http_status >= 400:
        return f"HTTP {summary.http_status}"
    error = (found.status.error or "").strip()
    code = _ERROR_CODE.search(error)
    if code is not None:
        return code.group()
    if error:
        # The first clause names the cause; the rest explains it, and would split one cause in two.
        clause = _CLAUSE_END.split(error.splitlines()[0], maxsplit=1)[0]
        words = _NUMBER.sub("{n}", clause if len(clause) >= 8 else error.splitlines()[0])
        return words if len(words) <= MAX_CAUSE else words[: MAX_CAUSE - 1] + "…"
    return (summary.state if summary is not None else None) or "failed"


def host_of(target: str | None) -> str:
    """The target's host, or "—" when the entry names none."""
    if not target:
        return NO_VALUE
    try:
        return urlsplit(target if "://" in target else f"//{target}").hostname or NO_VALUE
    except ValueError:
        return NO_VALUE


def path_pattern(target: str | None) -> str:
    """The target's path with numbers and ids collapsed (`/product/{n}`, `/order/{id}`); no query."""
    if not target:
        return NO_VALUE
    try:
        path = urlsplit(target if "://" in target else f"//{target}").path
    except ValueError:
        return NO_VALUE
    parts = []
    for part in (path or "/").split("/"):
        if part.isdigit():
            parts.append("{n}")
        elif _ID.match(part):
            parts.append("{id}")
        else:
            parts.append(_DIGIT_RUN.sub("{n}", part))
    return "/".join(parts) or "/"


@dataclass
class FailureGroup:
    """The failed jobs that share a cause, host, path pattern and kind; newest first."""

    cause: str
    kind: str
    host: str
    path: str
    jobs: list[Found] = field(default_factory=list)

    @property
    def key(self) -> str:
        """A key for the group's row: its four parts."""
        return "\x1f".join((self.cause, self.kind, self.host, self.path))

    @property
    def count(self) -> int:
        return len(self.jobs)

    @property
    def first_seen(self) -> datetime:
        return min(found.entry.created_at for found in self.jobs)

    @property
    def last_seen(self) -> datetime:
        return max(found.entry.created_at for found in self.jobs)

    def title(self) -> str:
        """`HTTP 404 · scrape · acme-outdoor.com/pricing`."""
        where = self.path if self.host == NO_VALUE else f"{self.host}{self.path}"
        return f"{self.cause} · {self.kind} · {where}"


def group_failures(found: Iterable[Found]) -> list[FailureGroup]:
    """The failures grouped by cause, host, path pattern and kind: most frequent first, then most recent."""
    groups: dict[tuple[str, str, str, str], FailureGroup] = {}
    for each in found:
        parts = (cause_of(each), each.entry.endpoint, host_of(each.entry.target), path_pattern(each.entry.target))
        groups.setdefault(parts, FailureGroup(*parts)).jobs.append(each)
    for group in groups.values():
        group.jobs.sort(key=lambda each: each.entry.created_at, reverse=True)
    return sorted(groups.values(), key=lambda g: (-g.count, -g.last_seen.timestamp(), g.key))


def sparkline(times: Sequence[datetime], since: datetime, span: timedelta, buckets: int = SPARK_BUCKETS) -> str:
    """When `times` fell over the window (oldest on the left), a block per bucket as high as its count."""
    counts = [0] * buckets
    for moment in times:
        share = (moment - since) / span
        if share >= 0:  # a job newer than the window's end (it came while the walk read) is in its last bucket
            counts[min(int(share * buckets), buckets - 1)] += 1
    top = max(counts)
    if top == 0:
        return SPARK_NONE * buckets
    levels = len(SPARK_LEVELS)
    return "".join(SPARK_NONE if n == 0 else SPARK_LEVELS[max(1, -(-n * levels // top)) - 1] for n in counts)


GROUP_COLUMNS = ("count", "cause", "kind", "host", "path_pattern", "first_seen", "last_seen")


def groups_table(name: str, title: str, groups: Sequence[FailureGroup]) -> ExportTable:
    """The groups as a list to export: their four parts, count and first and last seen (ISO)."""
    records: tuple[dict[str, Cell], ...] = tuple(
        {
            "count": group.count,
            "cause": group.cause,
            "kind": group.kind,
            "host": group.host,
            "path_pattern": group.path,
            "first_seen": group.first_seen.isoformat(),
            "last_seen": group.last_seen.isoformat(),
        }
        for group in groups
    )
    return ExportTable(name, title, GROUP_COLUMNS, records)
