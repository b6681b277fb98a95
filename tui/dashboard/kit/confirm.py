"""A yes/no modal in front of anything destructive.

Focus starts on Cancel, so a stray Enter (the key that was just used to move
around a table) cancels instead of destroying; `y` confirms straight away.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.dashboard.kit.outside_text import shown


class ConfirmScreen(ModalScreen[bool]):
    """Ask before doing something that cannot be undone; dismisses with True to go ahead.

    Keys: `y` confirms, `n` or Escape cancels, Enter presses the focused button
    (Cancel until the user moves to the confirm button with Tab or the mouse).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Yes", id="confirm.confirm"),
        Binding("n,escape", "cancel", "No", id="confirm.cancel"),
        Binding("left,right", "toggle_focus", "Switch button", show=False, id="confirm.toggle_focus"),
    ]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > #confirm-dialog {
        width: auto; min-width: 40; max-width: 80%;
        height: auto;
        border: thick $error 60%;
        background: $surface;
        padding: 1 2;
    }
    ConfirmScreen #confirm-message { width: auto; max-width: 76; margin-bottom: 1; }
    ConfirmScreen #confirm-buttons { width: auto; height: auto; align-horizontal: right; }
    ConfirmScreen #confirm-buttons Button { margin-left: 2; }
    ConfirmScreen #confirm-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, message: str, confirm_label: str = "Delete") -> None:
        super().__init__()
        self.message = message
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            # The question may name what the service calls it (a crawl's URL).
            yield Static(shown(self.message, lines=True), id="confirm-message")
            with Horizontal(id="confirm-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self.confirm_label, id="confirm", variant="error")
            yield Static(f"y {self.confirm_label.lower()} · n/Esc cancel", id="confirm-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        """Go ahead."""
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Leave everything as it is."""
        self.dismiss(False)

    def action_toggle_focus(self) -> None:
        cancel = self.query_one("#cancel", Button)
        (self.query_one("#confirm", Button) if cancel.has_focus else cancel).focus()
