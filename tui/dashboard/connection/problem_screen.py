"""A full screen for a service that cannot be used: why, what to do, and retrying.

It keeps trying in the background (the live-data loop of `tui.dashboard.kit.widgets.live`:
the next try only after the last one ended, so a slow answer is never cut
short) and gets out of the way by itself as soon as the service answers again,
so a restarted server or a fixed VPN needs no keystroke.

A refused key (401) is not hammered: the tries wait longer each time, up to a
minute, and the screen offers to type another key for this run (masked, never
echoed); a key the service accepts replaces the refused one at once, and may
be saved to the config file (mode 0600) after a confirmation.

Esc goes back to the dashboard when it has data to show (the screen was
opened with `K` from the banner's refused-key line, or the dashboard had an
answer since); before any answer there is nothing behind it, and Esc says so
rather than leaving empty panes (q quits). Opened with `K`, the screen stays
until Esc even when a try succeeds: it says so instead of vanishing under a
person reading it or typing another key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Checkbox, Input, Static

from tui.api.client import WdsClient
from tui.api.errors import AuthenticationError, WdsError
from tui.contract.redact import mask_key
from tui.dashboard.connection.advice import advice_for
from tui.dashboard.connection.banner import Refusal
from tui.dashboard.kit.clock import system_clock
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.live import LiveData
from tui.dashboard.kit.widgets.tick_box import TickBox
from tui.dashboard.shell.intents import Confirm
from tui.dashboard.startup.config_edit import save_api_key

RETRY_SECONDS = 5.0
REFUSED_KEY_LONGEST_WAIT = 60.0


class ConnectionProblemScreen(Screen[None], LiveData[object]):
    """Shown while the service is unreachable or refuses the key."""

    # Nothing focused at first: a focused key field would take r and q as text, and the footer would
    # offer nothing. k goes to the field.
    AUTO_FOCUS = ""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back to the dashboard", id="connection_problem.close"),
        # Esc before the dashboard had data: nothing to go back to, and the screen says so (check_action).
        Binding("escape", "say_nothing_behind", "Back", show=False, id="connection_problem.say_nothing_behind"),
        Binding("r", "retry_now", "Retry now", id="connection_problem.retry_now"),
        Binding("k", "type_key", "Type another key", id="connection_problem.type_key"),
        Binding("q", "app.quit", "Quit", id="connection_problem.quit"),
    ]

    DEFAULT_CSS = """
    ConnectionProblemScreen { align: center middle; }
    ConnectionProblemScreen #problem {
        width: 80%; max-width: 90; height: auto;
        border: heavy $error; padding: 1 2; background: $surface;
    }
    ConnectionProblemScreen #problem-title { text-style: bold; color: $error; }
    ConnectionProblemScreen #problem-retry { color: $text-muted; margin-top: 1; }
    ConnectionProblemScreen #new-key-box { height: auto; margin-top: 1; }
    ConnectionProblemScreen #new-key-note { color: $text-muted; height: auto; }
    """

    def __init__(
        self,
        client: WdsClient,
        host: str,
        error: WdsError,
        *,
        embedded_log: Path | None = None,
        config_path: Path | None = None,
        context: str | None = None,
        has_data_behind: Callable[[], bool] = lambda: False,
        closes_by_itself: bool = True,
    ) -> None:
        super().__init__()
        self.has_data_behind = has_data_behind  # whether the dashboard under this screen has had an answer
        self.closes_by_itself = closes_by_itself  # False: opened by a person (K), closed by a person (Esc)
        self.client = client
        self.host = host
        self.embedded_log = embedded_log  # the service is the embedded emulator: its log
        self.config_path = config_path  # where a key typed here may be saved (None: nowhere)
        self.context = context
        self.error = error
        self.attempts = 0
        self.interval = RETRY_SECONDS
        self.clock = system_clock

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="problem"):
            # The cause is the service's words (or the network's): text, never markup.
            yield Static(shown(self.error.title), id="problem-title")
            yield Static(shown(self.error.message or "", lines=True), id="problem-cause")
            yield Static(shown(advice_for(self.error, self.host, self.embedded_log), lines=True), id="problem-advice")
            yield Static("", id="problem-retry")
            with Vertical(id="new-key-box"):
                yield Input(placeholder="another API key for this run (not shown)", password=True, id="new-key")
                if self.config_path is not None:
                    yield TickBox(
                        f"also save it to {self.config_path} (readable by you only)", id="save-key", compact=True
                    )
                yield Static("", id="new-key-note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._show_key_box()
        self._show_retry_state()
        self.start_polling(at_once=False)
        # Nothing here takes the focus unless the key field shows, and Textual tells the footer of
        # a screen's keys only when the focus moves: asked once, its keys show from the start.
        self.call_after_refresh(self.refresh_bindings)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close":
            return self.has_data_behind()
        if action == "say_nothing_behind":
            return not self.has_data_behind()
        if action == "type_key":
            return self.key_refused
        return True

    def action_type_key(self) -> None:
        self.query_one("#new-key", Input).focus()

    def action_close(self) -> None:
        """Back to the dashboard and its data (the banner still tells of the trouble)."""
        self.dismiss()

    def action_say_nothing_behind(self) -> None:
        self.notify(
            f"Nothing to go back to yet: {self.host} has not answered once. This screen goes by itself when it "
            "does; q quits.",
            severity="warning",
        )

    @property
    def key_refused(self) -> bool:
        return isinstance(self.error, Refusal)

    def _show_key_box(self) -> None:
        self.query_one("#new-key-box").display = self.key_refused
        self.refresh_bindings()  # k is offered only with the field

    def _show_retry_state(self) -> None:
        attempts = f"{self.attempts} attempt{'s' if self.attempts != 1 else ''} so far"
        if self.key_refused:
            text = (
                f"Trying the key again in {self.interval:g} s, then less and less often (at most every "
                f"{REFUSED_KEY_LONGEST_WAIT:g} s; {attempts}). Press k to type another key; Enter uses it now."
            )
        else:
            text = (
                f"Retrying every {RETRY_SECONDS:g} s in the background ({attempts}); "
                "this screen closes by itself when the service answers."
            )
        self.query_one("#problem-retry", Static).update(text)

    def action_retry_now(self) -> None:
        self.refresh_data()

    # --- live data: one cheap call per try --------------------------------------------

    async def fetch(self) -> object:
        self.attempts += 1
        # One try, no retries (this screen is the retry loop), with the client's key of the moment.
        return await self.client.with_options(max_retries=0).crawl.active()

    def show(self, data: object) -> bool:
        """The service answers: the dashboard can go back to work (opened with K: once Esc is pressed)."""
        self.stop_polling()
        if not self.closes_by_itself:
            when = self.clock().astimezone().strftime("%H:%M:%S")
            self.query_one("#problem-retry", Static).update(
                f"The service accepted the key at {when} (r tries again). Esc goes back to the dashboard."
            )
            return True
        self._back_to_work()
        return True

    def _back_to_work(self) -> None:
        self.stop_polling()
        # The panes live on the screen below this one; they fetch at once instead of at their next tick.
        panes = list(self.app.screen_stack[0].query("Pane"))
        self.dismiss()
        for pane in panes:
            pane.refresh_data()  # type: ignore[attr-defined]

    show_again = show

    def fetch_failed(self, error: WdsError) -> None:
        if type(error) is not type(self.error) or error.message != self.error.message:
            self.error = error
            self.query_one("#problem-title", Static).update(shown(error.title))
            self.query_one("#problem-cause", Static).update(shown(error.message or "", lines=True))
            advice = advice_for(error, self.host, self.embedded_log)
            self.query_one("#problem-advice", Static).update(shown(advice, lines=True))
            self._show_key_box()
        # A refused key is not hammered: each try waits twice as long, up to a minute.
        self.interval = min(self.interval * 2, REFUSED_KEY_LONGEST_WAIT) if self.key_refused else RETRY_SECONDS
        self._show_retry_state()

    # --- another key, typed here --------------------------------------------------------

    @on(Input.Submitted, "#new-key")
    def _key_typed(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self._try_key(event.value)

    @work(exclusive=True, exit_on_error=False, group="try-key")
    async def _try_key(self, key: str) -> None:
        note = self.query_one("#new-key-note", Static)
        probe = self.client.with_options(max_retries=0)
        try:
            probe.replace_api_key(key)
        except ValueError as exc:
            note.update(f"That cannot be a key: {exc}.")
            return
        note.update("Trying that key…")
        try:
            await probe.crawl.active()
        except AuthenticationError:
            note.update("The service refused that key too. Check it and try again.")
            return
        except WdsError as exc:
            note.update(shown(f"Could not try that key: {exc.title}: {exc.message}", lines=True))
            return
        self.client.replace_api_key(key)
        self.post_message(self.KeyReplaced(mask_key(key)))
        save = self.config_path is not None and self.query_one("#save-key", Checkbox).value
        path, context = self.config_path, self.context
        self._back_to_work()
        if save and path is not None:
            self.app.post_message(
                Confirm(
                    f"Save the key ending {mask_key(key)} to {path} (readable by you only)? "
                    "It replaces the api_key written there for this context.",
                    "Save",
                    lambda: _save_key(self.app, path, context, key),
                )
            )

    @dataclass(eq=False)
    class KeyReplaced(Message):
        """The client now sends another key (masked here, for the header)."""

        masked_key: str


def _save_key(app: App[object], path: Path, context: str | None, key: str) -> None:
    try:
        save_api_key(path, context, key)
    except OSError as exc:
        app.notify(f"The key could not be saved to {path}: {exc.strerror or exc}", severity="error")
        return
    app.notify(f"Key saved to {path} (mode 0600).")
