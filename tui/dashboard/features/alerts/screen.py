"""The alerts screen (`A`): firing, acknowledged and resolved alerts, what triggered each, and what it names.

One table in three sections (`tui.dashboard.features.alerts.rows`); the
highlighted alert's whole sentence below it. ⏎ opens the job, crawl, batch or
session the alert names (through the app's intents, as `g` would); `a`
acknowledges a firing alert (no more repeats; it still resolves); `s` offers
to silence the alert's subject, or its whole rule, for a while. Alerts read
from the journal (written by `wds-tui watch`, another dashboard or an earlier
run) are shown with the rest, marked, and open like them; only this run's can
be acknowledged. The screen looks at the monitor once a second: an alert that
fires or resolves meanwhile shows up without a key.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.dashboard.features.alerts.rows import SECTION_KEY, SECTIONS, AlertRow, alert_rows
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import clock_time
from tui.dashboard.kit.outside_text import plain, shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.live_table import Drop, LiveTable, Row, Squeeze
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import Intent, OpenBatch, OpenCrawl, OpenJobById

if TYPE_CHECKING:
    from tui.monitor.hub import Monitor
    from tui.monitor.journal import JournalAlert

COLUMNS = ("fired", "rule", "subject", "what happened", "×", "from")
SECTION_SIGN = {"firing": "▲", "acknowledged": "●", "resolved": "✓"}
"""Each section's heading sign: it says which section without colour."""
SILENCES: tuple[tuple[str, float], ...] = (("30 min", 30), ("1 h", 60), ("4 h", 240), ("24 h", 1440))
"""How long `s` offers to silence for."""
LOOK_SECONDS = 1.0
"""How often the screen looks at the monitor for alerts fired or resolved meanwhile."""


def heading(section: str, count: int) -> Row:
    """A section's heading row: `▲  firing (2)`, its name in the rule column (as wide as a rule's name)."""
    return f"{SECTION_KEY}{section}", (
        Text(SECTION_SIGN[section], style="bold"), Text(f"{section} ({count})", style="bold"), "", "", "", "",
    )  # fmt: skip


def opens_intent(opens: tuple[str, str]) -> Intent:
    """The screen of what an alert names: a crawl's or batch's status; a job or a session found by its id (as `g`)."""
    kind, job_id = opens
    if kind == "crawl":
        return OpenCrawl(job_id)
    if kind == "batch":
        return OpenBatch(job_id)
    return OpenJobById(reference=job_id)


