"""The usage pane's chart: tokens per month on the left axis, the same heights in credits on the right.

The kit's bar chart (`tui.dashboard.kit.widgets.bar_chart`), one series per key (or the
team's total) side by side in each month.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.dashboard.kit.chart_series import human
from tui.dashboard.kit.widgets.bar_chart import BarChart

if TYPE_CHECKING:
    from tui.dashboard.kit.widgets.chart_bars import ChartBars

MONTH_LABEL_WIDTH = len("2026-07")


def credits_label(tokens: float) -> str:
    """The right axis' label for a height in tokens: the credits they cost."""
    return human(tokens / TOKENS_PER_CREDIT)


class UsageChart(BarChart):
    """Bars of tokens per month, one colour-and-fill per series, with a legend line."""

    DEFAULT_CSS = """
    UsageChart { height: 1fr; min-height: 5; }
    """

    AXES_NOTE = "left tokens · right credits"
    EMPTY = "No usage recorded yet."

    def make_bars(self) -> ChartBars:
        from tui.dashboard.kit.widgets.chart_bars import ChartBars

        return ChartBars(label_width=MONTH_LABEL_WIDTH, right_axis=credits_label)
