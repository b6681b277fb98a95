"""The execute console: run code in a browser session and watch the browser live.

One screen per target: a standalone session (`POST /v2/browser/{id}/execute`)
or the browser bound to a scrape job (`POST /v2/scrape/{id}/interact`, where
code or a prompt is sent, exactly one, and ctrl+t stops the session after a
confirmation). Left: the form (`form.py`: editor, language, timeout) and the parts of the last
run. Right: the live CDP status of the session and the history of runs.

The code typed is never lost: nothing clears the editor, a failed call (410,
429, 502, a timeout, the network) is shown in the output area with its title
and message, and the draft is kept in the target's `RunHistory` when the
screen closes, so opening the console again brings it back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Select, Static, TextArea
from textual.worker import Worker, WorkerState

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.models.browser import BrowserSession, BrowserSessionCreated, ExecuteResult
from tui.contract.models.scrape import InteractResult
from tui.contract.requests import ExecuteRequest, InteractRequest
from tui.contract.validation import validation_details
from tui.dashboard.features.console.cdp_panel import CdpStatusPanel
from tui.dashboard.features.console.example_offer import offer_example
from tui.dashboard.features.console.form import NOTHING_TO_RUN, ConsoleForm
from tui.dashboard.features.console.history import (
    LANGUAGES,
    CallFailure,
    ConsoleTarget,
    RunHistory,
    RunMode,
    RunOutcome,
    RunRecord,
    RunSpec,
    parse_timeout,
    request_for,
)
from tui.dashboard.features.console.output import RunList, RunOutput, stop_notice
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import short_id
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import Confirm

RUN_GROUP = "console-run"
STOP_GROUP = "console-stop"


class ConsoleScreen(ForwardsWorkerFailures, Screen[None]):
    """Run code (or, in interact mode, a prompt) in a browser and show each part of the answer.

    `target` is a `ConsoleTarget`, or a session from `client.browser.list()` / `client.browser.create()`.
    Pass the target's `RunHistory` (see `ConsoleHistories`) so runs and the unsent draft outlive the screen.
    Keys as BINDINGS says; Enter in the history recalls a run too (ctrl+z undoes it). One Escape closes
    the screen, from the editor too (Tab indents there, shift+Tab leaves it); a run in flight is cancelled,
    its code kept.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "run", "Run", priority=True, id="console.run"),
        Binding("ctrl+enter", "run", "Run", show=False, priority=True, id="console.run"),
        Binding("ctrl+o", "recall", "Recall run", id="console.recall"),
        Binding("f5", "rerun", "Re-run", id="console.rerun"),
        Binding("ctrl+g", "toggle_mode", "Code/Prompt", id="console.toggle_mode"),
        Binding("ctrl+t", "stop", "Stop session", id="console.stop"),
        Binding("escape", "close", "Close", id="console.close"),
    ]

    DEFAULT_CSS = """
    ConsoleScreen { layout: vertical; }
    ConsoleScreen #console-title { height: 1; padding: 0 1; background: $panel; }
    ConsoleScreen #console-name { width: 1fr; text-style: bold; }
    ConsoleScreen #run-state { width: auto; color: $warning; text-style: bold; }
    ConsoleScreen #console-body { height: 1fr; }
    ConsoleScreen #console-main { width: 3fr; }
    ConsoleScreen #console-side { width: 2fr; min-width: 30; }
    ConsoleScreen #console-controls { height: auto; }
    ConsoleScreen #console-controls Select { width: 14; }
    ConsoleScreen #console-controls Label { height: 3; content-align: left middle; padding: 0 1; }
    ConsoleScreen #timeout { width: 9; }
    ConsoleScreen .field-error { color: $error; height: auto; padding: 0 1; }
    ConsoleScreen #editor, ConsoleScreen #prompt { height: 1fr; min-height: 4; }
    """

    running: reactive[bool] = reactive(False, bindings=True, init=False)
    mode: reactive[RunMode] = reactive("code", bindings=True, init=False)

    def __init__(
        self,
        client: WdsClient,
        target: ConsoleTarget | BrowserSession | BrowserSessionCreated,
        *,
        clock: Clock = system_clock,
        history: RunHistory | None = None,
        timer: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__()
        self.client = client
        self.target = target if isinstance(target, ConsoleTarget) else ConsoleTarget.for_session(target)
        self.clock = clock
        self.history = history if history is not None else RunHistory()
        self._timer = timer
        self.form = ConsoleForm(self, interact=self.target.interact)
        self._draft_ready = False  # set once mounted: saving the draft reads the widgets

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="console-title"):
            yield Label(shown(self.target.title), id="console-name")
            yield Static("", id="run-state", markup=False)
        with Horizontal(id="console-body"):
            with Vertical(id="console-main"):
                yield from self.form.compose(self.history.draft)
                yield RunOutput(id="output")
            with Vertical(id="console-side"):
                note = (
                    "connects after the first run: the interact answer carries the CDP URL"
                    if self.target.interact
                    else "this session has no CDP URL"
                )
                yield CdpStatusPanel(self.target.cdp_url, waiting_note=note, id="cdp")
                yield RunList(id="history")
        yield Footer()

    def on_mount(self) -> None:
        self.form.hide_errors()
        self.form.highlight(self.history.draft.language)
        self.set_reactive(ConsoleScreen.mode, self.history.draft.mode if self.target.interact else "code")
        self.watch_mode(self.mode)
        self.query_one(RunList).show(self.history)
        if self.history.latest is not None:
            self.query_one(RunOutput).show_run(self.history.latest)
        # At once: Widget.focus would wait a turn, and the screen's own first focus
        # could land in between on another field.
        self.set_focus(self.form.editor_for(self.mode))
        self._draft_ready = True

    # --- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("toggle_mode", "stop"):
            return self.target.interact  # interact only: hidden for a standalone session
        return None if action in ("run", "rerun") and self.running else True

    @mutates("running code in a browser")
    def action_run(self) -> None:
        """Send what is in the editor (validated first; nothing is sent when it is invalid)."""
        if self.running:
            return  # a second ctrl+r while a run is in flight must not send twice
        if self.mode == "code" and not self.form.editor_for("code").text.strip():
            return self._offer_example()
        spec = self.form.read_spec(self.mode)
        if spec is None or (request := self._build_request(spec)) is None:
            return
        record = self.history.start(spec, self.clock())
        self.running = True
        self.query_one(RunList).show(self.history)
        self.query_one(RunOutput).show_run(record)
        self._run(record, request)

    def _offer_example(self) -> None:
        """Nothing to run: offer the language's example (Enter/y inserts it; nothing is sent)."""
        offer_example(
            self.form.editor_for("code"),
            self.form.language(),
            lambda inserted: self.form.show_error("code-error", None if inserted else NOTHING_TO_RUN),
        )

    def action_recall(self) -> None:
        """Put the highlighted run of the history back into the editor."""
        record = self._highlighted_run()
        if record is not None:
            self._recall(record)

    @mutates("running code in a browser")
    def action_rerun(self) -> None:
        """Recall the highlighted run and run it again."""
        record = self._highlighted_run()
        if record is not None and not self.running:
            self._recall(record)
            self.action_run()

    def action_toggle_mode(self) -> None:
        if self.target.interact:
            self.mode = "prompt" if self.mode == "code" else "code"

    @mutates("stopping a browser session")
    def action_stop(self) -> None:
        """Stop the scrape's browser session (after a confirmation)."""
        if not self.target.interact:
            return
        message = (
            f"Stop the browser session of scrape {short_id(self.target.id)}?\n"
            "Its live page state is lost; later interact calls on this job answer 410."
        )
        self.post_message(Confirm(message, "Stop", self._stop))

    def action_close(self) -> None:
        self.dismiss(None)

    # --- sending ------------------------------------------------------------------------

    def _build_request(self, spec: RunSpec) -> ExecuteRequest | InteractRequest | None:
        """The request model: the contract's limits are checked here, before anything is sent."""
        try:
            return request_for(self.target, spec)
        except ValidationError as exc:
            self.form.show_issues(validation_details(exc))
        return None

    # --- running -----------------------------------------------------------------------

    @work(exclusive=True, exit_on_error=False, group=RUN_GROUP)
    async def _run(self, record: RunRecord, request: ExecuteRequest | InteractRequest) -> None:
        started = self._timer()
        try:
            if isinstance(request, InteractRequest):
                answer: InteractResult | ExecuteResult = await self.client.scrape.interact(
                    self.target.id, request=request
                )
            else:
                answer = await self.client.browser.execute(self.target.id, request=request)
        except WdsError as error:
            record.fail(CallFailure.of(error), self._timer() - started)
        except asyncio.CancelledError:
            record.cancel(self._timer() - started)  # the screen closed; the code stays in the history
            raise
        else:
            record.finish(RunOutcome.of(answer), self._timer() - started)
            if isinstance(answer, InteractResult) and answer.cdp_url:
                self.query_one(CdpStatusPanel).connect(answer.cdp_url)
        self._run_ended(record)

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """A bug rather than a refused call: still say so in place (and free the Run key)."""
        if event.state is not WorkerState.ERROR or event.worker.group not in (RUN_GROUP, STOP_GROUP):
            return
        event.prevent_default()  # said here, in place: not for the app's failure sink
        error = event.worker.error
        failure = CallFailure("Unexpected error", f"{type(error).__name__}: {error}")
        record = self.history.latest
        if event.worker.group == STOP_GROUP:
            self.query_one(RunOutput).show_notice(f"✗ {failure.title}", failure.message, failed=True)
        elif record is not None and record.state == "running":
            record.fail(failure, 0.0)
            self._run_ended(record)

    def _run_ended(self, record: RunRecord) -> None:
        self.running = False
        self.query_one(RunOutput).show_run(record)
        self.query_one(RunList).update_run(record)

    def watch_running(self, running: bool) -> None:
        self.query_one("#run-state", Static).update("running…" if running else "")

    @work(exclusive=True, exit_on_error=False, group=STOP_GROUP)
    async def _stop(self) -> None:
        output = self.query_one(RunOutput)
        try:
            stopped = await self.client.scrape.stop_interaction(self.target.id)
        except WdsError as error:
            output.show_notice(f"✗ could not stop the session: {error.title}", str(error), failed=True)
            return
        output.show_notice("Browser session stopped", stop_notice(stopped.session_duration_ms, stopped.credits_billed))

    # --- history -------------------------------------------------------------------------

    def _highlighted_run(self) -> RunRecord | None:
        number = self.query_one(RunList).highlighted_number
        return self.history.get(number) if number is not None else None

    @on(OptionList.OptionSelected, "#history")
    def _history_selected(self, event: OptionList.OptionSelected) -> None:
        record = self.history.get(int(event.option.id or 0))
        if record is not None:
            self._recall(record)

    def _recall(self, record: RunRecord) -> None:
        spec = record.spec
        if spec.mode == "prompt" and not self.target.interact:
            return
        self.mode = spec.mode
        self.form.recall(spec).focus()
        self.query_one(RunOutput).show_run(record)
        self._save_draft()

    # --- keeping the draft and the editor in step ---------------------------------------

    def watch_mode(self, mode: RunMode) -> None:
        if not self.target.interact:
            return
        self.form.show_mode(mode)
        self._save_draft()

    @on(Select.Changed, "#mode")
    def _mode_chosen(self, event: Select.Changed) -> None:
        if event.value in ("code", "prompt") and event.value != self.mode:
            self.mode = event.value  # type: ignore[assignment]
            self.form.editor_for(self.mode).focus()

    @on(Select.Changed, "#language")
    def _language_chosen(self, event: Select.Changed) -> None:
        if event.value in LANGUAGES:
            self.form.use_language(event.value)  # type: ignore[arg-type]
            self._save_draft()

    @on(Input.Changed, "#timeout")
    def _timeout_changed(self, event: Input.Changed) -> None:
        self.form.show_error("timeout-error", parse_timeout(event.value)[1])
        self._save_draft()

    @on(TextArea.Changed)
    def _text_changed(self) -> None:
        self._save_draft()

    def _save_draft(self) -> None:
        if self._draft_ready:
            self.history.draft = self.form.draft(self.mode)