class AlertsScreen(ForwardsWorkerFailures, Screen[None]):
    """The alerts of this run and of the journal; Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="alerts.close"),
        Binding("enter", "open_alert", "Open what it names", id="alerts.open_alert"),
        Binding("a", "acknowledge", "Acknowledge", id="alerts.acknowledge"),
        Binding("s", "silence", "Silence…", id="alerts.silence"),
    ]

    DEFAULT_CSS = """
    AlertsScreen { layout: vertical; }
    AlertsScreen #alerts-title { height: 1; padding: 0 1; text-style: bold; background: $panel; }
    AlertsScreen #alerts-note { height: auto; padding: 0 1; color: $text-muted; }
    AlertsScreen #alerts-table { height: 1fr; }
    AlertsScreen #alerts-detail { height: auto; max-height: 6; padding: 0 1; border-top: solid $panel; }
    AlertsScreen #alerts-silence { height: auto; max-height: 10; display: none; border: round $primary; }
    AlertsScreen #alerts-silence.-open { display: block; }
    """

    def __init__(
        self,
        monitor: Monitor | None,
        earlier: Sequence[JournalAlert] = (),
        *,
        problem: str | None = None,
        clock: Clock = system_clock,
    ) -> None:
        super().__init__()
        self.monitor = monitor
        self.earlier = tuple(earlier)
        self.problem = problem
        self.clock = clock
        self._rows: dict[str, AlertRow] = {}
        self._detail: Text | None = None  # what the detail line shows: drawn again only when it changes

    def compose(self) -> ComposeResult:
        yield Static("Alerts", id="alerts-title")
        yield Static(self._note(), id="alerts-note", markup=False)
        # The sentence is cut first (the detail line below says it whole), then the source goes (the detail
        # says it too), then long subjects and the sentence again.
        squeeze = (Squeeze("what happened", 48), Drop("from"), Squeeze("subject", 16), Squeeze("what happened", 24))
        yield LiveTable(*COLUMNS, id="alerts-table", squeeze=squeeze)
        yield Static("", id="alerts-detail", markup=False)
        yield OptionList(id="alerts-silence")
        yield Footer()

    def _note(self) -> str:
        if self.problem:
            return self.problem
        if self.monitor is None:
            return "Monitoring is off for this context: no rules run (see [alerts] in the config file)."
        return "⏎ opens what an alert names · the rules: wds-tui config"

    def on_mount(self) -> None:
        self._show()
        self.query_one(LiveTable).focus()
        self.set_interval(LOOK_SECONDS, self._show, name="alerts look")

    def _show(self) -> None:
        monitor = self.monitor
        firing = monitor.engine.firing() if monitor is not None else []
        resolved = monitor.engine.resolved() if monitor is not None else []
        now = self.clock()
        rows = alert_rows(firing, resolved, self.earlier, now.timestamp())
        self._rows = {row.key: row for row in rows}
        table_rows: list[Row] = []
        for section in SECTIONS:
            shown_rows = [row for row in rows if row.section == section]
            if shown_rows:
                table_rows.append(heading(section, len(shown_rows)))
                table_rows.extend(self._row(row, now) for row in shown_rows)
        if not table_rows:
            table_rows.append((f"{SECTION_KEY}none", (Text("No alert has fired.", style="dim"), "", "", "", "", "")))
        table = self.query_one(LiveTable)
        if table.sync(table_rows):
            if table.cursor_row == 0 and len(table_rows) > 1:
                table.move_cursor(row=1)  # onto the first alert, not its section's heading
            self.refresh_bindings()  # an alert acknowledged or resolved: a and s may no longer apply
        self._show_detail()

    def _row(self, row: AlertRow, now: datetime) -> Row:
        fired = clock_time(row.fired_at, now)
        source = "this run" if row.live else "journal"
        repeats = f"×{row.repeats + 1}" if row.repeats else ""
        return row.key, (fired, row.rule, row.subject, row.sentence, repeats, source)

    def selected(self) -> AlertRow | None:
        """The alert under the cursor (None on a heading)."""
        key = self.query_one(LiveTable).selected_key()
        return self._rows.get(key) if key is not None else None

    @on(LiveTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()
        self.refresh_bindings()

    def _show_detail(self) -> None:
        row = self.selected()
        text = self._describe(row) if row is not None else Text()
        if text != self._detail:  # a look once a second that finds nothing new writes nothing to the terminal
            self._detail = text
            self.query_one("#alerts-detail", Static).update(shown(text, lines=True))

    def _describe(self, row: AlertRow) -> Text:
        """The whole of one alert: rule, subject, times, where it was seen; its sentence; what ⏎ opens."""
        now = self.clock()
        text = Text()
        text.append(f"{row.rule} · {row.subject}", style="bold")
        text.append(f" · fired {clock_time(row.fired_at, now)}")
        if row.repeats:
            text.append(f", said {row.repeats + 1} times")
        if row.resolved_at is not None:
            text.append(f" · resolved {clock_time(row.resolved_at, now)}")
        if not row.live:
            text.append(" · from the journal (wds-tui watch, or an earlier run)")
        text.append("\n")
        text.append_text(plain(row.sentence))
        if row.opens is not None:
            text.append(f"\n⏎ opens {row.opens[0]} {row.opens[1]}", style="dim")
        return text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        row = self.selected() if self.is_mounted else None
        if action == "open_alert":
            return row is not None and row.opens is not None
        if action == "acknowledge":
            return row is not None and row.live and row.section == "firing"
        if action == "silence":
            return row is not None and self.monitor is not None and row.section != "resolved"
        return True

    def action_close(self) -> None:
        silence = self.query_one("#alerts-silence", OptionList)
        if silence.has_class("-open"):
            self._close_silence()
            return
        self.dismiss(None)

    def action_open_alert(self) -> None:
        """Open the job, crawl, batch or session the highlighted alert names."""
        row = self.selected()
        if row is not None and row.opens is not None:
            self.post_message(opens_intent(row.opens))

    @on(LiveTable.RowSelected)
    def _selected(self, event: LiveTable.RowSelected) -> None:
        event.stop()
        self.action_open_alert()

    def action_acknowledge(self) -> None:
        """Stop repeats of the highlighted alert (it still resolves by itself)."""
        row = self.selected()
        if row is None or self.monitor is None or not row.live:
            return
        if self.monitor.acknowledge(row.rule, row.subject):
            self.notify(f"{row.rule} ({row.subject}) acknowledged: no more repeats", title="Alerts")
        self._show()

    def action_silence(self) -> None:
        """Offer to silence the highlighted alert's subject, or its whole rule, for a while."""
        row = self.selected()
        if row is None:
            return
        choices = self.query_one("#alerts-silence", OptionList)
        choices.clear_options()
        for scope, subject in (("subject", row.subject), ("rule", "")):
            for label, minutes in SILENCES:
                what = f"{row.rule} for {row.subject}" if subject else f"every {row.rule} alert"
                choices.add_option(Option(plain(f"Silence {what} for {label}"), id=f"{scope}:{minutes:g}"))
        choices.border_title = "Silence (⏎ picks, esc cancels)"
        choices.add_class("-open")
        choices.highlighted = 0
        choices.focus()

    @on(OptionList.OptionSelected, "#alerts-silence")
    def _silence_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self.selected()
        self._close_silence()
        if row is None or self.monitor is None or event.option.id is None:
            return
        scope, minutes = event.option.id.split(":")
        subject = row.subject if scope == "subject" else None
        try:
            until = self.monitor.silence(row.rule, float(minutes), subject)
        except KeyError:  # a journal alert of a rule this context does not run (any more)
            self.notify(f"{row.rule} is not a rule of this context: nothing to silence", severity="warning")
            return
        what = f"{row.rule} ({row.subject})" if subject else f"every {row.rule} alert"
        self.notify(f"{what} silenced until {clock_time(until, self.clock())}", title="Alerts")

    def _close_silence(self) -> None:
        self.query_one("#alerts-silence", OptionList).remove_class("-open")
        self.query_one(LiveTable).focus()
