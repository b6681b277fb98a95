"""The Textual application: a header, four panes, a footer.

The app is built from a client and a little description of the service
(harlequin's habit: the backend is passed in), by one factory
(`tui.dashboard.startup.app_factory.make_app`), so tests build it on an in-process emulator and
the CLI builds it on whatever is configured, the same way.

It is the one place that pushes screens (panes and screens post intents, see
`tui.dashboard.shell.navigation`) and the one sink for unexpected failures (every worker that
ends in error is notified and logged, see `tui.dashboard.shell.failures`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState

from tui.api.client import WdsClient
from tui.dashboard.connection.banner import OPEN_PROBLEM_KEY, ConnectionBanner
from tui.dashboard.connection.first_wait import FirstAnswerWait
from tui.dashboard.connection.watch import WatchesTheConnection
from tui.dashboard.keys.help import HelpScreen
from tui.dashboard.keys.keymap import KeepsItsKeymap, takes_text
from tui.dashboard.keys.palette import DashboardCommands
from tui.dashboard.keys.quitting import QuitsLikeATerminal, has_text_field
from tui.dashboard.keys.read_only import RefusesChangesWhenReadOnly
from tui.dashboard.keys.typeahead import KeysInTurn
from tui.dashboard.kit.clock import Clock
from tui.dashboard.kit.outside_text import PlainNotifications
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.status_header import StatusHeader
from tui.dashboard.shell.alerting import RaisesAlerts
from tui.dashboard.shell.app_memory import AppMemory
from tui.dashboard.shell.data_age import SaysHowOldTheDataIs
from tui.dashboard.shell.failures import report_worker_failure
from tui.dashboard.shell.intents import (
    Intent,
    OpenAlerts,
    OpenBatchForm,
    OpenCrawlForm,
    OpenDocsSearch,
    OpenHelp,
    OpenHistory,
    OpenJobById,
    OpenMapExplorer,
    OpenScrapeForm,
    OpenWebhookInbox,
)
from tui.dashboard.shell.intervals import Intervals
from tui.dashboard.shell.monitoring import HasAMonitor, MonitorOpened
from tui.dashboard.shell.navigation import PANES, Navigator
from tui.dashboard.shell.openers import OpensForms
from tui.dashboard.shell.service_info import ServiceInfo
from tui.dashboard.shell.sightings import RECENT_WINDOW, JobsSeen
from tui.dashboard.shell.theme_memory import RemembersTheTheme

if TYPE_CHECKING:
    from tui.dashboard.startup.contexts import ContextSwitch, SwitchTo
    from tui.dashboard.startup.ui_state import UiState
    from tui.monitor.settings import MonitorSettings


OPENS: dict[str, type[Intent]] = {
    "docs_search": OpenDocsSearch,
    "webhook_inbox": OpenWebhookInbox,
    "crawl_form": OpenCrawlForm,
    "scrape_form": OpenScrapeForm,
    "map_explorer": OpenMapExplorer,
    "batch_form": OpenBatchForm,
    "open_by_id": OpenJobById,
    "history": OpenHistory,
    "alerts": OpenAlerts,
}
"""The app's actions that open a screen, and the intent they post (the router knows the screen: screens load on first use)."""


