"""Ask the service's support agent about one job (`POST /v2/support/ask`) and compare its answers.

Opened by the `AskSupport` intent (the job screen, the activity pane and the
crawl status screen post it). The question is prefilled from what the screen
that asked knew of the job (kind, status, error, target) and can be edited
before it is sent with ctrl+s or the Send button; a rationale is optional.

The agent takes 15 to 30 s (60 at most): the summary line counts the seconds,
and Esc cancels the request, keeping the question. Every error of the
contract says what happened in its own words (`AskFailure.of`); a 504 keeps
the partial envelope and shows it under the "out of time" note. Nothing typed
is lost: the editor is never cleared, and what is typed is kept in the
Navigator's `SupportLog` while the screen is closed.

The side list holds every question of this run (any job), newest first;
Enter on one shows it beside the current answer. At 80 columns there is no
room for both: ctrl+o switches between the question and the list.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Input, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from tui.api.client import WdsClient
from tui.api.errors import GatewayTimeoutError, WdsError
from tui.contract.limits import SUPPORT_QUESTION_MAX, SUPPORT_RATIONALE_MAX
from tui.dashboard.features.support.answer import STATE_MARKS, SupportAnswerView
from tui.dashboard.features.support.log import AskDraft, AskFailure, AskRecord, AskSubject, SupportLog, partial_of
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import middle_clip
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.status_look import state_text
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

ASK_GROUP = "support-ask"
NOTHING_TO_ASK = "Nothing to send: write a question first."
CURRENT_NOTE = "No question sent yet. Edit the question above and press ctrl+s."
COMPARE_NOTE = "Enter on a question of the list above shows its answer here, to compare with the current one."


def list_line(record: AskRecord) -> Text:
    """A question as one line of the side list: number, time, job, state, first words."""
    at = record.asked_at.astimezone().strftime("%H:%M:%S")
    line = Text(f"#{record.number} {at} {STATE_MARKS[record.state]} {visible(record.subject.label)} ")
    line.append(visible(record.headline[:80]), style="dim")
    return line


def too_long(what: str, length: int, limit: int) -> str:
    return f"The {what} is {length:,} characters; the service takes at most {limit:,}. Shorten it."


class AskSupportScreen(ForwardsWorkerFailures, Screen[None]):
    """A question about one job, the agent's answer, and the run's earlier answers to compare with."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", priority=True, id="ask_support.send"),
        Binding("escape", "cancel", "Cancel", id="ask_support.cancel"),
        Binding("escape", "close", "Back", id="ask_support.close"),
        Binding("ctrl+o", "toggle_list", "Earlier answers", id="ask_support.toggle_list"),
    ]

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    DEFAULT_CSS = """
    AskSupportScreen { layout: vertical; }
    AskSupportScreen #ask-title {
        height: 1; padding: 0 1; background: $panel; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis;
    }
    AskSupportScreen #ask-body { height: 1fr; }
    AskSupportScreen #ask-main { width: 3fr; }
    AskSupportScreen #ask-side { width: 2fr; min-width: 36; }
    AskSupportScreen #question { height: 7; border-title-color: $text-muted; }
    AskSupportScreen.-narrow #question { height: 4; }
    AskSupportScreen #ask-row { height: 1; margin-bottom: 1; }
    AskSupportScreen.-narrow #ask-row { margin-bottom: 0; }
    AskSupportScreen #ask-row Label { width: auto; padding: 0 1; color: $text-muted; }
    AskSupportScreen #rationale { width: 1fr; }
    AskSupportScreen #send { margin-left: 1; min-width: 16; }
    AskSupportScreen .field-error { color: $error; height: auto; padding: 0 1; }
    AskSupportScreen #asked {
        height: auto; max-height: 10; border: round $primary 40%; text-wrap: nowrap; text-overflow: ellipsis;
    }
    AskSupportScreen #asked:focus { border: round $primary; }
    AskSupportScreen.-narrow #ask-side { display: none; }
    AskSupportScreen.-narrow.-listing #ask-side { display: block; width: 1fr; }
    AskSupportScreen.-narrow.-listing #ask-main { display: none; }
    """

    asking: reactive[bool] = reactive(False, bindings=True, init=False)

    def __init__(
        self,
        client: WdsClient,
        subject: AskSubject,
        *,
        log: SupportLog | None = None,
        clock: Clock = system_clock,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.client = client
        self.subject = subject
        self.asked_log = log if log is not None else SupportLog()
        self.clock = clock
        self._timer = timer
        self.current: AskRecord | None = self.asked_log.latest_for(subject.job_id)
        self.compared: AskRecord | None = None
        self._started = 0.0
        self._ticker: Timer | None = None
        self._draft_ready = False  # set once mounted: keeping the draft reads the widgets

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        draft = self.asked_log.draft_for(self.subject)
        yield Static(shown(self._title()), id="ask-title")
        with Horizontal(id="ask-body"):
            with Vertical(id="ask-main"):
                # Prefilled from what the service said of the job (its target): shown as text there too.
                question = TextArea(visible(draft.question, lines=True), soft_wrap=True, id="question")
                question.border_title = "Question (ctrl+s sends)"
                yield question
                yield Static("", id="question-error", classes="field-error", markup=False)
                with Horizontal(id="ask-row"):
                    yield Label("Rationale")
                    yield Input(
                        draft.rationale, placeholder="optional: what you are trying to do", compact=True, id="rationale"
                    )
                    yield Button("Send", id="send", compact=True, variant="primary")
                yield Static("", id="rationale-error", classes="field-error", markup=False)
                yield SupportAnswerView(CURRENT_NOTE, with_question=False, id="answer")
            with Vertical(id="ask-side"):
                asked = OptionList(id="asked")
                asked.border_title = "Asked this run (Enter shows)"
                yield asked
                yield SupportAnswerView(COMPARE_NOTE, id="compare")
        yield Footer()

    def _title(self) -> Text:
        subject = self.subject
        title = Text(f"Ask support · {visible(subject.label)}")
        if subject.status or subject.http_status is not None:
            title.append(" · ")
            title.append_text(state_text(subject.status, subject.http_status))
        if subject.target:  # last: at 80 columns the end of a long URL is what gets cut
            title.append(f" · {middle_clip(visible(subject.target), 60)}")
        return title

    def on_mount(self) -> None:
        for error in self.query(".field-error"):
            error.display = False
        self._show_list()
        self.query_one("#answer", SupportAnswerView).show(self.current)
        question = self.query_one("#question", TextArea)
        question.move_cursor(question.document.end)  # ready to add to the prefilled question
        self.set_focus(question)
        self._draft_ready = True

    # --- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "send":
            return None if self.asking else True
        if action == "cancel":
            return self.asking
        if action == "close":
            return not self.asking
        return True

    @mutates("asking support")
    def action_send(self) -> None:
        """Send the question (checked first: nothing is sent when it breaks a limit)."""
        if self.asking:
            return  # a second ctrl+s while the agent works must not ask twice
        question = self.query_one("#question", TextArea).text
        rationale = self.query_one("#rationale", Input).value
        if not self._valid(question, rationale):
            return
        previous = self.current
        record = self.asked_log.start(self.subject, question, rationale.strip() or None, self.clock())
        self.current = record
        if self.compared is None and previous is not None:
            self.show_compared(previous.number)  # the answer it replaces stays in sight, to compare
        self.asking = True
        self._started = self._timer()
        self._ticker = self.set_interval(1.0, self._tick)
        self._show_list()
        self._show_current()
        self._ask(record)

    def action_cancel(self) -> None:
        """Stop waiting for the agent; the question stays in the editor."""
        self.workers.cancel_group(self, ASK_GROUP)

    def action_close(self) -> None:
        if self.has_class("-narrow") and self.has_class("-listing"):
            self.action_toggle_list()  # from the list back to the question first, as ctrl+o does
        else:
            self.dismiss(None)

    def action_toggle_list(self) -> None:
        """At 80 columns switch between the question and the list; wider, move to the list and back."""
        asked = self.query_one("#asked", OptionList)
        if self.has_class("-narrow"):
            self.toggle_class("-listing")
            if self.has_class("-listing"):
                asked.focus()
            else:
                self.query_one("#question", TextArea).focus()
        elif asked.has_focus:
            self.query_one("#question", TextArea).focus()
        else:
            asked.focus()

    @on(Button.Pressed, "#send")
    @on(Input.Submitted, "#rationale")  # Enter on the one-line rationale: done typing, send
    def _send_pressed(self) -> None:
        self.action_send()

    # --- checking what was typed ---------------------------------------------------------

    def _show_error(self, field: str, message: str | None) -> None:
        error = self.query_one(f"#{field}-error", Static)
        error.update(shown(message or "", lines=True))  # the service's reason for a refusal
        error.display = message is not None

    def _valid(self, question: str, rationale: str) -> bool:
        question_problem = None
        if not question.strip():
            question_problem = NOTHING_TO_ASK
        elif len(question) > SUPPORT_QUESTION_MAX:
            question_problem = too_long("question", len(question), SUPPORT_QUESTION_MAX)
        rationale_problem = None
        if len(rationale.strip()) > SUPPORT_RATIONALE_MAX:
            rationale_problem = too_long("rationale", len(rationale.strip()), SUPPORT_RATIONALE_MAX)
        self._show_error("question", question_problem)
        self._show_error("rationale", rationale_problem)
        if question_problem is not None:
            self.query_one("#question", TextArea).focus()
        elif rationale_problem is not None:
            self.query_one("#rationale", Input).focus()
        return question_problem is None and rationale_problem is None

    # --- asking ------------------------------------------------------------------------

    @work(exclusive=True, exit_on_error=False, group=ASK_GROUP)
    async def _ask(self, record: AskRecord) -> None:
        try:
            answer = await self.client.support.ask(record.question, record.rationale, job_id=self.subject.job_id)
        except GatewayTimeoutError as error:
            record.fail(AskFailure.of(error), self._elapsed(), partial=partial_of(error))
        except WdsError as error:
            failure = AskFailure.of(error)
            record.fail(failure, self._elapsed())
            if failure.field is not None:
                self._show_error(failure.field, failure.message)
        except asyncio.CancelledError:
            record.cancel(self._elapsed())
            self._ask_ended()
            raise
        else:
            record.finish(answer, self._elapsed())
        self._ask_ended()

    @on(Worker.StateChanged)
    def _ask_failed(self, event: Worker.StateChanged) -> None:
        """A bug rather than a refused call: still said in place, and the Send key freed."""
        if event.state is not WorkerState.ERROR or event.worker.group != ASK_GROUP:
            return
        event.prevent_default()  # said here, in place: not for the app's failure sink
        error = event.worker.error
        record = self.current
        if record is not None and record.state == "asking":
            record.fail(AskFailure("Unexpected error", f"{type(error).__name__}: {error}"), self._elapsed())
            self._ask_ended()

    def _elapsed(self) -> float:
        return self._timer() - self._started

    def _tick(self) -> None:
        if self.asking:
            self._show_current()

    def _ask_ended(self) -> None:
        self.asking = False
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self._show_current()
        self._show_list()
        if self.compared is self.current:  # the same question on both sides: both see its end
            self.query_one("#compare", SupportAnswerView).show(self.compared)

    def _show_current(self) -> None:
        elapsed = self._elapsed() if self.asking else None
        self.query_one("#answer", SupportAnswerView).show(self.current, elapsed)

    # --- the side list ---------------------------------------------------------------------

    def _show_list(self) -> None:
        asked = self.query_one("#asked", OptionList)
        highlighted = asked.highlighted_option.id if asked.highlighted_option is not None else None
        newest_first = list(reversed(list(self.asked_log)))
        asked.set_options(Option(list_line(record), id=str(record.number)) for record in newest_first)
        numbers = [str(record.number) for record in newest_first]
        if highlighted in numbers:
            asked.highlighted = numbers.index(highlighted)  # the reader's place in the list stays
        elif numbers:
            asked.highlighted = 0

    @on(OptionList.OptionSelected, "#asked")
    def _asked_selected(self, event: OptionList.OptionSelected) -> None:
        self.show_compared(int(event.option.id or 0))

    def show_compared(self, number: int) -> None:
        """Show question `number` of the run in the compare view (at 80 columns: in the list's place)."""
        record = self.asked_log.get(number)
        if record is None:
            return
        self.compared = record
        self.query_one("#compare", SupportAnswerView).show(record)

    # --- keeping the draft -------------------------------------------------------------------

    @on(TextArea.Changed, "#question")
    @on(Input.Changed, "#rationale")
    def _typed(self) -> None:
        if not self._draft_ready:
            return
        question = self.query_one("#question", TextArea).text
        rationale = self.query_one("#rationale", Input).value
        self.asked_log.keep_draft(self.subject.job_id, AskDraft(question, rationale))
