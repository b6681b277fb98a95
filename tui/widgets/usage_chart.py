"""A month-by-month bar chart of token usage, tokens on the left axis, credits on the right.

Drawn with textual-plotext. Readable in 16 colours and without colour at all:
each series has an ANSI colour *and* its own fill character, and the legend
under the chart names them with the same character. The chart is rebuilt only
when `show` is given different data, so a poll that brings nothing new writes
nothing to the terminal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tui.api.models.team import TOKENS_PER_CREDIT


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

MONTH_LABEL_WIDTH = len("2026-07")
BAR_GROUP_WIDTH = 0.6
AXES_WIDTH = 16  # both y axes with their labels, roughly


@dataclass(frozen=True)
class Series:
    """One bar per month: a name for the legend and a token count per month."""

    name: str
    tokens: tuple[int, ...]


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


def axis_ticks(peak: float, most: int) -> list[float]:
    """Round tick values from 0 to just above `peak`, at most `most` of them."""
    step = nice_step(peak / (most - 1))
    count = max(1, math.ceil(peak / step))
    return [step * i for i in range(count + 1)]


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
                color=[s.plotext_colour for s in styles],
                marker=[s.marker for s in styles],
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
        ticks = axis_ticks(peak, 3 if self.size.height < 10 else 5)
        top = ticks[-1]
        plt.ylim(0, top)
        plt.yticks(ticks, [human(t) for t in ticks])
        # An invisible point on the right axis makes plotext draw that axis; it sits at
        # the left edge, between bars (they span x±0.3), so it hides no part of one.
        plt.scatter([0.5], [0], yside="right", marker=" ")
        plt.ylim(0, top, yside="right")
        plt.yticks(ticks, [human(t / TOKENS_PER_CREDIT) for t in ticks], yside="right")


class UsageChart(Vertical):
    """Bars of tokens per month, one colour-and-fill per series, with a legend line."""

    DEFAULT_CSS = """
    UsageChart { height: 1fr; min-height: 5; }
    UsageChart > .usage-legend { height: auto; color: $text; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[tuple[str, ...], tuple[Series, ...]] | None = None

    def compose(self) -> ComposeResult:
        yield UsageBars()
        yield Static("", classes="usage-legend")

    def show(self, months: Sequence[str], series: Sequence[Series]) -> bool:
        """Plot `series` over `months`; redraw only if they differ from what is shown.

        Returns True when something changed on screen.
        """
        data = (tuple(months), tuple(series))
        if data == self._shown:
            return False
        self._shown = data
        plot = self.query_one(UsageBars)
        plot.display = bool(data[0])  # an empty frame says less than the legend's "no usage"
        plot.draw(*data)
        self.query_one(".usage-legend", Static).update(self.legend(data[1], bool(data[0])))
        return True

    @staticmethod
    def legend(series: Sequence[Series], has_months: bool) -> Text:
        """One line: each series' fill and name, then what the two axes count."""
        if not has_months or not series:
            return Text("No usage recorded yet.", style="italic")
        text = Text()
        for index, one in enumerate(series):
            style = style_of(index)
            text.append(style.marker * 2, style=style.rich_colour)
            text.append(f" {one.name}  ")
        text.append("left tokens · right credits", style="dim")
        return text
