"""The capacity line's words (`tui.dashboard.features.usage.capacity`): what it says, and how it shortens to fit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rich.cells import cell_len

from tui.contract.models.team import CreditBalance, QueueStatus
from tui.dashboard.features.usage.capacity import Capacity, ago, capacity_rows, credits_part, fit_rows, queue_part

NOW = datetime(2025, 6, 15, 12, 0, tzinfo=UTC)


def queue(active: int, waiting: int, most: int | None = 2, success: datetime | None = None) -> QueueStatus:
    return QueueStatus(
        jobs_in_queue=active + waiting,
        active_jobs_in_queue=active,
        waiting_jobs_in_queue=waiting,
        max_concurrency=most,
        most_recent_success=success,
    )


def test_ago_says_minutes_hours_and_days() -> None:
    assert ago(NOW - timedelta(seconds=30), NOW) == ("just now", "now")
    assert ago(NOW + timedelta(seconds=5), NOW) == ("just now", "now"), "a service clock a little ahead"
    assert ago(NOW - timedelta(minutes=7, seconds=59), NOW) == ("7 min ago", "7m ago")
    assert ago(NOW - timedelta(hours=5), NOW) == ("5 h ago", "5h ago")
    assert ago(NOW - timedelta(days=3), NOW) == ("3 days ago", "3d ago")


def test_saturated_needs_every_worker_busy_and_something_waiting() -> None:
    assert queue(2, 1).saturated and queue(3, 1).saturated
    assert not queue(2, 0).saturated, "busy but nothing waits"
    assert not queue(1, 5).saturated, "a worker is free"
    assert not queue(5, 5, most=None).saturated, "no limit said: nothing to call saturated"
    assert queue_part(queue(2, 4))[0] == "Queue: 2 active, 4 waiting, max 2 ⚠ saturated"
    assert queue_part(queue(2, 4))[-1] == "Queue 2/2 +4 ⚠ full"
    assert queue_part(queue(1, 4, most=None))[0] == "Queue: 1 active, 4 waiting"


def test_credits_are_low_under_a_tenth_of_the_plan() -> None:
    assert credits_part(CreditBalance(remaining_credits=99, plan_credits=1000))[0].endswith("(9%) ⚠ low")
    assert credits_part(CreditBalance(remaining_credits=100, plan_credits=1000))[0].endswith("(10%)")
    unknown_plan = credits_part(CreditBalance(remaining_credits=5))
    assert unknown_plan[0] == "Credits: 5 left this period", "no plan: no share, no mark"


def test_no_success_yet_is_said_plainly() -> None:
    [_, second] = capacity_rows(Capacity(queue(0, 0), CreditBalance(remaining_credits=10, plan_credits=10)), NOW)
    assert second[-1][0] == "last success: none yet"


def test_rows_fit_one_row_when_wide_and_two_readable_rows_when_narrow() -> None:
    capacity = Capacity(
        queue(2, 24, success=NOW - timedelta(minutes=2)), CreditBalance(remaining_credits=8123, plan_credits=100_000)
    )
    rows = capacity_rows(capacity, NOW)
    [wide] = fit_rows(rows, 200)
    assert wide == (
        "Queue: 2 active, 24 waiting, max 2 ⚠ saturated · Credits: 8,123 of 100,000 left this period (8%) ⚠ low"
        " · last success 2 min ago"
    )
    assert fit_rows(rows, 56) == [
        "Queue: 2 active, 24 waiting, max 2 ⚠ saturated",
        "Credits 8,123 left (8%) ⚠ low · last success 2 min ago",
    ]
    narrow = fit_rows(rows, 36)
    assert narrow == ["Queue 2/2 active · 24 waiting ⚠ full", "8.1k credits (8%) ⚠ low · ok 2m ago"]
    assert all(cell_len(row) <= 36 for row in narrow)
    assert fit_rows(rows, 30) == ["Queue 2/2 · 24 waiting ⚠ full", "Credits 8,123 left (8%) ⚠ low"], (
        "the last success left out"
    )
