"""The console's form: mode, language, timeout, code and prompt, with their errors.

The screen (`screen.py`) decides when to run, recall or keep a draft; this is what
those decisions read and write: the fields as a `RunSpec` to send or a `Draft` to
keep, a recalled run put back, the contract's refusals shown under the field they
concern. Its own module so that the screen is about running and the history, and
the widgets' ids are named in one place.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.dom import DOMNode
from textual.widgets import Input, Label, Select, Static, TextArea

from tui.contract.limits import EXEC_TIMEOUT_MAX, EXEC_TIMEOUT_MIN
from tui.contract.requests import Language
from tui.dashboard.features.console.editor import ConsoleEditor
from tui.dashboard.features.console.highlighting import highlight
from tui.dashboard.features.console.history import EXAMPLES, LANGUAGES, Draft, RunMode, RunSpec, parse_timeout
from tui.dashboard.kit.outside_text import shown

NOTHING_TO_RUN = "Nothing to run: the editor is empty (the grey code in it is only an example)."


class ConsoleForm:
    """The form's widgets on `host` (the console screen), read and written as one.

    `interact`: the scrape-bound console, which has a mode (code or prompt) and a prompt editor.
    """

    def __init__(self, host: DOMNode, *, interact: bool) -> None:
        self._host = host
        self.interact = interact

    def compose(self, draft: Draft) -> ComposeResult:
        """The fields, filled from `draft` (the screen yields them in its left column)."""
        with Horizontal(id="console-controls"):
            if self.interact:
                yield Select([("code", "code"), ("prompt", "prompt")], value=draft.mode, allow_blank=False, id="mode")
            yield Select([(name, name) for name in LANGUAGES], value=draft.language, allow_blank=False, id="language")
            yield Label("timeout")
            yield Input(
                draft.timeout,
                placeholder="30",
                type="integer",
                id="timeout",
                tooltip=f"seconds, {EXEC_TIMEOUT_MIN}-{EXEC_TIMEOUT_MAX}; empty: the service's 30",
            )
        yield Static("", id="timeout-error", classes="field-error", markup=False)
        yield ConsoleEditor.code_editor(draft.code, theme="css", id="editor", placeholder=EXAMPLES[draft.language])
        if self.interact:
            yield ConsoleEditor(draft.prompt, soft_wrap=True, id="prompt", placeholder=EXAMPLES["prompt"])
        yield Static("", id="code-error", classes="field-error", markup=False)

    def editor_for(self, mode: RunMode) -> TextArea:
        return self._host.query_one("#prompt" if mode == "prompt" else "#editor", TextArea)

    def language(self) -> Language:
        """The language chosen (node while the select has no valid value)."""
        language = self._host.query_one("#language", Select).value
        return language if language in LANGUAGES else "node"  # type: ignore[return-value]

    def hide_errors(self) -> None:
        for error in self._host.query(".field-error"):
            error.display = False

    def show_error(self, widget_id: str, message: str | None) -> None:
        error = self._host.query_one(f"#{widget_id}", Static)
        error.update(shown(message or "", lines=True))  # the service's reason for a refusal
        error.display = message is not None

    def read_spec(self, mode: RunMode) -> RunSpec | None:
        """What to send, or None (with the reasons shown) when a field is empty or invalid."""
        timeout, problem = parse_timeout(self._host.query_one("#timeout", Input).value)
        self.show_error("timeout-error", problem)
        text = self.editor_for(mode).text
        empty = None
        if not text.strip():
            empty = "Nothing to send: the prompt is empty." if mode == "prompt" else NOTHING_TO_RUN
        self.show_error("code-error", empty)
        if problem is not None or empty is not None:
            return None
        language = self._host.query_one("#language", Select).value
        assert language in LANGUAGES
        return RunSpec(mode, text, language, timeout)  # type: ignore[arg-type]

    def show_issues(self, issues: list[dict[str, Any]]) -> None:
        """The request model's refusals (`validation_details`): the timeout's under it, the rest under the code."""
        timeout_issues = [i["message"] for i in issues if i["path"] == "timeout"]
        other_issues = [i["message"] for i in issues if i["path"] != "timeout"]
        self.show_error("timeout-error", "; ".join(timeout_issues) or None)
        self.show_error("code-error", "; ".join(other_issues) or None)

    def show_mode(self, mode: RunMode) -> None:
        """Show the editor of `mode` (interact only: a standalone session has code alone)."""
        self._host.query_one("#editor").display = mode == "code"
        self._host.query_one("#prompt").display = mode == "prompt"
        self._host.query_one("#language", Select).disabled = mode == "prompt"  # used with code only
        self._host.query_one("#mode", Select).value = mode
        self.show_error("code-error", None)

    def highlight(self, language: Language) -> None:
        highlight(self._host.query_one("#editor", TextArea), language)

    def use_language(self, language: Language) -> None:
        """A language chosen: its highlighting, and its example as the empty editor's placeholder."""
        self.highlight(language)
        self._host.query_one("#editor", TextArea).placeholder = EXAMPLES[language]

    def recall(self, spec: RunSpec) -> TextArea:
        """Put a run's language, timeout and text back; returns the editor that holds the text."""
        self._host.query_one("#language", Select).value = spec.language
        self._host.query_one("#timeout", Input).value = "" if spec.timeout is None else str(spec.timeout)
        editor = self.editor_for(spec.mode)
        if editor.text != spec.text:
            # An edit rather than `text =`: what was in the editor stays one ctrl+z away.
            editor.history.checkpoint()
            editor.replace(spec.text, editor.document.start, editor.document.end)
        return editor

    def draft(self, mode: RunMode) -> Draft:
        """What the fields hold now, to keep while the console is closed."""
        prompt = self._host.query_one("#prompt", TextArea).text if self.interact else ""
        return Draft(
            code=self._host.query_one("#editor", TextArea).text,
            prompt=prompt,
            mode=mode,
            language=self.language(),
            timeout=self._host.query_one("#timeout", Input).value,
        )