class WdsApp(
    PlainNotifications,  # first: every notification, from anywhere, is plain text (tui.dashboard.kit.outside_text)
    WatchesTheConnection["SwitchTo | None"],
    SaysHowOldTheDataIs["SwitchTo | None"],
    RefusesChangesWhenReadOnly,
    QuitsLikeATerminal["SwitchTo | None"],
    KeepsItsKeymap["SwitchTo | None"],
    KeysInTurn["SwitchTo | None"],
    RemembersTheTheme["SwitchTo | None"],
    HasAMonitor["SwitchTo | None"],
    RaisesAlerts["SwitchTo | None"],
    OpensForms["SwitchTo | None"],
):
    """The dashboard."""

    TITLE = "wds-tui"
    CSS_PATH = Path(__file__).parent / "app.tcss"
    COMMANDS = App.COMMANDS | {DashboardCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        # Priority: before a text field's own ctrl+c (copy), which action_interrupt still does for a selection.
        Binding(
            "ctrl+c",
            "interrupt",
            "Quit (twice while a request is on its way)",
            show=False,
            priority=True,
            id="app.interrupt",
        ),
        # Priority: handled as the key arrives, so a key typed right after ("2z")
        # already reaches the pane chosen (a plain binding would run only after the
        # next key had been handed to the old focus). check_action lets digits
        # through to text fields.
        Binding("1", "focus_pane('crawls')", "Go to crawls", show=False, priority=True, id="app.focus_pane.crawls"),
        Binding(
            "2", "focus_pane('activity')", "Go to activity", show=False, priority=True, id="app.focus_pane.activity"
        ),
        Binding("3", "focus_pane('usage')", "Go to usage", show=False, priority=True, id="app.focus_pane.usage"),
        Binding(
            "4", "focus_pane('sessions')", "Go to sessions", show=False, priority=True, id="app.focus_pane.sessions"
        ),
        Binding("escape", "minimize", "Restore the panes", show=False, id="app.minimize"),
        # A pane's own r refreshes it (and so retries too); this one serves when no pane has the focus.
        Binding("r", "retry_connection", "Retry the connection now", show=False, id="app.retry_connection"),
        # Shown while the banner says the key was refused (check_action): the full problem screen, on demand.
        Binding(OPEN_PROBLEM_KEY, "open_problem", "Key refused: what to do", id="app.open_problem"),
        # Priority, as the digits: so that they work on forms and dialogs too; check_action
        # lets "?" through to text fields (f1 is never text).
        Binding("question_mark", "help('?')", "Help: the keys that work here", priority=True, id="app.help.?"),
        Binding("f1", "help('f1')", "Help: the keys that work here", show=False, priority=True, id="app.help.f1"),
        # Not priority: a text field gets "/" as text first; check_action says the same for the palette and help.
        Binding("/", "docs_search", "Search docs", show=False, id="app.docs_search"),
        # Not priority: a text field gets "g" as text first; check_action says the same for the palette and help.
        Binding("g", "open_by_id", "Open job by id", show=False, id="app.open_by_id"),
        Binding("w", "webhook_inbox", "Webhook inbox", show=False, id="app.webhook_inbox"),
        Binding("C", "crawl_form", "Start a crawl", show=False, id="app.crawl_form"),
        Binding("S", "scrape_form", "Scrape a URL", show=False, id="app.scrape_form"),
        Binding("M", "map_explorer", "Map a site", show=False, id="app.map_explorer"),
        Binding("B", "batch_form", "Batch scrape", show=False, id="app.batch_form"),
        Binding("T", "switch_context", "Switch context", show=False, id="app.switch_context"),
        Binding("H", "history", "History (the journal)", show=False, id="app.history"),
        Binding("A", "alerts", "Alerts", show=False, id="app.alerts"),
    ]

    def __init__(
        self,
        client: WdsClient,
        service: ServiceInfo,
        *,
        memory: AppMemory,
        navigator: Navigator,
        clock: Clock,
        intervals: Intervals,
        ui_state: UiState | None,
        contexts: ContextSwitch | None,
        startup_notes: Sequence[str],
        recent_window: timedelta = RECENT_WINDOW,
        monitoring: MonitorSettings | None = None,
        journal_dir: Path | None = None,
    ) -> None:
        """Built by `tui.dashboard.startup.app_factory.make_app`, which makes the parts; here they are only kept."""
        super().__init__()
        self.ui_state = ui_state  # None: nothing remembered between runs (tests)
        self.contexts = contexts  # None: one context only, nothing to switch to
        self.startup_notes = list(startup_notes)  # said once the app runs (warnings of a context switched to)
        self.client = client
        self.service = service
        self.clock = clock
        self.intervals = intervals
        self.recent_window = recent_window
        self.expect_monitor(monitoring)  # None: no journal and no alerts (tests, unless they ask)
        self.monitor_context = service.context
        self.monitor_read_only = service.read_only
        self.journal_dir = journal_dir  # None: the user's state directory
        self.memory = memory  # what lives as long as the app; screens get their part through the navigator
        self.navigator = navigator
        self.hyperlinks = navigator.hyperlinks  # read by every table (`hyperlink.links_on`): decided once, there
        self._zoomed: Pane | None = None
        self._stop_watching_jobs: Callable[[], None] = lambda: None
        self.banner = ConnectionBanner(client, service.host, clock=clock, id="connection-banner")
        self.first_wait = FirstAnswerWait(client.in_flight, clock=clock, id="first-answer-wait")
        # Kept by reference: messages about it arrive while another screen is on top.
        self.header = StatusHeader(
            service=service.host,
            masked_key=service.masked_key,
            embedded=service.embedded,
            context=service.context,
            read_only=service.read_only,
        )

    def compose(self) -> ComposeResult:
        yield self.header
        yield self.first_wait
        yield self.banner
        yield self.navigator.away_line()
        with Grid(id="panes"):
            for pane_id, pane_class in PANES:
                # Besides the client, interval and clock: the operator's recent window, for the crawls.
                extra: dict[str, Any] = {"recent_window": self.recent_window} if pane_id == "crawls" else {}
                yield pane_class(
                    self.client, interval=getattr(self.intervals, pane_id), clock=self.clock, id=pane_id, **extra
                )
        yield Footer()

    # --- navigation: panes and screens ask, the app pushes -------------------------

    @on(Intent)
    def _navigate(self, intent: Intent) -> None:
        if self.refuses(intent):
            return
        self.push_screen(self.navigator.screen_for(intent), self.navigator.when_answered(intent))

    @on(MonitorOpened)
    def _monitor_opened(self) -> None:
        # The journal is open: the line that says what happened while you were away may read it.
        if self.monitor is not None and self.screen_stack:
            self.navigator.monitor_opened(self.monitor, self.screen_stack[0])

    @on(JobsSeen)
    def _jobs_seen(self, message: JobsSeen) -> None:
        self.memory.seen_jobs.learn((seen.job_id, seen.kind) for seen in message.sightings)  # what g reads
        # The dashboard's panes, whichever screen is on top (a form, the inbox); none while the app closes.
        if self.screen_stack:
            self.navigator.jobs_seen(self.screen_stack[0], message.sightings)

    # --- the one sink for unexpected failures ---------------------------------------

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """Any worker that ended in error (forwarded here by its view): say so and log it."""
        if event.state is WorkerState.ERROR:
            report_worker_failure(self, event.worker)

    # --- zoom: one pane fills the screen ------------------------------------------

    @property
    def zoomed(self) -> Pane | None:
        """The pane filling the screen, if one does."""
        return self._zoomed

    @on(Pane.ZoomToggled)
    def _zoom_toggled(self, message: Pane.ZoomToggled) -> None:
        self.zoom(None if message.pane is self._zoomed else message.pane)

    def zoom(self, pane: Pane | None) -> None:
        """Let `pane` fill the screen above the footer, or (None) give every pane its place back.

        Not Textual's `Screen.maximize`: that sets a class on the screen, so Textual
        restyles every widget on it, and a restyled DataTable drops every row it has
        rendered; a zoom took ~130 ms at 120x40. Here only inline styles change
        (which widgets show, how many cells the pane spans), and the zoomed pane is
        restyled alone.
        """
        if pane is self._zoomed:
            return
        grid = self.query_one("#panes", Grid)
        if self._zoomed is not None:
            self._zoomed.styles.column_span = None  # None: back to the stylesheet's one cell
            self._zoomed.styles.row_span = None
            self._zoomed.show_zoomed(False)
        self._zoomed = pane
        self.header.display = pane is None
        for each in grid.query_children(Pane):
            each.display = pane is None or each is pane
        if pane is not None:
            # Spanning the grid rather than resizing it: a new grid size would make Textual
            # redraw every widget in every pane, the ones coming back unchanged too.
            pane.styles.column_span = grid.styles.grid_size_columns
            pane.styles.row_span = grid.styles.grid_size_rows
            pane.show_zoomed(True)
            if not pane.has_focus_within:  # zoomed from the palette: keys go to what is shown
                pane.focus_first()
        else:
            self.show_data_age()  # the panes back in view may be older than the one that was zoomed

    # --- actions ----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.action_state_on(self.screen, action, parameters)

    def action_state_on(self, screen: Screen[object], action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether an app action can run for a person on `screen`.

        `check_action` asks about the screen on top; the palette and the help ask
        about the screen under them (`tui.dashboard.keys.keymap`).
        """
        if action == "focus_pane":
            # Only where the panes are, and never instead of typing a digit.
            return screen is self.screen_stack[0] and not takes_text(screen.focused)
        if action == "help":
            # Not over the help itself: its own ? and f1 close it.
            typed = parameters == ("?",) and takes_text(screen.focused)
            return not typed and not isinstance(screen, HelpScreen)
        if action == "switch_context":
            return (
                self.contexts is not None
                and len(self.contexts.names) > 1
                and screen is self.screen_stack[0]
                and not takes_text(screen.focused)
            )
        if action == "retry_connection":
            return screen is self.screen_stack[0] and self.banner.showing
        if action == "open_problem":
            return screen is self.screen_stack[0] and self.can_open_problem() and not takes_text(screen.focused)
        if action == "quit":
            # q is typing in a text field, and never quits from a screen that has one: it would lose what was typed.
            return screen is self.screen_stack[0] or not has_text_field(screen)
        if action == "minimize":
            return self._zoomed is not None or screen.maximized is not None
        if action == "open_by_id" and (isinstance(screen, ModalScreen) or screen is self._problem_screen):
            # The dashboard and its job and list screens only: not stacked on a dialog (a confirm
            # waiting for its answer, the export, the help), nor on the problem screen, where no
            # job is shown and, before a first answer, none can be found.
            return False
        if action in OPENS:
            # Never instead of typing, nor a second copy of the screen already on top.
            return not takes_text(screen.focused) and self.navigator.answers(screen) is not OPENS[action]
        return True

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        # Textual's "Keys" panel lists keys without their owners; the help screen (?) replaces it.
        return (command for command in super().get_system_commands(screen) if command.title != "Keys")

    def action_help(self, key: str = "f1") -> None:
        """Show the keys that work on the current screen (`key`: which key asked, see check_action)."""
        self.post_message(OpenHelp())

    def action_switch_context(self) -> None:
        """Offer the config file's contexts; the dashboard starts again on the one chosen."""
        if self.contexts is None:
            return
        from tui.dashboard.startup.context_picker import ContextPickerScreen

        self.push_screen(ContextPickerScreen(self.contexts), self._context_chosen)

    def _context_chosen(self, switch: SwitchTo | None) -> None:
        if switch is not None:
            self.exit(result=switch)  # run_dashboard starts the dashboard again on it: nothing of this one stays

    def action_focus_pane(self, pane_id: str) -> None:
        self.query_one(f"#{pane_id}", Pane).focus_first()

    def action_docs_search(self) -> None:
        """Open the docs search screen (with the last question and results of this run)."""
        self.post_message(OpenDocsSearch())

    def action_open_by_id(self) -> None:
        """Ask for a job id or a URL with one, and open that job (crawl, batch, scrape, extract, browser session)."""
        self.post_message(OpenJobById())

    def action_minimize(self) -> None:
        if self._zoomed is not None:
            self.zoom(None)
        elif self.screen.maximized is not None:  # Textual's own "Maximize" command, on a table
            self.screen.minimize()

    async def on_mount(self) -> None:
        self.remember_theme()
        self.open_monitor(self.clock)
        for note in self.startup_notes:
            self.notify(note, severity="warning", timeout=10)
        webhooks = self.memory.webhooks
        # Crawls and batches its events name reach the crawls pane; the listening ends with the app.
        self._stop_watching_jobs = webhooks.watch_jobs(lambda seen: self.post_message(JobsSeen(seen)))
        self.watch_the_inbox()  # every delivery, and its signature check, to the monitor
        if webhooks.configured is not None:  # --webhook-listen: listen from the start, not from the first w
            self.run_worker(self._listen_for_webhooks(), exit_on_error=False)

    async def _listen_for_webhooks(self) -> None:
        webhooks = self.memory.webhooks
        address = await webhooks.start()
        if address is None:
            self.notify(f"Webhook inbox: {webhooks.note}", severity="error", timeout=10)

    async def on_unmount(self) -> None:
        self._stop_watching_jobs()
        self.stop_watching_the_inbox()
        await self.close_monitor()
        await self.memory.webhooks.close()
        await self.client.aclose()
