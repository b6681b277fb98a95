"""Docs search: ask the service's documentation (`POST /v2/support/docs-search`) as you type.

A question box, a status line and the results (the answer, then one entry per
source it cites: title, snippet, link; see `tui.dashboard.features.support.docs_results`). Typing
searches once the keys have paused (`DEBOUNCE_SECONDS`), Enter at once. Only
the newest question counts: a newer search cancels the request under way, and
an answer that still arrives for an older question is dropped.

Enter on a result reads it as Markdown, full screen; Esc goes back to the
list, as it was. Esc on the list closes the screen; what was asked and found
stays in a `DocsSearchMemory` the navigator keeps for the run, so the next
opening starts where this one ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import ContentSwitcher, Input, Label, LoadingIndicator, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from tui.api.client import WdsClient
from tui.api.errors import RateLimitError, WdsError
from tui.contract.models.support import DocsSearchAnswer
from tui.dashboard.features.support.docs_problems import question_problem, search_problem
from tui.dashboard.features.support.docs_results import DocsResult, reader_markdown, results_of, web_address
from tui.dashboard.kit.formatting import middle_clip
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.hyperlink import link
from tui.dashboard.kit.widgets.outside_markdown import OutsideMarkdown
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

DEBOUNCE_SECONDS = 0.4
"""Typing searches this long after the last key; long enough not to send every word."""
RATE_LIMIT_RETRY_MAX = 120.0
"""After a 429 asking to wait at most this long, the question is asked again by itself."""
QUERY_SHOWN = 60
"""A question is quoted in the status line cut to this many characters."""


@dataclass
class DocsSearchMemory:
    """What the screen leaves behind for its next opening in this run."""

    query: str = ""
    answer: DocsSearchAnswer | None = None
    answered: str | None = None  # the question `answer` answers
    selected: int | None = None  # the highlighted result


def _quoted(question: str) -> str:
    return f"“{middle_clip(question, QUERY_SHOWN)}”"


class DocsSearchScreen(ForwardsWorkerFailures, Screen[None]):
    """The question box, the results and, on Enter, the result read in full."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="docs_search.back"),
        Binding("/", "edit_query", "Edit question", id="docs_search.edit_query"),
        # Priority: the question box has a hidden "down" of its own (scroll), which the footer would show instead.
        Binding("down", "to_results", "Results", priority=True, id="docs_search.to_results"),
        # Priority, so the footer shows it over the list's own (hidden) enter;
        # elsewhere check_action lets enter through to the widget.
        Binding("enter", "open_result", "Open result", priority=True, id="docs_search.open_result"),
        # Up from the first result goes back to the question (the list itself would wrap to its end).
        Binding("up", "up_to_query", "Question", show=False, priority=True, id="docs_search.up_to_query"),
    ]

    DEFAULT_CSS = """
    DocsSearchScreen { layout: vertical; }
    DocsSearchScreen .docs-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    DocsSearchScreen ContentSwitcher { height: 1fr; }
    DocsSearchScreen #docs-finder { height: 1fr; }
    DocsSearchScreen #docs-query { margin: 0 1; }
    DocsSearchScreen #docs-status-row { height: auto; padding: 0 2; }
    DocsSearchScreen #docs-spinner { width: 5; height: 1; min-height: 1; }
    DocsSearchScreen #docs-status { width: 1fr; height: auto; color: $text-muted; }
    DocsSearchScreen #docs-status.-error { color: $error; }
    DocsSearchScreen #docs-results { height: 1fr; margin: 0 1; scrollbar-gutter: stable; }
    DocsSearchScreen #docs-results.-stale { opacity: 60%; }
    DocsSearchScreen #docs-reader { height: 1fr; }
    DocsSearchScreen #docs-source { height: auto; padding: 0 1; color: $text-muted; }
    DocsSearchScreen #docs-reader-scroll { height: 1fr; padding: 0 1; }
    DocsSearchScreen #docs-document { height: auto; margin: 0; }
    """

    results: reactive[list[DocsResult]] = reactive(list, bindings=True, init=False)
    """The results of the last answer, as listed (down goes to them when there are some)."""
    reading: reactive[DocsResult | None] = reactive(None, bindings=True, init=False)
    """The result open in the reader, if one is."""

    def __init__(
        self,
        client: WdsClient,
        *,
        memory: DocsSearchMemory | None = None,
        query: str = "",
        hyperlinks: bool = True,
        debounce: float = DEBOUNCE_SECONDS,
    ) -> None:
        super().__init__()
        self.client = client
        self.memory = memory or DocsSearchMemory()
        if query:  # asked for with a question (e.g. from another screen): it replaces the last one
            self.memory.query = query
        self.hyperlinks = hyperlinks
        self.debounce = debounce
        self.searching: str | None = None  # the question whose request is under way
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Label("Docs search", id="docs-title", classes="docs-title", markup=False)
        with ContentSwitcher(initial="docs-finder"):
            with Vertical(id="docs-finder"):
                yield Input(
                    self.memory.query,
                    placeholder="Ask the documentation, e.g. how long is a scrape cached?",
                    id="docs-query",
                    select_on_focus=False,  # coming back to refine a question: a key must not replace it
                )
                with Horizontal(id="docs-status-row"):
                    spinner = LoadingIndicator(id="docs-spinner")
                    spinner.display = False
                    yield spinner
                    yield Static("", id="docs-status", markup=False)
                yield OptionList(id="docs-results")
            with Vertical(id="docs-reader"):
                yield Static("", id="docs-source")
                with VerticalScroll(id="docs-reader-scroll"):
                    yield OutsideMarkdown("", id="docs-document")
        yield Footer()

    def on_mount(self) -> None:
        memory = self.memory
        if memory.answer is not None and memory.answered is not None:
            self._show_answer(memory.answered, memory.answer, selected=memory.selected)
        question = memory.query.strip()
        if question and question != memory.answered:
            self.search_now()  # asked with a new question, or closed before the last answer came
        elif not memory.answer:
            self._say(self._hint())
        self.query_one("#docs-query", Input).focus()

    # --- what the user does -------------------------------------------------------------

    @on(Input.Changed, "#docs-query")
    def _typed(self, event: Input.Changed) -> None:
        self.memory.query = event.value
        self._cancel_timer()
        if event.value.strip() == self.memory.answered:
            # Back to the question on show (a letter typed and deleted): nothing to ask.
            self._drop_search()
            self._show_status_of_list()
            return
        self._timer = self.set_timer(self.debounce, self.search_now)

    @on(Input.Submitted, "#docs-query")
    def _submitted(self) -> None:
        self._cancel_timer()
        self.search_now(force=True)

    @on(OptionList.OptionHighlighted, "#docs-results")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.memory.selected = event.option_index

    @on(OptionList.OptionSelected, "#docs-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option_index)

    @on(Markdown.LinkClicked)
    def _link_clicked(self, event: Markdown.LinkClicked) -> None:
        address = web_address(event.href)
        if address is not None:
            self.app.open_url(address)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        reading = self.reading is not None
        if action == "up_to_query":
            return not reading and isinstance(self.focused, OptionList) and self.focused.highlighted in (0, None)
        if action == "edit_query":
            return reading or not isinstance(self.focused, Input)
        if action == "to_results":
            return not reading and isinstance(self.focused, Input) and bool(self.results)
        if action == "open_result":
            return not reading and isinstance(self.focused, OptionList) and self.focused.highlighted is not None
        return True

    def action_back(self) -> None:
        """From a result back to the list; from the list, close (the memory keeps the search)."""
        if self.reading is not None:
            self._close_reader()
        else:
            self._cancel_timer()
            self.dismiss(None)

    # Focus is set at once (Screen.set_focus), not after the queue (Widget.focus): keys typed
    # right after (down, enter) must already reach the widget they were meant for.

    def action_edit_query(self) -> None:
        if self.reading is not None:
            self._close_reader()
        self.set_focus(self.query_one("#docs-query", Input))

    def action_up_to_query(self) -> None:
        self.set_focus(self.query_one("#docs-query", Input))

    def action_to_results(self) -> None:
        self.set_focus(self.query_one("#docs-results", OptionList))

    def action_open_result(self) -> None:
        highlighted = self.query_one("#docs-results", OptionList).highlighted
        if highlighted is not None:
            self._open(highlighted)

    # --- searching --------------------------------------------------------------------

    def search_now(self, force: bool = False) -> None:
        """Search for what the box holds now (Enter: `force`, even when it is the question on show)."""
        self._timer = None
        question = self.memory.query.strip()
        if not question:
            self._drop_search()
            self._say(self._hint())
            return
        problem = question_problem(question)
        if problem is not None:
            self._drop_search()
            self._say(problem, error=True)
            return
        if question == self.searching or (question == self.memory.answered and not force):
            return
        self.searching = question
        self.query_one("#docs-spinner").display = True
        self._say(f"Searching the docs for {_quoted(question)}…")
        self._mark_stale()
        self._search(question)

    @work(exclusive=True, group="docs-search", exit_on_error=False)
    async def _search(self, question: str) -> None:
        """Ask the service; exclusive: a newer search cancels this one and its request."""
        try:
            answer = await self.client.support.docs_search(question)
        except WdsError as exc:
            if self.searching == question:
                self._search_ended()
                self._say(self._with_list_note(search_problem(exc) + self._retry_later(exc)), error=True)
            return
        except Exception as exc:  # a bug of ours: said here, and notified and logged by the app's sink
            if self.searching == question:
                self._search_ended()
                self._say(f"Unexpected error: {type(exc).__name__}: {exc}", error=True)
            raise
        if self.searching != question:  # a newer question was asked meanwhile: this answer is not for it
            return
        self._search_ended()
        self._show_answer(question, answer, selected=None)

    def _retry_later(self, error: WdsError) -> str:
        """After a 429 that says how long to wait: ask again then (any key typed meanwhile re-arms the debounce)."""
        if not isinstance(error, RateLimitError) or error.retry_after is None:
            return ""
        if error.retry_after > RATE_LIMIT_RETRY_MAX:
            return ""
        self._cancel_timer()
        # Forced: the same question may be on show already (Enter pressed to ask it again).
        self._timer = self.set_timer(error.retry_after, lambda: self.search_now(force=True))
        return " It is asked again by itself once the wait is over."

    def _search_ended(self) -> None:
        self.searching = None
        self.query_one("#docs-spinner").display = False

    def _drop_search(self) -> None:
        """Forget the search under way (its answer, if it still comes, is dropped)."""
        if self.searching is not None:
            self.workers.cancel_group(self, "docs-search")
            self._search_ended()
        self._mark_stale()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # --- showing ----------------------------------------------------------------------

    def _show_answer(self, question: str, answer: DocsSearchAnswer, *, selected: int | None) -> None:
        memory = self.memory
        memory.answer, memory.answered = answer, question
        self.results = results_of(answer)
        options = self.query_one("#docs-results", OptionList)
        options.set_options(Option(self._prompt(result)) for result in self.results)
        if self.results:
            index = selected if selected is not None and selected < len(self.results) else 0
            options.highlighted = index
            memory.selected = index
        self._mark_stale()
        self._show_status_of_list()

    def _prompt(self, result: DocsResult) -> Content:
        """Title, snippet, and the link with the reason it was cited."""
        # All of it the service's words: each part one line of text.
        parts: list[str | Content | tuple[str, str]] = [
            (visible(result.title), "bold"),
            "\n",
            (visible(result.snippet), "$text-muted"),
        ]
        if result.location is not None:
            parts += ["\n", link(result.location, result.web_address, enabled=self.hyperlinks)]
            if result.reason and result.reason != result.snippet:
                parts += [(f" · {visible(result.reason)}", "$text-muted")]
        parts.append("\n")  # a blank line between results
        return Content.assemble(*parts)

    def _show_status_of_list(self) -> None:
        memory = self.memory
        if memory.answer is None or memory.answered is None:
            self._say(self._hint())
            return
        sources = len(memory.answer.evidence)
        found = f"{sources} source{'' if sources == 1 else 's'}" if sources else "No source cited"
        took = f" in {memory.answer.duration_ms:,} ms" if memory.answer.duration_ms is not None else ""
        self._say(f"{found} for {_quoted(memory.answered)}{took}.")

    def _with_list_note(self, message: str) -> str:
        if self.memory.answered is not None and self.memory.answered != self.memory.query.strip():
            return f"{message} The results below are for the earlier question {_quoted(self.memory.answered)}."
        return message

    def _mark_stale(self) -> None:
        stale = self.memory.answered is not None and self.memory.answered != self.memory.query.strip()
        self.query_one("#docs-results", OptionList).set_class(stale, "-stale")

    def _hint(self) -> str:
        return f"Type a question: searched {self.debounce:g} s after you stop typing, or now with Enter."

    def _say(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#docs-status", Static)
        status.update(shown(text, lines=True))  # may quote the service's reason for a refusal
        status.set_class(error, "-error")

    # --- reading one result -------------------------------------------------------------

    def _open(self, index: int) -> None:
        if not 0 <= index < len(self.results) or self.memory.answer is None:
            return
        result = self.results[index]
        self.reading = result
        self.memory.selected = index
        source = self.query_one("#docs-source", Static)
        if result.location is None:
            source.update(shown(f"Answer to {_quoted(self.memory.answered or '')}"))
        else:
            address = link(result.location, result.web_address, enabled=self.hyperlinks)
            source.update(Content.assemble("Source: ", address))
        self.query_one("#docs-document", Markdown).update(reader_markdown(result, self.memory.answer))
        self.query_one(ContentSwitcher).current = "docs-reader"
        scroll = self.query_one("#docs-reader-scroll", VerticalScroll)
        scroll.scroll_home(animate=False)
        self.set_focus(scroll)

    def _close_reader(self) -> None:
        self.reading = None
        self.query_one(ContentSwitcher).current = "docs-finder"
        self.set_focus(self.query_one("#docs-results", OptionList))
