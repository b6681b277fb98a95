"""The team's capacity in words: the queue, the credits left, the last success, and when to worry.

Pure: from one look at the service (`Capacity`) and the time now to the
line's parts, each in a few wordings, longest first; `fit_rows` picks the
longest that fits the width, on one row or, when narrow, two. A warning is a
glyph and a word ("⚠ saturated", "⚠ low"), never a colour alone.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from datetime import datetime

from rich.cells import cell_len

from tui.contract.models.team import CreditBalance, QueueStatus
from tui.dashboard.kit.chart_series import human

LOW_CREDITS_SHARE = 0.10
"""Below this share of the plan's credits left, the line says they run low."""
SEPARATOR = " · "

Part = tuple[str, ...]
"""One part of the line in a few wordings, longest first."""


@dataclass(frozen=True)
class Capacity:
    """One look at the team's capacity; None for a call the service does not offer."""

    queue: QueueStatus | None
    credits: CreditBalance | None

    @property
    def offered(self) -> bool:
        """Whether the service offers any of the calls: if not, there is nothing to say."""
        return self.queue is not None or self.credits is not None

    @property
    def saturated(self) -> bool:
        return self.queue is not None and self.queue.saturated

    @property
    def credits_low(self) -> bool:
        return self.credits is not None and credits_low(self.credits)

    @property
    def alarming(self) -> bool:
        """Marked: the queue is saturated or the credits run low."""
        return self.saturated or self.credits_low


def credits_low(balance: CreditBalance) -> bool:
    """Under a tenth of the plan's credits left (unknown plan: never)."""
    share = balance.share_left
    return share is not None and share < LOW_CREDITS_SHARE


def queue_part(queue: QueueStatus) -> Part:
    """`Queue: 2 active, 4 waiting, max 2 ⚠ saturated` down to `Queue 2/2 +4 ⚠ full`."""
    active, waiting, most = queue.active_jobs_in_queue, queue.waiting_jobs_in_queue, queue.max_concurrency
    mark, short_mark = (" ⚠ saturated", " ⚠ full") if queue.saturated else ("", "")
    if most is None:  # a service that does not say its limit
        return (
            f"Queue: {active} active, {waiting} waiting{mark}",
            f"Queue {active} active · {waiting} waiting{short_mark}",
            f"Queue {active} +{waiting}{short_mark}",
        )
    return (
        f"Queue: {active} active, {waiting} waiting, max {most}{mark}",
        f"Queue {active}/{most} active · {waiting} waiting{mark}",
        f"Queue {active}/{most} active · {waiting} waiting{short_mark}",
        f"Queue {active}/{most} · {waiting} waiting{short_mark}",
        f"Queue {active}/{most} +{waiting}{short_mark}",
    )


def credits_part(balance: CreditBalance) -> Part:
    """`Credits: 8,123 of 100,000 left this period (8%) ⚠ low` down to `8.1k credits (8%) ⚠ low`."""
    left = f"{balance.remaining_credits:,.0f}"
    share = balance.share_left
    percent = "" if share is None else f" ({math.floor(share * 100)}%)"  # floor: 9.6% left is not "10%"
    of_plan = "" if balance.plan_credits is None else f" of {balance.plan_credits:,.0f}"
    mark = " ⚠ low" if credits_low(balance) else ""
    return (
        f"Credits: {left}{of_plan} left this period{percent}{mark}",
        f"Credits {left} left{percent}{mark}",
        f"{human(balance.remaining_credits)} credits{percent}{mark}",
    )


def success_part(at: datetime | None, now: datetime) -> Part:
    """`last success 2 min ago` down to `ok 2m ago`; `last success: none yet` before any."""
    if at is None:
        return ("last success: none yet", "last ok: none", "ok: none")
    long, short = ago(at, now)
    return (f"last success {long}", f"last ok {long}", f"ok {long}", f"ok {short}")


def ago(at: datetime, now: datetime) -> tuple[str, str]:
    """How long before `now` `at` was, in words and in short: ("3 min ago", "3m ago")."""
    seconds = (now - at).total_seconds()  # a service clock a little ahead reads as "just now"
    if seconds < 60:
        return "just now", "now"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min ago", f"{minutes}m ago"
    hours = minutes // 60
    if hours < 48:
        return f"{hours} h ago", f"{hours}h ago"
    days = hours // 24
    return f"{days} days ago", f"{days}d ago"


def capacity_rows(capacity: Capacity, now: datetime) -> tuple[tuple[Part, ...], ...]:
    """The line's parts by row when it must take two: the queue, then credits and the last success.

    A call the service does not offer leaves its part out.
    """
    first: list[Part] = []
    second: list[Part] = []
    if capacity.queue is not None:
        first.append(queue_part(capacity.queue))
    if capacity.credits is not None:
        second.append(credits_part(capacity.credits))
    if capacity.queue is not None:
        second.append(success_part(capacity.queue.most_recent_success, now))
    return tuple(row for row in (tuple(first), tuple(second)) if row)


def fit(parts: tuple[Part, ...], width: int, terseness: int = 10) -> str | None:
    """The parts on one row, in the wordings that say the most within `width`; None if none fits.

    Each part shortens on its own (a long queue part may stay whole beside a
    short credits part), down to its `terseness`-th wording at most.
    """
    lines = (SEPARATOR.join(words) for words in itertools.product(*(part[:terseness] for part in parts)))
    return max((line for line in lines if cell_len(line) <= width), key=cell_len, default=None)


def shortest(parts: tuple[Part, ...]) -> str:
    return SEPARATOR.join(part[-1] for part in parts)


def fit_rows(rows: tuple[tuple[Part, ...], ...], width: int) -> list[str]:
    """One row if everything fits on it in plain words, else a row each (see `fit_dropping`).

    Two readable rows beat one row of abbreviations: one row takes each part's
    first two wordings only.
    """
    if not rows:
        return []
    together = fit(tuple(part for row in rows for part in row), width, terseness=2)
    if together is not None:
        return [together]
    return [fit_dropping(row, width) for row in rows]


def fit_dropping(row: tuple[Part, ...], width: int) -> str:
    """The row fitted to `width`, leaving out its last parts while even their shortest wordings are too wide.

    Only its first part, too wide even so, is cut (and ends in …): never a word at the end.
    """
    for count in range(len(row), 0, -1):
        line = fit(row[:count], width)
        if line is not None:
            return line
    return shortest(row[:1])
