"""A full screen for a service that cannot be used: why, what to do, and retrying.

It keeps trying in the background (the live-data loop of `tui.widgets.live`:
the next try only after the last one ended, so a slow answer is never cut
short) and gets out of the way by itself as soon as the service answers again,
so a restarted server or a fixed VPN needs no keystroke.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from tui.advice import advice_for
from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.clock import system_clock
from tui.widgets.footer import Footer
from tui.widgets.live import LiveData

RETRY_SECONDS = 5.0


class ConnectionProblemScreen(Screen[None], LiveData[object]):
    """Shown while the service is unreachable or refuses the key."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry_now", "Retry now"),
        Binding("q", "app.quit", "Quit"),
    ]

    DEFAULT_CSS = """
    ConnectionProblemScreen { align: center middle; }
    ConnectionProblemScreen #problem {
        width: 80%; max-width: 90; height: auto;
        border: heavy $error; padding: 1 2; background: $surface;
    }
    ConnectionProblemScreen #problem-title { text-style: bold; color: $error; }
    ConnectionProblemScreen #problem-retry { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, client: WdsClient, host: str, error: WdsError, *, embedded_log: Path | None = None) -> None:
        super().__init__()
        self.client = client
        self.host = host
        self.embedded_log = embedded_log  # the service is the embedded emulator: its log
        self.error = error
        self.attempts = 0
        # One try, no retries: this screen is the retry loop.
        self._probe_client = client.with_options(max_retries=0)
        self.interval = RETRY_SECONDS
        self.clock = system_clock

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="problem"):
            yield Static(self.error.title, id="problem-title")
            yield Static(self.error.message or "", id="problem-cause", markup=False)
            yield Static(advice_for(self.error, self.host, self.embedded_log), id="problem-advice", markup=False)
            yield Static("", id="problem-retry")
        yield Footer()

    def on_mount(self) -> None:
        self._show_retry_state()
        self.start_polling(at_once=False)

    def _show_retry_state(self) -> None:
        self.query_one("#problem-retry", Static).update(
            f"Retrying every {RETRY_SECONDS:g} s in the background "
            f"({self.attempts} attempt{'s' if self.attempts != 1 else ''} so far); "
            "this screen closes by itself when the service answers."
        )

    def action_retry_now(self) -> None:
        self.refresh_data()

    # --- live data: one cheap call per try --------------------------------------------

    async def fetch(self) -> object:
        self.attempts += 1
        return await self._probe_client.crawl.active()

    def show(self, data: object) -> bool:
        """The service answers: the dashboard can go back to work."""
        self.stop_polling()
        # The panes live on the screen below this one; they fetch at once instead of at their next tick.
        panes = list(self.app.screen_stack[0].query("Pane"))
        self.dismiss()
        for pane in panes:
            pane.refresh_data()  # type: ignore[attr-defined]
        return True

    show_again = show

    def fetch_failed(self, error: WdsError) -> None:
        if type(error) is not type(self.error) or error.message != self.error.message:
            self.error = error
            self.query_one("#problem-title", Static).update(error.title)
            self.query_one("#problem-cause", Static).update(error.message or "")
            self.query_one("#problem-advice", Static).update(advice_for(error, self.host, self.embedded_log))
        self._show_retry_state()
