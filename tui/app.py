"""The Textual application: a header, four panes, a footer.

The app is built from a client and a little description of the service
(harlequin's habit: the backend is passed in), so tests build it on an
in-process emulator and the CLI builds it on whatever is configured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.widgets import Footer

from tui.api.client import WdsClient
from tui.api.errors import APIConnectionError, AuthenticationError
from tui.clock import Clock, system_clock
from tui.commands import DashboardCommands
from tui.panes.activity import ActivityPane
from tui.panes.base import Pane
from tui.panes.crawls import CrawlsPane
from tui.panes.sessions import SessionsPane
from tui.panes.usage import UsagePane
from tui.screens.connection import ConnectionProblemScreen
from tui.widgets.status_header import StatusHeader


@dataclass(frozen=True)
class ServiceInfo:
    """What the header says about the service; never holds the key itself."""

    host: str
    masked_key: str
    embedded: bool = False


@dataclass(frozen=True)
class Intervals:
    """Seconds between polls, per pane."""

    crawls: float = 5.0
    activity: float = 10.0
    usage: float = 60.0
    sessions: float = 5.0
    extra: dict[str, float] = field(default_factory=dict)


class WdsApp(App[None]):
    """The dashboard."""

    TITLE = "wds-tui"
    CSS_PATH = Path(__file__).parent / "app.tcss"
    COMMANDS = App.COMMANDS | {DashboardCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("1", "focus_pane('crawls')", "Crawls", show=False),
        Binding("2", "focus_pane('activity')", "Activity", show=False),
        Binding("3", "focus_pane('usage')", "Usage", show=False),
        Binding("4", "focus_pane('sessions')", "Sessions", show=False),
        Binding("escape", "minimize", "Restore", show=False),
    ]

    def __init__(
        self,
        client: WdsClient,
        service: ServiceInfo,
        *,
        clock: Clock = system_clock,
        intervals: Intervals | None = None,
    ) -> None:
        super().__init__()
        self.client = client
        self.service = service
        self.clock = clock
        self.intervals = intervals or Intervals()

    def compose(self) -> ComposeResult:
        yield StatusHeader(
            service=self.service.host,
            masked_key=self.service.masked_key,
            embedded=self.service.embedded,
        )
        with Grid(id="panes"):
            yield CrawlsPane(self.client, interval=self.intervals.crawls, clock=self.clock, id="crawls")
            yield ActivityPane(
                self.client, interval=self.intervals.activity, clock=self.clock, id="activity"
            )
            yield UsagePane(self.client, interval=self.intervals.usage, clock=self.clock, id="usage")
            yield SessionsPane(
                self.client, interval=self.intervals.sessions, clock=self.clock, id="sessions"
            )
        yield Footer()

    @property
    def panes(self) -> list[Pane]:
        return list(self.query(Pane).results())

    # --- connection state, fed by the panes -----------------------------------

    @on(Pane.Refreshed)
    def _pane_refreshed(self, message: Pane.Refreshed) -> None:
        header = self.query_one(StatusHeader)
        header.connection = "connected"
        if message.changed:
            header.last_refresh = self.clock()

    @on(Pane.FetchFailed)
    def _pane_failed(self, message: Pane.FetchFailed) -> None:
        header = self.query_one(StatusHeader)
        error = message.error
        if isinstance(error, AuthenticationError):
            header.connection = "unauthorised"
        else:
            header.connection = "failing"
        # A refused key or an unreachable service is not a pane's problem: say so full-screen.
        if isinstance(error, AuthenticationError | APIConnectionError) and not isinstance(
            self.screen, ConnectionProblemScreen
        ):
            self.push_screen(ConnectionProblemScreen(self.client, self.service.host, error))

    # --- actions ----------------------------------------------------------------

    def action_focus_pane(self, pane_id: str) -> None:
        self.query_one(f"#{pane_id}", Pane).focus_first()

    def action_minimize(self) -> None:
        if self.screen.maximized is not None:
            self.screen.minimize()

    async def on_unmount(self) -> None:
        await self.client.aclose()
