"""The bars of the usage chart: a PlotextPlot whose axes are fitted to its size at render time.

Apart from `tui.dashboard.features.usage.chart` so that plotext is imported only when
there is usage to plot, not while the dashboard starts.
"""

from __future__ import annotations

import math

from textual.app import RenderResult
from textual_plotext import PlotextPlot

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.dashboard.features.usage.series import (
    AXES_WIDTH,
    BAR_GROUP_WIDTH,
    MONTH_LABEL_WIDTH,
    Series,
    axis_ticks,
    human,
    style_of,
    tick_count,
)


class UsageBars(PlotextPlot):
    """The bars themselves (a PlotextPlot); axis ticks are fitted to the size at render time."""

    DEFAULT_CSS = """
    UsageBars { height: 1fr; min-height: 4; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.months: tuple[str, ...] = ()
        self.series: tuple[Series, ...] = ()
        self._picture: tuple[tuple[object, ...], RenderResult] | None = None

    def draw(self, months: tuple[str, ...], series: tuple[Series, ...]) -> None:
        """Replace the data and redraw once."""
        self.months, self.series = months, series
        self.refresh()

    def render(self) -> RenderResult:
        # Plotting is most of the cost of drawing the pane, and Textual asks again
        # whenever the chart reappears (another pane zoomed and back): the same data
        # at the same size in the same theme is the same picture.
        key = (self.size, self.months, self.series, self.app.theme, self.theme)
        if self._picture is None or self._picture[0] != key:
            self._picture = (key, self._plot_picture())
        return self._picture[1]

    def _plot_picture(self) -> RenderResult:
        plt = self.plt
        plt.clear_figure()  # also forgets the previous data's ticks and limits
        if self.months and self.series:
            styles = [style_of(i) for i in range(len(self.series))]
            plt.multiple_bar(
                list(self.months),
                [list(s.tokens) for s in self.series],
                color=[s.plotext_colour for s in styles],  # type: ignore[arg-type]  # textual-plotext's stub wants one colour; plotext takes one per series
                marker=[s.marker for s in styles],  # type: ignore[arg-type]  # textual-plotext's stub wants one marker; plotext takes one per series
                # plotext's default (0.8 of a month) closes the gaps between
                # months once rounded to a few columns; 0.6 keeps them visible.
                width=BAR_GROUP_WIDTH,
            )
            self._fit_axes()
        return super().render()

    def _fit_axes(self) -> None:
        plt = self.plt
        # Month labels would overlap when they do not fit: keep every n-th.
        room = max(1, (self.size.width - AXES_WIDTH) // (MONTH_LABEL_WIDTH + 2))
        every = max(1, math.ceil(len(self.months) / room))
        shown = range(0, len(self.months), every)
        plt.xticks([i + 1 for i in shown], [self.months[i] for i in shown])
        # Tokens on the left on round numbers; the same heights in credits on the right.
        peak = max((max(s.tokens, default=0) for s in self.series), default=0)
        ticks = axis_ticks(peak, tick_count(self.size.height))
        top = ticks[-1]
        plt.ylim(0, top)
        plt.yticks(ticks, [human(t) for t in ticks])
        # An invisible point on the right axis makes plotext draw that axis; it sits at
        # the left edge, between bars (they span x±0.3), so it hides no part of one.
        plt.scatter([0.5], [0], yside="right", marker=" ")
        plt.ylim(0, top, yside="right")  # type: ignore[arg-type]  # textual-plotext's stub types yside as a float; plotext takes "left"/"right"
        plt.yticks(ticks, [human(t / TOKENS_PER_CREDIT) for t in ticks], yside="right")  # type: ignore[arg-type]  # as for ylim: yside is a str in plotext
