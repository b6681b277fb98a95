"""The triage view (c): a window's failures grouped by cause, host, path pattern and kind, on the seeded emulator.

The failures are made on the emulator (`tests/ui/triage_helpers.py`): 404s on
three paths over the last hour, two of them with numbers that the path
pattern collapses.
"""

from __future__ import annotations

from datetime import timedelta

from textual.pilot import Pilot
from textual.widgets import Label

from tests.support.dashboard import wait_until
from tests.ui.triage_helpers import END, expected_groups, pane_ready, press_window, produce_failures, window_host
from tui.api.client import WdsClient
from tui.contract.models import ActivityEntry
from tui.contract.models.job_summary import JobSummary
from tui.dashboard.features.activity.failed_search import Found
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.activity.job_states import RowStatus
from tui.dashboard.features.activity.rows import ActivityTable
from tui.dashboard.features.activity.triage import GroupTable, TriageScreen
from tui.dashboard.features.activity.triage_groups import SPARK_BUCKETS, SPARK_NONE, cause_of, path_pattern, sparkline
from tui.dashboard.features.activity.triage_jobs import FailureGroupScreen
from tui.dashboard.kit.formatting import clock_time
from tui.dashboard.shell.intents import OpenJob, OpenTriage
from tui.emulator.core.clock import ManualClock


async def open_triage(pilot: Pilot) -> TriageScreen:
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, TriageScreen), "the triage view")
    screen = pilot.app.screen
    assert isinstance(screen, TriageScreen)
    await wait_until(pilot, lambda: screen.walk.state.finished and not screen.walking, "the walk", 15)
    await pilot.pause()
    return screen


def table_rows(screen: TriageScreen) -> dict[tuple[str, str], list[str]]:
    """(host, path) -> the group's cells as shown."""
    table = screen.query_one(GroupTable)
    rows = [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]
    return {(row[3], row[4]): row for row in rows}


async def test_triage_groups_the_windows_404s_by_path_with_counts_times_and_a_sparkline(
    client: WdsClient, clock: ManualClock
) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(160, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        screen = await open_triage(pilot)
        assert isinstance(app.intents[-1], OpenTriage) and app.intents[-1].window == timedelta(hours=1)
        assert str(screen.query_one("#triage-title", Label).render()) == "Failures by cause · last 1 h · all kinds"

        expected = expected_groups(made, END - timedelta(hours=1))
        shown = table_rows(screen)
        assert set(shown) == set(expected) and len(shown) == 3
        for (host, path), jobs in expected.items():
            count, cause, kind, _, _, first, last, spark = shown[(host, path)]
            assert (count, cause, kind) == (str(len(jobs)), "HTTP 404", "scrape")
            assert first == clock_time(jobs[-1].at, END) and last == clock_time(jobs[0].at, END)
            assert len(spark) == SPARK_BUCKETS
            buckets = {int((m.at - (END - timedelta(hours=1))) / timedelta(hours=1) * SPARK_BUCKETS) for m in jobs}
            assert {i for i, c in enumerate(spark) if c != SPARK_NONE} == buckets
        # The most frequent first: /product/{n} (4), /old-pricing (3), /gone/{n} (2).
        order = [screen.groups[key].path for key in screen.query_one(GroupTable).row_keys]
        assert order == ["/product/{n}", "/old-pricing", "/gone/{n}"]


async def test_enter_lists_a_groups_jobs_and_enter_on_a_job_opens_it(client: WdsClient, clock: ManualClock) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        screen = await open_triage(pilot)
        await pilot.press("down")  # the second group: /old-pricing
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FailureGroupScreen), "the group's jobs")
        group_screen = app.screen
        assert isinstance(group_screen, FailureGroupScreen)
        await pilot.pause()
        wanted = expected_groups(made, END - timedelta(hours=1))[("acme-outdoor.com", "/old-pricing")]
        table = group_screen.query_one(ActivityTable)
        assert [group_screen.jobs[key].entry.id for key in table.row_keys] == [m.job_id for m in wanted]
        title = str(group_screen.query_one(".group-title", Label).render())
        assert title == "3 failures · HTTP 404 · scrape · acme-outdoor.com/old-pricing · last 1 h"

        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, JobDetailScreen), "the job")
        opened = app.intents[-1]
        assert isinstance(opened, OpenJob) and (opened.endpoint, opened.job_id) == ("scrape", wanted[0].job_id)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is group_screen, "back on the group")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen, "back on the groups")


