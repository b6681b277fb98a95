"""What a bar chart plots (named series of values, one per label) and how: colours, fills, round axis ticks.

Shared by the chart's container (`tui.dashboard.kit.widgets.bar_chart`) and its bars
(`tui.dashboard.kit.widgets.chart_bars`), which is imported only once there is something
to plot. The usage pane's tokens by month and the history screen's calls by day are
drawn by the same code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SeriesStyle:
    """How one series looks: plotext's colour name, Rich's name for the same ANSI colour, a fill."""

    plotext_colour: str
    rich_colour: str
    marker: str


# ANSI colours only (plotext calls ANSI yellow "orange"), each with a fill of
# its own so that series stay apart on a monochrome terminal too.
SERIES_STYLES: tuple[SeriesStyle, ...] = (
    SeriesStyle("cyan", "cyan", "█"),
    SeriesStyle("orange", "yellow", "▒"),
    SeriesStyle("magenta", "magenta", "▓"),
    SeriesStyle("green", "green", "░"),
    SeriesStyle("blue+", "bright_blue", "#"),
    SeriesStyle("red+", "bright_red", "="),
)

BAR_GROUP_WIDTH = 0.6
AXES_WIDTH = 16  # both y axes with their labels, roughly
FRAME_ROWS = 3
"""Rows of the bars that are not the plot: the frame's top and bottom, and the month labels."""


@dataclass(frozen=True)
class Series:
    """One bar per label (a month, a day): a name for the legend and a value per label."""

    name: str
    values: tuple[float, ...]


def style_of(index: int) -> SeriesStyle:
    """The look of the `index`-th series (cycling when there are more series than looks)."""
    return SERIES_STYLES[index % len(SERIES_STYLES)]


def human(value: float) -> str:
    """A short axis label with at most three significant digits: 950, 667, 1.5k, 12k, 1.2M."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1, "")):
        if abs(value) >= limit:
            scaled = value / limit
            digits = 0 if abs(scaled) >= 100 else 1
            return f"{scaled:.{digits}f}".removesuffix(".0") + suffix
    return f"{value:.2g}"


NICE_FACTORS = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)


def nice_step(raw: float) -> float:
    """The smallest round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) >= `raw`."""
    if raw <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(factor * magnitude for factor in NICE_FACTORS if factor * magnitude >= raw)


def tick_count(height: int) -> int:
    """How many ticks an axis of bars `height` rows tall takes: at most one a row of the plot, at least 0 and the top.

    Two ticks on one row would be drawn over each other, and which label
    plotext leaves there (the right axis' "13.3k" or "26.7k") is not fixed.
    """
    return max(2, min(3 if height < 10 else 5, height - FRAME_ROWS))


def axis_ticks(peak: float, most: int) -> list[float]:
    """Round tick values from 0 to just above `peak`, at most `most` of them."""
    step = nice_step(peak / (most - 1))
    count = max(1, math.ceil(peak / step))
    return [step * i for i in range(count + 1)]
