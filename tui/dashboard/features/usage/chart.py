"""A month-by-month bar chart of token usage, tokens on the left axis, credits on the right.

Drawn with textual-plotext. Readable in 16 colours and without colour at all:
each series has an ANSI colour *and* its own fill character, and the legend
under the chart names them with the same character. The chart is rebuilt only
when `show` is given different data, so a poll that brings nothing new writes
nothing to the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.dashboard.features.usage.series import Series, style_of
from tui.dashboard.kit.outside_text import shown

if TYPE_CHECKING:
    from tui.dashboard.features.usage.bars import UsageBars


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
        # The bars (plotext) come with the first months to plot: importing plotext
        # costs ~20 ms of start-up that the first frame does not need.
        yield Static("", classes="usage-legend")

    def show(self, months: Sequence[str], series: Sequence[Series]) -> bool:
        """Plot `series` over `months`; redraw only if they differ from what is shown.

        Returns True when something changed on screen.
        """
        data = (tuple(months), tuple(series))
        if data == self._shown:
            return False
        self._shown = data
        if self.query(".usage-bars"):
            self._draw_bars()
        elif data[0]:
            # The first bars wait for the next frame: importing plotext then delays
            # the chart alone, not the dashboard's first frame with data.
            self.call_after_refresh(self._draw_bars)
        # The series are named by the keys' last characters, as the service sent them.
        self.query_one(".usage-legend", Static).update(shown(self.legend(data[1], bool(data[0]))))
        return True

    def _draw_bars(self) -> None:
        """Draw what `show` was last given (mounting the bars the first time)."""
        if self._shown is None or not self.is_attached:  # quit before the frame the first bars waited for
            return
        months, series = self._shown
        bars = self._bars()
        bars.display = bool(months)  # an empty frame says less than the legend's "no usage"
        bars.draw(months, series)

    def _bars(self) -> UsageBars:
        """The bars widget, mounted above the legend the first time it is needed."""
        from tui.dashboard.features.usage.bars import UsageBars

        found = self.query(UsageBars)
        if found:
            return found.first()
        bars = UsageBars(classes="usage-bars")
        self.mount(bars, before=0)
        return bars

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
