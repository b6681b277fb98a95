"""The history screen: what the journal kept of the last 30, 7 or 1 days (or since a moment), on four tabs.

Calls per day by kind; failures per day (count and share) with the top failing
hosts and causes; credits per day and per API key (from the deltas of usage
readings, which the service does not give); crawls and batches ended per day.
Each tab has a chart (the kit's, as the usage pane's) over lists; `s` exports the
list that has the focus (or the tab's first) as the triage view does, `d` steps
the span, `r` reads again. The journal is read in its own thread (`Journal.read`),
never on the UI's. No journal, a journal turned off or that could not be opened, or
nothing in the span: one sentence says why, and how to get history.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Label, Static, TabbedContent, TabPane

from tui.dashboard.features.history.charts import (
    CallsChart,
    CreditsChart,
    DayChart,
    FailuresChart,
    FinishedChart,
    calls_series,
    credits_series,
    day_labels,
    failures_series,
    finished_series,
)
from tui.dashboard.features.history.figures import HistoryFigures, read_figures
from tui.dashboard.features.history.journal_state import JournalState, nothing_yet
from tui.dashboard.features.history.lists import LISTS, HistoryList
from tui.dashboard.features.history.span import HistorySpan
from tui.dashboard.kit.chart_series import Series, human
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.live_table import Cell, Drop, LiveTable, Shorten, Squeeze, Step
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import ExportRows

TABS: dict[str, tuple[str, type[DayChart], Callable[[HistoryFigures], tuple[Series, ...]], tuple[str, ...]]] = {
    "calls": ("Calls", CallsChart, calls_series, ("calls",)),
    "failures": ("Failures", FailuresChart, failures_series, ("failures", "hosts", "causes")),
    "credits": ("Credits", CreditsChart, credits_series, ("credits-per-day", "credits-per-key")),
    "finished": ("Crawls & batches", FinishedChart, finished_series, ("finished",)),
}
"""Each tab: its title, its chart and the chart's series, and its lists (by `HistoryList.name`), side by side."""

COLUMNS = {
    "calls": ("day", "kind", "calls"),
    "failures": ("day", "calls", "failed", "%"),
    "hosts": ("host", "failures"),
    "causes": ("cause", "failures"),
    "credits-per-day": ("day", "credits"),
    "credits-per-key": ("key", "credits"),
    "finished": ("day", "kind", "status", "count"),
}


def month_day(cell: Cell) -> Cell:
    """`06-15` for `2025-06-15`: the year says nothing within 90 days."""
    return str(cell)[5:]


SQUEEZE: dict[str, tuple[Step, ...]] = {
    "failures": (Shorten("day", month_day), Drop("calls")),  # the chart shows the calls; failed and % stay
    "credits-per-day": (Shorten("day", month_day),),
    "hosts": (Squeeze("host", 20), Squeeze("host", 12)),
    "causes": (Squeeze("cause", 30), Squeeze("cause", 14)),
    "calls": (Squeeze("kind", 12),),
    "finished": (Squeeze("kind", 8), Squeeze("status", 9)),
}
"""Days lose their year, hosts and causes (outside text, of any length) are cut in the middle; counts stay whole.
The export has every column whole, under its own names ("failed %")."""