async def test_y_and_Y_copy_a_group_jobs_id_and_status_url(client: WdsClient, clock: ManualClock) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        await open_triage(pilot)
        await pilot.press("down", "enter")  # the second group: /old-pricing
        await wait_until(pilot, lambda: isinstance(app.screen, FailureGroupScreen), "the group's jobs")
        await pilot.pause()
        wanted = expected_groups(made, END - timedelta(hours=1))[("acme-outdoor.com", "/old-pricing")]
        await pilot.press("down")  # the second job of the group
        await pilot.press("y")
        assert app.clipboard == wanted[1].job_id
        await pilot.press("Y")
        assert app.clipboard == f"{client.base_url.rstrip('/')}/v2/scrape/{wanted[1].job_id}"


async def test_the_15_minute_window_groups_only_its_failures_and_t_widens_it(
    client: WdsClient, clock: ManualClock
) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(160, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "15 min")
        screen = await open_triage(pilot)
        expected = expected_groups(made, END - timedelta(minutes=15))
        assert {key: row[0] for key, row in table_rows(screen).items()} == {
            key: str(len(jobs)) for key, jobs in expected.items()
        }
        await pilot.press("t")  # 15 min -> 1 h: walked again
        await wait_until(pilot, lambda: screen.window == timedelta(hours=1), "the next window")
        await wait_until(pilot, lambda: screen.walk.state.finished and not screen.walking, "the walk", 15)
        await pilot.pause()
        expected = expected_groups(made, END - timedelta(hours=1))
        assert {key: row[0] for key, row in table_rows(screen).items()} == {
            key: str(len(jobs)) for key, jobs in expected.items()
        }


async def test_the_failed_view_opens_the_triage_of_its_window(client: WdsClient, clock: ManualClock) -> None:
    await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        await pilot.press("e")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "FailedJobsScreen", "the failed view")
        screen = await open_triage(pilot)
        assert screen.window == timedelta(hours=1) and len(screen.groups) == 3


def test_path_patterns_collapse_numbers_and_ids() -> None:
    assert path_pattern("https://shop.example/product/123?ref=x") == "/product/{n}"
    assert path_pattern("https://shop.example/order/3f9c2a71-0b1d-4e55-9a60-1c2d3e4f5a6b/items") == "/order/{id}/items"
    assert path_pattern("https://blog.example/2024/winter-riding") == "/{n}/winter-riding"
    assert path_pattern("https://blog.example/page-12") == "/page-{n}"
    assert path_pattern("https://example.com") == "/"
    assert path_pattern(None) == "—"


def test_a_cause_is_the_http_status_else_the_error_code_else_the_first_clause() -> None:
    def cause(summary: JobSummary) -> str:
        entry = ActivityEntry(id="j", endpoint="agent", created_at=END)
        return cause_of(Found(entry, RowStatus.of(summary)))

    assert cause(JobSummary("failed", 404, "HTTP 404: Not Found", finished=True)) == "HTTP 404"
    assert (
        cause(JobSummary("failed", error="SCRAPE_TIMEOUT: gave up after 30000 ms", finished=True)) == "SCRAPE_TIMEOUT"
    )
    long = "This job needs an LLM, and the emulator has none: extract and agent jobs are recorded"
    assert cause(JobSummary("failed", error=long, finished=True)) == "This job needs an LLM"
    assert (
        cause(JobSummary("failed", error="Timed out after 30000 ms: slow", finished=True)) == "Timed out after {n} ms"
    )
    assert cause(JobSummary("failed", finished=True)) == "failed"


def test_the_sparkline_scales_to_its_busiest_bucket_and_keeps_jobs_newer_than_the_window() -> None:
    since, hour = END - timedelta(hours=1), timedelta(hours=1)
    times = [since + timedelta(minutes=2)] * 4 + [since + timedelta(minutes=31)] + [END + timedelta(seconds=5)]
    assert sparkline(times, since, hour) == "█·····▂····▂"  # 4 jobs, 1 job, and 1 that came after the end
    assert sparkline([], since, hour) == SPARK_NONE * SPARK_BUCKETS
    assert sparkline([since - timedelta(minutes=1)], since, hour) == SPARK_NONE * SPARK_BUCKETS  # before the window
