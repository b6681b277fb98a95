"""The alert rules: one pydantic model per kind, its limits validated, its meaning in one line.

A rule only says *when* an alert holds; `job_watchers.py` and `service_watchers.py`
keep what each needs to know, and `engine.py` turns holding into fired,
repeated and resolved. Every rule has a `name` (the alert's first half; the
second is its subject: a host, a crawl id, ...), can be turned off, and repeats
every `repeat_minutes` while it holds.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Minutes = float


class Rule(BaseModel):
    """What every rule has: a name, on or off, and how often a holding alert is said again."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ClassVar[str]
    description: ClassVar[str]
    """The rule kind in one line, for `wds-tui config` and the README."""

    name: str = Field("", description="the alert's name; the kind when not given")
    enabled: bool = True
    repeat_minutes: Minutes = Field(30, gt=0, le=7 * 24 * 60)

    @model_validator(mode="after")
    def _name_defaults_to_kind(self) -> Rule:
        if not self.name:
            object.__setattr__(self, "name", self.kind)
        return self

    def settings(self) -> str:
        """This rule's own values in words (`3 in 10 min, by host`); `describe_rules` prints it."""
        raise NotImplementedError


class JobFailedRule(Rule):
    """Jobs failed: `count` failures within `window_minutes`, grouped by host, kind or status."""

    kind: ClassVar[str] = "job_failed"
    description: ClassVar[str] = "jobs failed: a count of failures within a window, by host, kind or status"

    count: int = Field(3, ge=1, le=10_000)
    window_minutes: Minutes = Field(10, gt=0, le=24 * 60)
    by: Literal["host", "kind", "status"] = "host"
    job_kinds: tuple[str, ...] = Field((), description="only these kinds (scrape, crawl, ...); all when empty")
    statuses: tuple[int, ...] = Field((), description="only these HTTP statuses; any failure when empty")
    hosts: tuple[str, ...] = Field((), description="only these hosts; all when empty")

    def settings(self) -> str:
        only = [f"{label} {', '.join(map(str, values))}" for label, values in self._filters() if values]
        return f"{self.count} in {_minutes(self.window_minutes)}, by {self.by}" + "".join(f"; only {o}" for o in only)

    def _filters(self) -> list[tuple[str, tuple[object, ...]]]:
        return [("kinds", self.job_kinds), ("statuses", self.statuses), ("hosts", self.hosts)]


class CrawlEndedRule(Rule):
    """A crawl ended badly (failed or cancelled); the alert holds for `window_minutes` after."""

    kind: ClassVar[str] = "crawl_failed"
    description: ClassVar[str] = "a crawl failed or was cancelled"

    states: tuple[Literal["failed", "cancelled"], ...] = Field(("failed", "cancelled"), min_length=1)
    window_minutes: Minutes = Field(60, gt=0, le=7 * 24 * 60)

    def settings(self) -> str:
        return f"{' or '.join(self.states)}; firing for {_minutes(self.window_minutes)} after it ends"


class CrawlStalledRule(Rule):
    """A running crawl whose completed pages have not grown for `minutes`."""

    kind: ClassVar[str] = "crawl_stalled"
    description: ClassVar[str] = "a crawl stalled: no new pages for N minutes"

    minutes: Minutes = Field(10, gt=0, le=24 * 60)

    def settings(self) -> str:
        return f"no new page for {_minutes(self.minutes)}"


class BatchFailedRule(Rule):
    """A batch scrape finished with more than `max_failed_percent` of its pages failed."""

    kind: ClassVar[str] = "batch_failed"
    description: ClassVar[str] = "a batch finished with more than X% of its pages failed"

    max_failed_percent: float = Field(10, ge=0, lt=100)
    window_minutes: Minutes = Field(60, gt=0, le=7 * 24 * 60)

    def settings(self) -> str:
        return f"over {self.max_failed_percent:g}% failed; firing for {_minutes(self.window_minutes)} after it finishes"


