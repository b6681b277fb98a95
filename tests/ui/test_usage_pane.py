"""The token usage pane, driven with Pilot against the in-process emulator.

The emulator seeds five past months of usage for each of the team's two keys,
so the pane has six months (February to July 2026) to show.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from textual.message import Message

from tests.support.dashboard import dashboard, open_pane, settle
from tui.dashboard.features.usage.chart import UsageChart
from tui.dashboard.features.usage.pane import UsagePane, credits_text
from tui.dashboard.kit.chart_series import FRAME_ROWS, axis_ticks, human, tick_count
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.chart_bars import ChartBars
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.app import WdsApp
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

KEY = "wds-" + "a1" * 16
KEY_2 = "wds-" + "b2" * 16
START = datetime(2026, 7, 15, 12, 0, tzinfo=UTC)
MONTHS = ["2026-02", "2026-03", "2026-04", "2026-05", "2026-06", "2026-07"]


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    emulator = Emulator.from_keys({"team": [KEY, KEY_2]}, seed=5, clock=ManualClock(START))
    yield emulator
    await emulator.aclose()


@pytest.fixture
def app(emulator: Emulator) -> WdsApp:
    # The dashboard's clock is the emulator's: the months shown end at START's.
    return dashboard(emulator, key=KEY, clock=emulator.clock.now)


def rows(pane: UsagePane) -> list[list[str]]:
    table = pane.query_one(LiveTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


def wire_tokens(emulator: Emulator, by_key: bool) -> dict[tuple[str, str | None], int]:
    team = emulator.team_by_name("team")
    assert team is not None
    return {(p["startDate"][:7], p["apiKey"]): p["totalTokens"] for p in emulator.usage.periods(team.id, by_key)}


async def test_shows_each_month_with_tokens_and_credits(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        shown = rows(pane)

        assert [row[0] for row in shown] == list(reversed(MONTHS)), "newest month first"
        expected = wire_tokens(emulator, by_key=False)
        for month, key, tokens, credits in shown:
            assert key == "all keys"
            assert int(tokens.replace(",", "")) == expected[(month, None)]
            assert float(credits.replace(",", "")) == pytest.approx(expected[(month, None)] / 15, abs=0.05)

        chart = pane.query_one(UsageChart)
        plot = chart.query_one(ChartBars)
        assert plot.labels == tuple(MONTHS) and [s.name for s in plot.series] == ["all keys"]
        legend = str(chart.query_one(".chart-legend").render())
        assert "all keys" in legend and "tokens" in legend and "credits" in legend


async def test_by_key_shows_one_series_per_masked_key_and_never_a_whole_key(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        await pilot.press("k")
        await settle(pilot)

        shown = rows(pane)
        assert len(shown) == 2 * len(MONTHS)
        assert {row[1] for row in shown} == {"…a1a1", "…b2b2"}
        expected = wire_tokens(emulator, by_key=True)
        assert all(int(row[2].replace(",", "")) == expected[(row[0], row[1])] for row in shown)
        plot = pane.query_one(ChartBars)
        assert [s.name for s in plot.series] == ["…a1a1", "…b2b2"]

        screen = app.export_screenshot()
        assert "…a1a1" in screen and KEY not in screen and KEY_2 not in screen
        assert KEY[4:] not in screen and KEY_2[4:] not in screen

        await pilot.press("k")
        await settle(pilot)
        assert {row[1] for row in rows(pane)} == {"all keys"}


class CallCounter:
    """Counts the calls of `owner.name` from now on (the method still runs)."""

    def __init__(self, owner: Any, name: str) -> None:
        self.calls = 0
        original = getattr(owner, name)

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return original(*args, **kwargs)

        setattr(owner, name, counting)


async def test_unchanged_usage_draws_nothing_and_new_usage_redraws(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        renders = CallCounter(pane.query_one(ChartBars), "render")
        changes: list[bool] = []
        post = pane.post_message

        def recording_post(message: Message) -> bool:
            if isinstance(message, UsagePane.Refreshed):
                changes.append(message.changed)
            return post(message)

        pane.post_message = recording_post  # type: ignore[method-assign]

        pane.refresh_data()
        await settle(pilot)
        assert changes == [] and renders.calls == 0  # nothing new: no redraw, and nothing said to the app

        team = emulator.team_by_name("team")
        assert team is not None
        emulator.charge(team, KEY, 10)  # 150 more tokens this month
        pane.refresh_data()
        await settle(pilot)
        assert changes == [True] and renders.calls == 1
        july = rows(pane)[0]
        assert july[0] == "2026-07"
        assert int(july[2].replace(",", "")) == wire_tokens(emulator, by_key=False)[("2026-07", None)]


async def test_the_chart_coming_back_after_a_zoom_is_not_plotted_again(app: WdsApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        await pilot.pause()
        plot = pane.query_one(ChartBars)
        shown = plot.render_lines(plot.region.reset_offset)
        plots = CallCounter(plot, "_plot_picture")
        app.zoom(app.query_one("#activity", Pane))  # the chart is hidden...
        await pilot.pause()
        app.zoom(None)  # ...and back at the size it had
        await pilot.pause()
        assert plots.calls == 0
        assert plot.render_lines(plot.region.reset_offset) == shown


def summary(pane: UsagePane) -> list[str]:
    return str(pane.query_one(".usage-summary").render()).splitlines()


async def test_the_summary_says_which_number_is_this_month_and_which_the_total(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        await pilot.press("z")  # room for the full wording
        await pilot.pause()
        wire = wire_tokens(emulator, by_key=False)
        july = wire[("2026-07", None)]
        total = sum(wire.values())
        # 15 July 12:00 UTC: 14.5 of July's 31 days gone.
        projected = round(july * 31 / 14.5)
        assert summary(pane) == [
            f"July so far {july:,} tokens (projected {projected:,} by 31 Jul)",
            f"Total of the 6 months shown: {total:,} tokens = {credits_text(total)} credits",
        ]

        await pilot.press("k")  # by key: this month and the total are still every key's together
        await settle(pilot)
        assert summary(pane) == [
            f"July so far {july:,} tokens (projected {projected:,} by 31 Jul)",
            f"Total of the 6 months shown: {total:,} tokens = {credits_text(total)} credits",
        ]


async def test_a_narrow_pane_says_the_same_in_fewer_words(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        wire = wire_tokens(emulator, by_key=False)
        july, total = wire[("2026-07", None)], sum(wire.values())
        width = pane.query_one(".usage-summary").content_region.width
        lines = summary(pane)
        assert lines == [
            f"July {human(july)} so far, projected {human(round(july * 31 / 14.5))}",
            f"Total of 6 months: {human(total)} tokens",
        ]
        assert all(len(line) <= width for line in lines)  # nothing cut
        await pilot.press("z")  # zoomed: the full wording comes back
        await pilot.pause()
        assert summary(pane)[0].startswith(f"July so far {july:,} tokens (projected ")


async def test_the_projection_follows_the_clock_when_the_usage_does_not_change(app: WdsApp, emulator: Emulator) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, UsagePane)
        july = wire_tokens(emulator, by_key=False)[("2026-07", None)]
        emulator.clock.advance(24 * 3600 + 12 * 3600)  # 16 July 24:00: 16 days gone
        pane.refresh_data()
        await settle(pilot)
        assert wire_tokens(emulator, by_key=False)[("2026-07", None)] == july  # the same answer...
        assert summary(pane)[0] == f"July so far {july:,} tokens (projected {round(july * 31 / 16):,} by 31 Jul)"


@pytest.mark.parametrize("height", range(4, 14))
def test_an_axis_never_puts_two_ticks_on_one_row(height: int) -> None:
    # A capacity line above the chart can leave the bars 5 rows: a plot of 2.
    ticks = axis_ticks(351_255, tick_count(height))
    assert ticks[0] == 0 and ticks[-1] >= 351_255
    assert len(ticks) <= max(2, height - FRAME_ROWS)
