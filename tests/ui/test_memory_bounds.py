"""The dashboard stays the same size however long it runs (issue 9: steady for days).

What grew, found with tracemalloc (tests/benchmarks/bench_memory.py): every
rebuild of the footer (each time the keys on offer change) left the old keys
alive in Textual's watcher list; and each table's render caches filled with
old versions of polled rows, up to DataTable's 10,000 cells. Here the rebuilds
and polls happen many times and what is still alive is counted.
"""

from __future__ import annotations

import gc
import time

from textual.widget import Widget

from tests.support.dashboard import dashboard, seeded_emulator, settle
from tui.dashboard.features.console.history import ConsoleTarget
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.footer_key import FooterKey

REBUILDS = 20


def alive(kind: type) -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if isinstance(obj, kind))


async def rebuilt(pilot, footer: Widget) -> None:  # type: ignore[no-untyped-def]
    """Ask the screen to refresh its bindings (what a change of the keys on offer does) and wait for the rebuild."""
    before = footer.children[0] if footer.children else None
    pilot.app.screen.refresh_bindings()
    deadline = time.monotonic() + 10
    while not footer.children or footer.children[0] is before:
        assert time.monotonic() < deadline, "the footer was not rebuilt"
        await pilot.pause(0.005)


def at_most_one_rebuild_more(baseline: int, shown: int) -> int:
    """The bound on keys alive: the last rebuild's old keys may still be on their way out.

    Textual removes widgets in a later message, so right after a rebuild one
    earlier set can still be alive (a loaded machine showed it once). A leak
    keeps every set: 20 rebuilds of 8 keys would be 160 more.
    """
    return baseline + shown


async def rebuild_footer(pilot, times: int) -> None:  # type: ignore[no-untyped-def]
    footer = pilot.app.screen.query_one(Footer)
    for _ in range(times):
        await rebuilt(pilot, footer)


async def test_the_dashboards_footer_keeps_no_keys_from_earlier_rebuilds() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await rebuild_footer(pilot, 3)
        shown = len(app.screen.query(FooterKey))
        baseline = alive(FooterKey)
        await rebuild_footer(pilot, REBUILDS)
        assert alive(FooterKey) <= at_most_one_rebuild_more(baseline, shown), "every rebuild left its keys alive"
        assert len(app.screen.query(FooterKey)) == shown  # the footer still shows its keys


async def test_bindings_that_change_on_every_poll_do_not_grow_the_footer() -> None:
    """Live traffic: the activity pane's keys ("Next page", "Interact") change as rows arrive."""
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")  # the activity pane: its cursor decides whether "Interact" is on offer
        baseline = alive(FooterKey)
        for _ in range(REBUILDS // 2):
            await pilot.press("down")
            await pilot.press("up")
            await rebuilt(pilot, app.screen.query_one(Footer))
        assert alive(FooterKey) <= at_most_one_rebuild_more(baseline, len(app.screen.query(FooterKey)))


async def test_the_consoles_footer_keeps_no_keys_from_earlier_rebuilds() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await app.push_screen(ConsoleScreen(app.client, ConsoleTarget.for_interact("job-1"), clock=app.clock))
        await pilot.pause()
        await rebuild_footer(pilot, 3)
        shown = len(app.screen.query(FooterKey))
        baseline = alive(FooterKey)
        await rebuild_footer(pilot, REBUILDS)
        assert alive(FooterKey) <= at_most_one_rebuild_more(baseline, shown), "every rebuild left its keys alive"


async def test_textuals_own_footer_keeps_the_keys_of_every_rebuild() -> None:
    """The leak our footer avoids, on a bare Textual app (the reproduction for an upstream report).

    Textual's Footer binds each key to its `compact` reactive (`data_bind`); the
    footer's watcher list keeps every key it ever built until `compact` changes.
    When this fails, Textual has fixed it and `tui.dashboard.kit.widgets.footer` may data_bind again.
    """
    from textual.app import App, ComposeResult
    from textual.widgets import Footer as TextualFooter
    from textual.widgets._footer import FooterKey as TextualFooterKey  # private: the bare app's keys are Textual's

    class Bare(App[None]):
        BINDINGS = [("x", "bell", "Bell")]

        def compose(self) -> ComposeResult:
            yield TextualFooter()

    app = Bare()
    async with app.run_test() as pilot:
        await pilot.pause()
        baseline = alive(TextualFooterKey)
        for _ in range(REBUILDS):
            await rebuilt(pilot, app.screen.query_one(TextualFooter))
        assert alive(TextualFooterKey) >= baseline + REBUILDS // 2, "Textual's Footer no longer keeps its old keys"


async def test_a_live_tables_render_caches_stay_small_however_often_its_rows_change() -> None:
    """Every poll that changes a row leaves old drawings of it in the table's line cache (keyed by the row's version)."""
    from textual.app import App, ComposeResult

    from tui.dashboard.kit.widgets.live_table import LINE_CACHE, LiveTable

    class TableApp(App[None]):
        def compose(self) -> ComposeResult:
            yield LiveTable("id", "progress", "target")

    app = TableApp()
    async with app.run_test(size=(100, 40)) as pilot:
        table = app.query_one(LiveTable)
        for poll in range(120):
            table.sync(
                [(f"job-{n}", (f"job-{n}", f"{poll + n} / 500", f"https://site-{n}.example/")) for n in range(30)]
            )
            await pilot.pause()  # drawn, as on a screen
        assert len(table._lines) <= LINE_CACHE
        assert LINE_CACHE < 1_000  # DataTable's own size, which a live table filled
