"""This month so far and its straight-line projection: the arithmetic at the month's edges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tui.dashboard.features.usage.projection import MIN_ELAPSED, MonthSoFar, this_month_short, this_month_text


def at(*args: int) -> MonthSoFar:
    return MonthSoFar.at(datetime(*args, tzinfo=UTC))


def test_mid_month_is_a_straight_line_to_the_month_s_end() -> None:
    june = at(2025, 6, 16)  # 15 of 30 days gone
    assert (june.label, june.name, june.last_day) == ("2025-06", "June", "30 Jun")
    assert june.projected(1_000) == 2_000
    assert this_month_text(june, 15_585) == "June so far 15,585 tokens (projected 31,170 by 30 Jun)"


def test_day_one_is_too_early_to_project() -> None:
    first = at(2025, 6, 1, 9, 30)
    assert first.projected(5_000) is None
    assert this_month_text(first, 5_000) == "June so far 5,000 tokens (too early to project before 2 Jun)"
    # From one full day on, the line is drawn: a day in, 30 days' worth.
    assert MonthSoFar.at(first.start + MIN_ELAPSED).projected(100) == 3_000


def test_the_last_day_projects_little_more_than_so_far() -> None:
    last = at(2025, 7, 31, 12)  # 30.5 of 31 days gone
    assert last.last_day == "31 Jul"
    assert last.projected(30_500) == 31_000
    # One second left: a billion tokens so far, 373 more by midnight.
    assert at(2025, 7, 31, 23, 59, 59).projected(10**9) == 1_000_000_373


@pytest.mark.parametrize(
    ("year", "days", "last_day"),
    [(2025, 28, "28 Feb"), (2024, 29, "29 Feb")],
    ids=["february", "february-of-a-leap-year"],
)
def test_february_is_as_long_as_it_is(year: int, days: int, last_day: str) -> None:
    feb = at(year, 2, 8)  # 7 days gone
    assert feb.last_day == last_day
    assert feb.projected(7_000) == days * 1_000
    assert (feb.end - feb.start) == timedelta(days=days)


def test_december_ends_at_new_year() -> None:
    december = at(2025, 12, 11)  # 10 of 31 days gone
    assert december.end == datetime(2026, 1, 1, tzinfo=UTC)
    assert december.projected(10_000) == 31_000 and december.last_day == "31 Dec"


def test_the_month_is_the_service_s_in_utc() -> None:
    # 23:00 on 30 June in UTC-5 is 04:00 on 1 July in UTC: July for the service, and too early.
    local = datetime(2025, 6, 30, 23, 0, tzinfo=timezone(timedelta(hours=-5)))
    month = MonthSoFar.at(local)
    assert month.label == "2025-07" and month.projected(10) is None


def test_the_short_wording_keeps_both_numbers() -> None:
    assert this_month_short(at(2025, 6, 16), 15_585) == "June 15.6k so far, projected 31.2k"
    assert this_month_short(at(2025, 6, 1), 120) == "June 120 so far, too early to project"
    assert this_month_short(at(2025, 11, 24), 25_155, abbreviated=True) == "Nov 25.2k so far, projected 32.8k"
