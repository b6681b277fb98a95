"""A bar chart with its legend: the usage pane's tokens by month, the history screen's figures by day.

Drawn with textual-plotext. Readable in 16 colours and without colour at all:
each series has an ANSI colour *and* its own fill character, and the legend
under the chart names them with the same character. The chart is rebuilt only
when `show` is given different data, so a poll that brings nothing new writes
nothing to the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.dashboard.kit.chart_series import Series, style_of
from tui.dashboard.kit.outside_text import shown

if TYPE_CHECKING:
    from tui.dashboard.kit.widgets.chart_bars import ChartBars


class BarChart(Vertical):
    """Bars of values per label, one colour-and-fill per series, with a legend line.

    A subclass says what its axes count (`AXES_NOTE`), what an empty chart says
    (`EMPTY`) and how its bars are made (`make_bars`: side by side or stacked, a right axis).
    """

    DEFAULT_CSS = """
    BarChart { height: 1fr; min-height: 5; }
    BarChart > .chart-legend { height: auto; color: $text; }
    """

    AXES_NOTE: ClassVar[str] = ""
    EMPTY: ClassVar[str] = "Nothing recorded yet."

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[tuple[str, ...], tuple[Series, ...]] | None = None

    def compose(self) -> ComposeResult:
        # The bars (plotext) come with the first data to plot: importing plotext
        # costs ~20 ms of start-up that the first frame does not need.
        yield Static("", classes="chart-legend")

    def show(self, labels: Sequence[str], series: Sequence[Series]) -> bool:
        """Plot `series` over `labels`; redraw only if they differ from what is shown.

        Returns True when something changed on screen.
        """
        data = (tuple(labels), tuple(series))
        if data == self._shown:
            return False
        self._shown = data
        if self.query(".chart-bars"):
            self._draw_bars()
        elif data[0]:
            # The first bars wait for the next frame: importing plotext then delays
            # the chart alone, not the first frame with data.
            self.call_after_refresh(self._draw_bars)
        # The series' names may come from outside (the keys' last characters, the service's kinds).
        self.query_one(".chart-legend", Static).update(shown(self.legend(data[1], bool(data[0]))))
        return True

    def _draw_bars(self) -> None:
        """Draw what `show` was last given (mounting the bars the first time)."""
        if self._shown is None or not self.is_attached:  # closed before the frame the first bars waited for
            return
        labels, series = self._shown
        bars = self._bars()
        bars.display = bool(labels)  # an empty frame says less than the legend's "nothing recorded"
        bars.draw(labels, series)

    def make_bars(self) -> ChartBars:
        """The bars widget this chart draws with (imported here: plotext only once there is data)."""
        from tui.dashboard.kit.widgets.chart_bars import ChartBars

        return ChartBars(label_width=7)

    def _bars(self) -> ChartBars:
        """The bars widget, mounted above the legend the first time it is needed."""
        from tui.dashboard.kit.widgets.chart_bars import ChartBars

        found = self.query(ChartBars)
        if found:
            return found.first()
        bars = self.make_bars()
        bars.add_class("chart-bars")
        self.mount(bars, before=0)
        return bars

    def legend(self, series: Sequence[Series], has_labels: bool) -> Text:
        """One line: each series' fill and name, then what the axes count."""
        if not has_labels or not series:
            return Text(self.EMPTY, style="italic")
        text = Text()
        for index, one in enumerate(series):
            style = style_of(index)
            text.append(style.marker * 2, style=style.rich_colour)
            text.append(f" {one.name}  ")
        text.append(self.AXES_NOTE, style="dim")
        return text
