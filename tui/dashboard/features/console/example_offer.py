"""ctrl+r on an empty editor: offer the language's example instead of sending nothing.

A first-time user presses ctrl+r on the grey placeholder, which is not code.
Rather than only saying so, the console offers to put that example in the
editor: Enter or `y` inserts it (one ctrl+z away), any other key leaves the
editor empty. Nothing is sent either way: the user reads the code first.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from tui.contract.requests import Language
from tui.dashboard.features.console.history import EXAMPLES

INSERT_KEYS = frozenset({"enter", "y"})


class ExampleOffer(ModalScreen[bool]):
    """Asks whether to insert `example` (dismissed with True for Enter or y, else False)."""

    DEFAULT_CSS = """
    ExampleOffer { align: center middle; }
    ExampleOffer > #offer-dialog {
        width: auto; min-width: 40; max-width: 90%; height: auto;
        border: round $primary; background: $surface; padding: 0 2;
    }
    ExampleOffer #offer-dialog > Static { width: auto; }
    ExampleOffer #offer-code { color: $text-muted; margin: 1 0; }
    ExampleOffer #offer-hint { color: $text-muted; }
    """

    def __init__(self, language: str, example: str) -> None:
        super().__init__()
        self.language = language
        self.example = example

    def compose(self) -> ComposeResult:
        with Vertical(id="offer-dialog"):
            yield Static(f"The editor is empty. Insert the {self.language} example?", markup=False)
            yield Static(self.example, id="offer-code", markup=False)
            yield Static("Enter or y inserts it · any other key leaves the editor empty", id="offer-hint", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(event.key in INSERT_KEYS)

    def on_click(self, event: events.Click) -> None:
        if not self.query_one("#offer-dialog").region.contains(event.screen_x, event.screen_y):
            self.dismiss(False)  # a click beside the question: no


def insert_example(editor: TextArea, example: str) -> None:
    """Put `example` in the (empty) editor as an edit, so ctrl+z takes it out again."""
    editor.history.checkpoint()
    editor.replace(example, editor.document.start, editor.document.end)
    editor.move_cursor(editor.document.end)
    editor.focus()


def offer_example(editor: TextArea, language: Language, answered: Callable[[bool], object]) -> None:
    """Ask whether to put `language`'s example in the empty `editor`; `answered(inserted)` follows."""
    example = EXAMPLES[language]

    def insert_if_asked(insert: bool | None) -> None:
        if insert:
            insert_example(editor, example)
        answered(bool(insert))

    editor.app.push_screen(ExampleOffer(language, example), insert_if_asked)
