"""The token usage pane: month by month, for the team or broken down by API key.

A bar chart (tokens on the left axis, credits on the right) and the same
figures in a small table. Above them, two plain lines: this month so far with
a straight-line projection to its end (`tui.dashboard.features.usage.projection`), and
the total of the months shown; under them the team's capacity now (queue,
credits left, last success: `tui.dashboard.features.usage.capacity_line`,
which polls on its own with the pane). `k` switches between the team's total and one
series per API key. Keys are only ever shown masked: the service masks them already,
and `mask_key` is applied again in case a server sends them whole.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import Static

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.contract.models.team import TokenUsagePeriod
from tui.contract.redact import mask_key
from tui.dashboard.features.usage.capacity_line import CapacityLine
from tui.dashboard.features.usage.chart import UsageChart
from tui.dashboard.features.usage.projection import MonthSoFar, this_month_short, this_month_text
from tui.dashboard.kit.chart_series import Series, human
from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live_table import Cell, LiveTable, Row, Shorten, Squeeze

ALL_KEYS = "all keys"
Summary = tuple[tuple[str, ...], ...]
"""The summary's lines, each in a few wordings, longest first."""
NO_KEY = "(no key)"
CHART_MIN_PANE_HEIGHT = 13
"""Rows inside the pane below which the chart is hidden and the table kept."""


@dataclass(frozen=True)
class UsageView:
    """One answer of the usage endpoint and the mode it was asked in."""

    by_key: bool
    periods: tuple[TokenUsagePeriod, ...]


@dataclass(frozen=True)
class UsageFigures:
    """What the pane draws, derived from a `UsageView`."""

    months: tuple[str, ...]
    series: tuple[Series, ...]

    @property
    def total_tokens(self) -> int:
        return int(sum(sum(one.values) for one in self.series))  # token counts: whole numbers

    def tokens_in(self, month: str) -> int:
        """Tokens of every series in `month` (`2026-07`); 0 for a month not shown."""
        if month not in self.months:
            return 0
        index = self.months.index(month)
        return int(sum(one.values[index] for one in self.series))


def month_label(period: TokenUsagePeriod) -> str:
    """`2026-07`: the month as the service dates it.

    Not converted to local time on purpose: a period is a calendar month of
    the service, and `2026-07-01T00:00Z` read in UTC-5 would be June.
    """
    return period.start_date.strftime("%Y-%m")


def key_label(period: TokenUsagePeriod, by_key: bool) -> str:
    """The series a period belongs to: a masked key, or the team's total."""
    if not by_key:
        return ALL_KEYS
    return mask_key(period.api_key) if period.api_key else NO_KEY


def figures(view: UsageView) -> UsageFigures:
    """Months oldest first, and one series per key (or one for the team)."""
    months = tuple(sorted({month_label(p) for p in view.periods}))
    tokens: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for period in view.periods:
        tokens[key_label(period, view.by_key)][month_label(period)] += period.total_tokens
    series = tuple(
        Series(name, tuple(by_month.get(month, 0) for month in months)) for name, by_month in sorted(tokens.items())
    )
    return UsageFigures(months, series)


def credits_text(tokens: int) -> str:
    """Credits for a token count: whole when exact, else to one decimal."""
    credits = tokens / TOKENS_PER_CREDIT
    return f"{credits:,.0f}" if tokens % TOKENS_PER_CREDIT == 0 else f"{credits:,.1f}"


def short_key(cell: Cell) -> Cell:
    """`all` for all keys, `none` for no key: a masked key (`…5e5e`) is short already."""
    return {ALL_KEYS: "all", NO_KEY: "none"}.get(str(cell), cell)


SQUEEZE = (Shorten("Key", short_key), Squeeze("Key", 5))
"""At a quarter of 80 columns the key's column gives way, so the credits stay whole."""


def table_rows(data: UsageFigures) -> list[Row]:
    """Newest month first; within a month, one row per series."""
    rows: list[Row] = []
    for index in reversed(range(len(data.months))):
        month = data.months[index]
        for one in data.series:
            tokens = int(one.values[index])
            rows.append((f"{month} {one.name}", (month, one.name, f"{tokens:,}", credits_text(tokens))))
    return rows