class SessionExpiringRule(Rule):
    """A browser session still active expires within `minutes`."""

    kind: ClassVar[str] = "session_expiring"
    description: ClassVar[str] = "a browser session expires within N minutes"

    minutes: Minutes = Field(5, gt=0, le=24 * 60)

    def settings(self) -> str:
        return f"within {_minutes(self.minutes)}"


class CreditsRule(Rule):
    """Credits: this period's use projected over `budget`, or less than `min_remaining_percent` of the plan left."""

    kind: ClassVar[str] = "credits"
    description: ClassVar[str] = "credits this period projected over a budget, or remaining under X%"

    budget: float | None = Field(None, gt=0)
    min_remaining_percent: float | None = Field(10, gt=0, lt=100)

    @model_validator(mode="after")
    def _one_limit_at_least(self) -> CreditsRule:
        if self.budget is None and self.min_remaining_percent is None:
            raise ValueError("give budget, min_remaining_percent or both")
        return self

    def settings(self) -> str:
        parts = [f"projected over {self.budget:g}"] if self.budget is not None else []
        if self.min_remaining_percent is not None:
            parts.append(f"under {self.min_remaining_percent:g}% left")
        return " or ".join(parts)


class UsageSpikeRule(Rule):
    """An hour's credits over `factor` times the median of the hours before it (once `min_hours` are known)."""

    kind: ClassVar[str] = "usage_spike"
    description: ClassVar[str] = "usage per hour over k times its median"

    factor: float = Field(3, gt=1, le=1000)
    min_hours: int = Field(6, ge=2, le=24 * 31)
    history_hours: int = Field(7 * 24, ge=2, le=24 * 31)

    @model_validator(mode="after")
    def _history_holds_the_minimum(self) -> UsageSpikeRule:
        if self.history_hours < self.min_hours:
            raise ValueError("history_hours must be at least min_hours")
        return self

    def settings(self) -> str:
        return f"over {self.factor:g}x the median of the last {self.history_hours} h (from {self.min_hours} h known)"


class QueueSaturatedRule(Rule):
    """Every worker busy and jobs waiting, for `minutes` without a break."""

    kind: ClassVar[str] = "queue_saturated"
    description: ClassVar[str] = "the queue saturated for N minutes"

    minutes: Minutes = Field(10, gt=0, le=24 * 60)

    def settings(self) -> str:
        return f"for {_minutes(self.minutes)}"


class ServiceDownRule(Rule):
    """The service unreachable, or the key refused, for `minutes` without a good answer."""

    kind: ClassVar[str] = "service_down"
    description: ClassVar[str] = "the service unreachable, or the key refused, for N minutes"

    minutes: Minutes = Field(3, gt=0, le=24 * 60)

    def settings(self) -> str:
        return f"for {_minutes(self.minutes)}"


class WebhookUnverifiedRule(Rule):
    """`count` webhook deliveries whose signature did not check out, within `window_minutes`."""

    kind: ClassVar[str] = "webhook_unverified"
    description: ClassVar[str] = "unverified webhook deliveries arrived"

    count: int = Field(1, ge=1, le=10_000)
    window_minutes: Minutes = Field(60, gt=0, le=7 * 24 * 60)

    def settings(self) -> str:
        return f"{self.count} in {_minutes(self.window_minutes)}"


RULE_KINDS: dict[str, type[Rule]] = {
    rule.kind: rule
    for rule in (
        JobFailedRule,
        CrawlEndedRule,
        CrawlStalledRule,
        BatchFailedRule,
        SessionExpiringRule,
        CreditsRule,
        UsageSpikeRule,
        QueueSaturatedRule,
        ServiceDownRule,
        WebhookUnverifiedRule,
    )
}
"""Every rule kind by the name its `[alerts]` table uses, in the order they are listed."""


def _minutes(value: float) -> str:
    return f"{value:g} min" if value < 120 or value % 60 else f"{value / 60:g} h"
