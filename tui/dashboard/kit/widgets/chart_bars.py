"""The bars of a bar chart: a PlotextPlot whose axes are fitted to its size at render time.

Apart from `tui.dashboard.kit.widgets.bar_chart` so that plotext is imported only when
there is something to plot, not while the dashboard starts. Series stand side by side
(the usage pane's keys) or stacked (the history screen's calls of each kind in a day);
a second scale on the right axis is optional (the usage pane's credits beside its tokens).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from textual.app import RenderResult
from textual_plotext import PlotextPlot

from tui.dashboard.kit.chart_series import AXES_WIDTH, BAR_GROUP_WIDTH, Series, axis_ticks, human, style_of, tick_count


class ChartBars(PlotextPlot):
    """The bars themselves (a PlotextPlot); axis ticks are fitted to the size at render time.

    `label_width`: the columns a label under the bars takes ("2026-07": 7). `stacked`:
    one bar per label made of every series, else one bar per series side by side.
    `right_axis`: the right axis' label for a left-axis value (None: no right axis).
    """

    DEFAULT_CSS = """
    ChartBars { height: 1fr; min-height: 4; }
    """

    def __init__(
        self,
        *,
        label_width: int,
        stacked: bool = False,
        right_axis: Callable[[float], str] | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.label_width = label_width
        self.stacked = stacked
        self.right_axis = right_axis
        self.labels: tuple[str, ...] = ()
        self.series: tuple[Series, ...] = ()
        self._picture: tuple[tuple[object, ...], RenderResult] | None = None

    def draw(self, labels: tuple[str, ...], series: tuple[Series, ...]) -> None:
        """Replace the data and redraw once."""
        self.labels, self.series = labels, series
        self.refresh()

    def render(self) -> RenderResult:
        # Plotting is most of the cost of drawing the chart, and Textual asks again
        # whenever the chart reappears (another pane zoomed and back): the same data
        # at the same size in the same theme is the same picture.
        key = (self.size, self.labels, self.series, self.app.theme, self.theme)
        if self._picture is None or self._picture[0] != key:
            self._picture = (key, self._plot_picture())
        return self._picture[1]

    def _plot_picture(self) -> RenderResult:
        plt = self.plt
        plt.clear_figure()  # also forgets the previous data's ticks and limits
        if self.labels and self.series:
            styles = [style_of(i) for i in range(len(self.series))]
            plot = plt.stacked_bar if self.stacked else plt.multiple_bar
            plot(
                list(self.labels),
                [list(s.values) for s in self.series],
                color=[s.plotext_colour for s in styles],  # type: ignore[arg-type]  # textual-plotext's stub wants one colour; plotext takes one per series
                marker=[s.marker for s in styles],  # type: ignore[arg-type]  # textual-plotext's stub wants one marker; plotext takes one per series
                # plotext's default (0.8 of a label's room) closes the gaps between
                # labels once rounded to a few columns; 0.6 keeps them visible.
                width=BAR_GROUP_WIDTH,
            )
            self._fit_axes()
        return super().render()

    def peak(self) -> float:
        """The tallest bar: one series' value, or a label's sum when stacked."""
        if self.stacked:
            return max((sum(column) for column in zip(*(s.values for s in self.series), strict=True)), default=0)
        return max((max(s.values, default=0) for s in self.series), default=0)

    def _fit_axes(self) -> None:
        plt = self.plt
        # Labels would overlap when they do not fit: keep every n-th.
        room = max(1, (self.size.width - AXES_WIDTH) // (self.label_width + 2))
        every = max(1, math.ceil(len(self.labels) / room))
        shown = range(0, len(self.labels), every)
        plt.xticks([i + 1 for i in shown], [self.labels[i] for i in shown])
        # The left axis on round numbers; the same heights in the right axis' unit, if any.
        ticks = axis_ticks(self.peak(), tick_count(self.size.height))
        top = ticks[-1]
        plt.ylim(0, top)
        plt.yticks(ticks, [human(t) for t in ticks])
        if self.right_axis is None:
            return
        # An invisible point on the right axis makes plotext draw that axis; it sits at
        # the left edge, between bars (they span x±0.3), so it hides no part of one.
        plt.scatter([0.5], [0], yside="right", marker=" ")
        plt.ylim(0, top, yside="right")  # type: ignore[arg-type]  # textual-plotext's stub types yside as a float; plotext takes "left"/"right"
        plt.yticks(ticks, [self.right_axis(t) for t in ticks], yside="right")  # type: ignore[arg-type]  # as for ylim: yside is a str in plotext
