"""The shared look of job states: a symbol for every state, so colour is never the only cue."""

from __future__ import annotations

import pytest

from tui.dashboard.kit.formatting import middle_clip
from tui.dashboard.kit.status_look import FAILURE, RUNNING, SUCCESS, UNKNOWN, is_failure, look_of, state_text


@pytest.mark.parametrize(
    ("state", "look"),
    [("completed", SUCCESS), ("FAILED", FAILURE), ("scraping", RUNNING), ("brand-new", UNKNOWN), (None, UNKNOWN)],
)
def test_each_state_has_its_look(state: str | None, look: object) -> None:
    assert look_of(state) is look


def test_an_error_page_reads_as_a_failure_whatever_the_job_state() -> None:
    text = state_text("scraped", 404)
    assert text.plain == "✗ HTTP 404"
    assert is_failure("scraped", 404)
    assert not is_failure("scraped", 200)
    assert state_text("completed").plain == "✓ completed"


def test_every_look_has_a_symbol_distinct_from_the_others() -> None:
    symbols = {look.symbol for look in (SUCCESS, FAILURE, RUNNING, UNKNOWN)}
    assert len(symbols) == 4


@pytest.mark.parametrize(
    ("width", "expected"),
    [(20, "example.com/a/b/page"), (10, "examp…page"), (5, "ex…ge"), (2, "e…"), (1, "…"), (0, "")],
)
def test_middle_clip_keeps_both_ends(width: int, expected: str) -> None:
    assert middle_clip("example.com/a/b/page", width) == expected
    assert len(middle_clip("example.com/a/b/page", width)) == min(width, 20)
