"""The activity pane's columns at the dashboard's common widths: the kind is whole at 120 columns.

At 80 columns the pane is a quarter of the screen: the time loses its seconds,
the status keeps its symbol, the id goes and a long kind is cut to 6 cells.
"""

from __future__ import annotations

from rich.text import Text

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tui.dashboard.features.activity.pane import ActivityTable

KINDS = ["batch_scrape", "browser", "interact", "extract", "scrape", "crawl"]
STATUSES = ["✓ completed", "✗ failed", "◌ scraping", "✓ completed", "? expired", "✓ completed"]
TARGET = "docs.acme-outdoor.com/guides/waterproofing-your-boots-after-a-season"


def rows() -> list[tuple[str, tuple[str | Text, ...]]]:
    return [
        (f"row{n}", (f"11:4{n}:46", kind, Text(status), f"2d9f871{n}", TARGET))
        for n, (kind, status) in enumerate(zip(KINDS, STATUSES, strict=True))
    ]


async def shown_at(size: tuple[int, int]) -> tuple[list[str], list[list[str]]]:
    """The headers and the cells the activity table shows for `rows()` on the whole dashboard at `size`."""
    app = dashboard(seeded_emulator())
    async with app.run_test(size=size) as pilot:
        table = app.query_one(ActivityTable)
        await wait_until(pilot, lambda: table.row_count > 0, "the first activity page")
        await pilot.pause()
        table.sync(rows())  # read at once: the pane's next sync would put its own rows back
        headers = [str(column.label) for column in table.columns.values()]
        return headers, [[str(cell) for cell in table.get_row(key)] for key, _ in rows()]


async def test_at_120_columns_every_kind_is_whole() -> None:
    headers, cells = await shown_at((120, 40))
    kinds = [row[headers.index("kind")] for row in cells]
    assert kinds == KINDS
    assert all("…" in row[-1] for row in cells)  # the target gave way, not the kind


async def test_at_80_columns_the_id_goes_and_the_status_keeps_its_symbol() -> None:
    headers, cells = await shown_at((80, 24))
    assert "id" not in headers and "kind" in headers
    assert [row[headers.index("")] for row in cells] == [status.split()[0] for status in STATUSES]
    assert [row[0] for row in cells] == [f"11:4{n}" for n in range(len(KINDS))]
    kinds = [row[headers.index("kind")] for row in cells]
    assert kinds[0] == "bat…pe" and kinds[-2:] == ["scrape", "crawl"]  # cut only where longer than 6