class UsagePane(Pane[UsageView]):
    """Token usage history: chart, table, and a by-key toggle."""

    TITLE: ClassVar[str] = "Token usage"
    BINDINGS: ClassVar[list[BindingType]] = [
        *Pane.BINDINGS,
        Binding("k", "toggle_by_key", "By key", id="usage.toggle_by_key"),
    ]

    DEFAULT_CSS = """
    UsagePane > UsageChart { height: 3fr; }
    UsagePane > #usage-table { height: 2fr; min-height: 3; }
    UsagePane > .usage-summary { color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    by_key: reactive[bool] = reactive(False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._wordings: Summary | None = None
        self._summary_text: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", classes="usage-summary pane-toolbar", markup=False)
        yield CapacityLine(
            self.client,
            interval=lambda: self.interval,
            clock=self.clock,
            watched=lambda: self.can_be_seen and not self.paused,
            id="usage-capacity",
        )
        yield UsageChart(id="usage-chart")
        yield LiveTable("Month", "Key", "Tokens", "Credits", id="usage-table", squeeze=SQUEEZE)
        yield from self.compose_status()

    def on_resize(self) -> None:
        # Too short for both: keep the table (exact figures, and the pane's
        # focus for its keys); zoom (z) brings the chart back.
        self.query_one(UsageChart).display = self.content_region.height >= CHART_MIN_PANE_HEIGHT
        self._fit_summary()

    def refresh_data(self) -> None:
        # On mount, r, un-pause and back online alike: the capacity line asks at once too.
        super().refresh_data()
        for line in self.query(CapacityLine):
            line.refresh_data()

    async def fetch(self) -> UsageView:
        # The mode is captured with the answer: a toggle while this call is in
        # flight restarts the (exclusive) worker, and a late answer of the old
        # mode can never be drawn as the new one.
        by_key = self.by_key
        history = await self.client.team.token_usage_historical(by_api_key=by_key)
        tell_monitor(self, lambda monitor: monitor.saw_token_usage(history))  # snapshots per key, the spike rule
        return UsageView(by_key, tuple(history.periods))

    def show(self, data: UsageView) -> bool:
        shown = figures(data)
        changed = self.query_one(UsageChart).show(shown.months, shown.series)
        changed |= self.query_one("#usage-table", LiveTable).sync(table_rows(shown))
        changed |= self._set_summary(self._summary(data, shown))
        return changed

    def show_again(self, data: UsageView) -> bool:
        # The same usage, but time has passed: the projection moves (and a month may have turned).
        return self._set_summary(self._summary(data, figures(data)))

    def _summary(self, data: UsageView, shown: UsageFigures) -> Summary:
        """This month (so far, projected) on one line, the total of the months shown on the next.

        Each line in a few wordings, longest first: the pane shows the
        longest that fits its width (a quarter of an 80-column screen takes
        the short ones, where exact figures give way to 1.2M).
        """
        if not shown.months:
            mode = f"by key ({len(shown.series)})" if data.by_key else ALL_KEYS
            return ((f"No usage recorded · {mode}",),)
        month = MonthSoFar.at(self.clock())
        so_far = shown.tokens_in(month.label)
        total = shown.total_tokens
        count = len(shown.months)
        months = "month" if count == 1 else f"{count} months"
        return (
            (
                this_month_text(month, so_far),
                this_month_short(month, so_far),
                this_month_short(month, so_far, abbreviated=True),
            ),
            (
                f"Total of the {months} shown: {total:,} tokens = {credits_text(total)} credits",
                f"Total of {months}: {human(total)} tokens = {human(total / TOKENS_PER_CREDIT)} credits",
                f"Total of {months}: {human(total)} tokens",
            ),
        )

    def _set_summary(self, summary: Summary) -> bool:
        self._wordings = summary
        return self._fit_summary()

    def _fit_summary(self) -> bool:
        """Show each summary line in its longest wording that fits; True when the text changed."""
        if self._wordings is None:
            return False
        static = self.query_one(".usage-summary", Static)
        width = static.content_region.width or 10_000  # not laid out yet: the full lines

        def fitting(wordings: tuple[str, ...]) -> str:
            return next((line for line in wordings if len(line) <= width), wordings[-1])

        text = "\n".join(fitting(wordings) for wordings in self._wordings)
        if text == self._summary_text:
            return False  # Static.update would repaint even for the same text
        self._summary_text = text
        static.update(text)
        return True

    def action_toggle_by_key(self) -> None:
        """Switch between the team's total and one series per API key."""
        self.by_key = not self.by_key
        self.refresh_data()