class HistoryScreen(ForwardsWorkerFailures, Screen[None]):
    """The journal's figures over a span, on tabs of a chart and its lists."""

    TITLE = "History"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="history.close"),
        Binding("d", "next_span", "Span: 30, 7, 1 days", id="history.next_span"),
        Binding("s", "export", "Export", id="history.export"),
        Binding("r", "reload", "Read again", id="history.reload"),
        Binding("c", "show_tab('calls')", "Calls", id="history.show_tab.calls"),
        Binding("f", "show_tab('failures')", "Failures", id="history.show_tab.failures"),
        Binding("u", "show_tab('credits')", "Credits", id="history.show_tab.credits"),
        Binding("b", "show_tab('finished')", "Crawls & batches", id="history.show_tab.finished"),
    ]

    DEFAULT_CSS = """
    HistoryScreen { layout: vertical; }
    HistoryScreen .history-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    HistoryScreen #history-summary { height: 1; padding: 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    HistoryScreen #history-message { height: auto; padding: 1 1; color: $text-muted; }
    HistoryScreen #history-message.-error { color: $error; }
    HistoryScreen TabbedContent { height: 1fr; }
    HistoryScreen TabPane { padding: 0; }
    HistoryScreen DayChart { height: 3fr; }
    HistoryScreen .history-lists { height: 2fr; min-height: 4; }
    HistoryScreen .history-lists > LiveTable { width: 1fr; height: 1fr; }
    """

    def __init__(
        self, state: JournalState, *, span: HistorySpan | None = None, now: Callable[[], float] = time.time
    ) -> None:
        super().__init__()
        self.state = state
        self.span = span or HistorySpan()
        self.now = now
        self.figures: HistoryFigures | None = None
        self.lists: dict[str, HistoryList] = {}

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="history-title", classes="history-title", markup=False)
        yield Static("", id="history-summary", markup=False)
        message = Static(self.state.off or "Reading the journal…", id="history-message", markup=False)
        yield message
        with TabbedContent(id="history-tabs", initial="calls"):
            for tab, (title, chart, _series, lists) in TABS.items():
                with TabPane(title, id=tab):
                    yield chart(id=f"history-chart-{tab}")
                    with Horizontal(classes="history-lists"):
                        for name in lists:
                            yield LiveTable(*COLUMNS[name], squeeze=SQUEEZE.get(name, ()), id=f"history-{name}")
        yield Footer()

    def on_mount(self) -> None:
        self._show_tabs(False)
        if self.state.journal is not None:
            self._load()

    def _title(self) -> str:
        return f"History · {self.span.text(self.now())}"

    def _show_tabs(self, showing: bool) -> None:
        self.query_one("#history-tabs").display = showing
        self.query_one("#history-summary").display = showing
        self.query_one("#history-message").display = not showing

    def _say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#history-message", Static)
        message.update(shown(text, lines=True))  # a reason may quote a path or SQLite's words
        message.set_class(error, "-error")
        self._show_tabs(False)

    # --- reading -------------------------------------------------------------------

    def _load(self) -> None:
        self.run_worker(self._read(), name="history-read", group="history-read", exclusive=True, exit_on_error=False)

    async def _read(self) -> None:
        journal = self.state.journal
        if journal is None:
            return
        span = self.span
        try:
            figures = await journal.read(lambda queries: read_figures(queries, span))
        except (sqlite3.Error, OSError, ValueError) as error:  # a file, or a row, the queries could not take
            self._say(f"The journal could not be read: {error}", error=True)
            return
        if span == self.span:  # not a span stepped past while reading
            self.show(figures)

    def show(self, figures: HistoryFigures) -> None:
        """Draw `figures`: charts, lists and summary, or the sentence of an empty span."""
        self.figures = figures
        self.lists = {make(figures).name: make(figures) for make in LISTS}
        if figures.empty:
            self._say(nothing_yet(figures.span.text(figures.now)))
            return
        self.query_one("#history-message", Static).remove_class("-error")
        first_shown = not self.query_one("#history-tabs").display
        self._show_tabs(True)
        self.query_one("#history-summary", Static).update(self._summary(figures))
        labels = day_labels(figures)
        for tab, (_title, chart, series, _lists) in TABS.items():
            self.query_one(f"#history-chart-{tab}", chart).show(labels, series(figures))
        for name, shown_list in self.lists.items():
            self.query_one(f"#history-{name}", LiveTable).sync(shown_list.table_rows())
        if first_shown:  # the arrows read the active tab's first list at once
            active = self.query_one(TabbedContent).active or "calls"
            self.query_one(f"#history-{TABS[active][3][0]}", LiveTable).focus()
        self.refresh_bindings()

    @staticmethod
    def _summary(figures: HistoryFigures) -> str:
        calls, failed = figures.total_calls, figures.total_failed
        share = f" ({100 * failed / calls:.1f}%)" if calls else ""
        ended = sum(figures.finished.values())
        credits = sum(figures.credits_per_day.values())
        return (
            f"{calls:,} calls · {failed:,} failed{share} · {human(credits)} credits · "
            f"{ended:,} crawls and batches ended · days in UTC"
        )

    # --- actions ---------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_next_span(self) -> None:
        """Show the next span (30, 7, 1 days; a "since" span goes on to 30 days), read again."""
        self.span = self.span.next()
        self.query_one("#history-title", Label).update(self._title())
        self.action_reload()

    def action_reload(self) -> None:
        """Read the journal again (it goes on filling while the screen is open)."""
        if self.state.journal is not None:
            self._load()

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        self.query_one(f"#history-{TABS[tab][3][0]}", LiveTable).focus()

    def _list_to_export(self) -> HistoryList | None:
        """The list that has the focus, else the active tab's first."""
        focused: Widget | None = self.focused
        if isinstance(focused, LiveTable) and focused.id and focused.id.removeprefix("history-") in self.lists:
            return self.lists[focused.id.removeprefix("history-")]
        active = self.query_one(TabbedContent).active or "calls"
        return self.lists.get(TABS[active][3][0])

    def action_export(self) -> None:
        """Export the list that has the focus (or the tab's first) as CSV or JSON lines."""
        chosen = self._list_to_export()
        if chosen is not None and self.figures is not None:
            self.post_message(ExportRows(chosen.export(self.span.text(self.figures.now))))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_span", "reload"):
            return self.state.journal is not None
        if action == "show_tab":
            return self.figures is not None and not self.figures.empty
        if action == "export":
            if self.figures is None or self.figures.empty:
                return False  # nothing was read: no list to speak of
            chosen = self._list_to_export()
            return True if chosen is not None and chosen.rows else None
        return True
