"""The app's view of the connection, fed by the panes: the header's state, a banner, a problem screen.

The first answer decides which: until the dashboard has had one, a line
names the call it waits for (`tui.dashboard.connection.first_wait`), and an
unreachable service or a refused key is a full screen (what to check, a
field for another key). Once it has, trouble is a one-line banner over the
kept data (`tui.dashboard.connection.banner`), never a screen that would take
the focus from a form: a lost link (the panes hold still and the banner alone
tries again) or a refused key (`K` opens the full screen, which then stays
until Esc).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from textual.app import App, ReturnType

from tui.api.errors import APIConnectionError, APIStatusError, AuthenticationError, WdsError
from tui.dashboard.connection.banner import ConnectionBanner, Refusal
from tui.dashboard.connection.first_wait import FirstAnswerWait
from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.kit.pane import Pane

if TYPE_CHECKING:
    from tui.api.client import WdsClient
    from tui.dashboard.connection.problem_screen import ConnectionProblemScreen
    from tui.dashboard.kit.clock import Clock
    from tui.dashboard.kit.widgets.status_header import StatusHeader
    from tui.dashboard.shell.service_info import ServiceInfo


def health_of(error: WdsError) -> Literal["unreachable", "refused"] | None:
    """What a pane's failure says of the service: no answer (or a server error), a refused key, or nothing."""
    if isinstance(error, AuthenticationError):
        return "refused"
    if isinstance(error, APIConnectionError) or (isinstance(error, APIStatusError) and error.status >= 500):
        return "unreachable"
    return None  # a 4xx, a rate limit: the service answers, the call was the problem


class WatchesTheConnection(App[ReturnType]):
    """An app that watches its connection (mix in before `App`); the app sets the parts declared here."""

    header: StatusHeader
    banner: ConnectionBanner
    first_wait: FirstAnswerWait
    service: ServiceInfo
    client: WdsClient
    clock: Clock

    _connected_once = False  # after a first answer, a lost link is a banner, not a full screen
    _problem_screen: ConnectionProblemScreen | None = None

    def on_pane_refreshed(self, message: Pane.Refreshed) -> None:
        header = self.header
        header.connection = "connected"  # its "updated": tui.dashboard.shell.data_age
        self._connected_once = True
        tell_monitor(self, lambda monitor: monitor.saw_health("ok"))
        self.first_wait.first_answer()
        if self.banner.showing:
            self._back_online()
        if not self.screen_stack or not message.pane.is_attached:  # a late answer while the app shuts down
            return
        if self.screen.focused is None and message.pane.screen is self.screen:
            # Nothing could take the focus before data arrived; keys should work at once.
            message.pane.focus_first()

    def on_pane_fetch_failed(self, message: Pane.FetchFailed) -> None:
        header = self.header
        error = message.error
        health = health_of(error)
        if health is not None:  # the service_down rule: unreachable, or the key refused, for some minutes
            tell_monitor(self, lambda monitor: monitor.saw_health(health, f"{error.title}: {error.message}"))
        if isinstance(error, AuthenticationError):
            header.connection = "unauthorised"
        else:
            header.connection = "failing"
        # Refused after a first answer: said on the banner, the panes keep their data and go on asking.
        if isinstance(error, Refusal) and self._connected_once:
            self.banner.refused(error)
            return
        # Lost after a first answer: the panes keep their data under a banner, which alone retries.
        if isinstance(error, APIConnectionError) and self._connected_once:
            if not self.banner.showing:  # panes failing in the same moment are one loss, not several attempts
                for pane in self.query(Pane):
                    pane.held = True
                self.banner.embedded_log = self.service.emulator_log
                self.banner.lost(error)
            return
        # A refused key, or no answer yet at all, is not a pane's problem: say so full-screen,
        # once, however many panes fail at the same moment.
        if isinstance(error, AuthenticationError | APIConnectionError) and self._problem_screen is None:
            self._show_problem(error, closes_by_itself=True)

    def _show_problem(self, error: WdsError, *, closes_by_itself: bool) -> None:
        from tui.dashboard.connection.problem_screen import (
            ConnectionProblemScreen,  # imported on first use: start-up time
        )

        self._problem_screen = ConnectionProblemScreen(
            self.client,
            self.service.host,
            error,
            embedded_log=self.service.emulator_log,
            config_path=None if self.service.embedded else self.service.config_path,
            context=self.service.context,
            has_data_behind=lambda: self._connected_once,
            closes_by_itself=closes_by_itself,
        )
        self.push_screen(self._problem_screen, callback=self._problem_solved)

    def _problem_solved(self, _: None) -> None:
        self._problem_screen = None

    def can_open_problem(self) -> bool:
        """Whether `K` has a refusal to explain, and no problem screen is open already."""
        return self.banner.refusing and self._problem_screen is None

    def action_open_problem(self) -> None:
        """Open the problem screen on the refusal the banner tells of (it stays until Esc)."""
        if self.banner.last_refusal is not None and self._problem_screen is None:
            self._show_problem(self.banner.last_refusal, closes_by_itself=False)

    def on_connection_problem_screen_key_replaced(self, message: ConnectionProblemScreen.KeyReplaced) -> None:
        """A key typed on the problem screen replaced the refused one: the header shows it, masked."""
        self.header.masked_key = message.masked_key
        self.header.refresh()
        self.banner.key_accepted()

    def on_connection_banner_restored(self, _: ConnectionBanner.Restored | None = None) -> None:
        self._back_online()

    def _back_online(self) -> None:
        """The service answers again: hide the banner, and every pane fetches at once."""
        self.header.connection = "connected"
        self.banner.restored()
        for pane in self.query(Pane):
            pane.held = False
            pane.refresh_data()

    def action_retry_connection(self) -> None:
        self.banner.retry_now()
