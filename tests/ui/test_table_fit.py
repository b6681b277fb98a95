"""Which columns give way, and how, when a table's rows are wider than the table (`plan_fit`)."""

from __future__ import annotations

from rich.text import Text

from tui.dashboard.kit.widgets.table_fit import (
    Drop,
    Shorten,
    Squeeze,
    first_word,
    plan_fit,
    without_colour,
    without_seconds,
)

COLUMNS = ("time", "kind", "status", "id", "target")
URL = "northwind.dev/blog/6-notes-on-tyre-pressure"
ROWS = [("11:41:46", "interact", Text("✓ completed", style="green"), "945975b4", URL)]
STEPS = (
    Squeeze("target", 12),
    Shorten("time", without_seconds),
    Squeeze("kind", 6),
    Shorten("status", first_word, label=""),
    Drop("id"),
)
GUTTER = 2


def shown(room: int) -> list[str]:
    fit = plan_fit(COLUMNS, ROWS, STEPS, room, GUTTER)
    return [str(cell) for cell in fit.cells(ROWS[0])]


def width(cells: list[str]) -> int:
    return sum(len(cell) + GUTTER for cell in cells)


def test_rows_that_fit_are_left_whole() -> None:
    assert shown(200) == ["11:41:46", "interact", "✓ completed", "945975b4", URL]


def test_the_first_step_gives_way_first_and_gets_back_the_room_left() -> None:
    cells = shown(70)
    assert cells[:4] == ["11:41:46", "interact", "✓ completed", "945975b4"]
    assert "…" in cells[4] and cells[4].startswith("north") and width(cells) == 70


def test_later_steps_shorten_then_drop_and_the_target_keeps_what_is_left() -> None:
    at_120 = shown(54)  # half of a 120-column screen, inside the border and padding
    assert at_120[:4] == ["11:41", "interact", "✓ completed", "945975b4"] and len(at_120[4]) >= 12
    at_80 = shown(34)
    assert at_80[:3] == ["11:41", "int…ct", "✓"] and len(at_80) == 4  # the id gave way
    assert "…" in at_80[3] and len(at_80[3]) >= 12 and width(at_80) <= 34


def test_headers_follow_the_steps() -> None:
    fit = plan_fit(COLUMNS, ROWS, STEPS, 34, GUTTER)
    assert [label for _, label in fit.labels(COLUMNS)] == ["time", "kind", "", "target"]
    assert [key for key, _ in fit.labels(COLUMNS)] == ["time", "kind", "status", "target"]


def test_short_forms() -> None:
    assert without_seconds("11:41:46") == "11:41"
    assert without_seconds("06-14 23:07") == "06-14"  # another day: its date
    assert without_seconds("12:15:00 idle") == "12:15 idle"
    assert without_seconds("ended") == "ended"
    status = first_word(Text("✗ HTTP 404", style="bold red"))
    assert isinstance(status, Text) and status.plain == "✗" and "red" in str(status.style)


def test_without_colour_keeps_bold_and_the_text() -> None:
    plain = without_colour(Text("✗ failed", style="bold red"))
    assert isinstance(plain, Text) and plain.plain == "✗ failed"
    assert plain.style.color is None and plain.style.bold
