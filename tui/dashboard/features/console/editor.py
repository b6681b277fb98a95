"""The console's code and prompt editors: a TextArea with the keys an operator expects.

Textual's code editor indents on Tab and so takes Escape for itself (it moves
the focus on, and a second Escape was needed to leave the console). Here
Escape is left to the screen: one press closes the console, the draft kept.
Shift+Tab still moves the focus out of the editor. ctrl+a selects all, as in
every editor, rather than Textual's emacs-style "start of line" (Home does that).
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import TextArea


class ConsoleEditor(TextArea):
    """A TextArea whose Escape belongs to the screen and whose ctrl+a selects all."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", id="console_editor.select_all")
    ]

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            # Not TextArea's own handling (focus the next widget): the key bubbles on
            # to the screen's binding, which closes the console.
            event.prevent_default()
            return
        # TextArea's own _on_key runs after this one (Textual dispatches along the MRO).
