"""The help screen (`?`, `f1`): the keys that work where you are, grouped by who owns them.

Read from the screen under the help, as it is when the help opens: the
focused widget and its pane, the screen, then the app (`tui.dashboard.keys.keymap`). Keys
that exist there but cannot act this instant (no row selected...) are shown
dimmed with "not now". Esc, `?` or `f1` close it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui.dashboard.keys.keymap import KeyGroup, keys_where_you_are, screen_title

KEY_COLUMN_MAX = 14
"""The key column is as wide as the widest key, up to this."""


def group_lines(group: KeyGroup, key_width: int) -> Content:
    """One group: its title, then a line per action ("  key   description")."""
    lines = [Content.styled(group.title, "bold $accent")]
    for entry in group.actions:
        keys = entry.key_text.ljust(key_width)
        line = Content.assemble(("  ", ""), (keys, "bold"), ("  ", ""), entry.description)
        if entry.enabled is None:
            line = Content.assemble(line, (" (not now)", "italic")).stylize("dim")
        lines.append(line)
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    """The keys of the screen underneath, grouped: focused pane or widget, screen, app."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close the help", id="help.close"),
        Binding("question_mark", "close", "Close the help", key_display="?", show=False, id="help.close"),
        Binding("f1", "close", "Close the help", show=False, id="help.close"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > #help-box {
        width: 76; max-width: 100%;
        height: auto; max-height: 100%;
        border: thick $primary 60%;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    HelpScreen .help-group { margin-top: 1; }
    HelpScreen #help-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[KeyGroup] = []

    def _screen_below(self) -> Screen[Any] | None:
        below = [s for s in self.app.screen_stack if s is not self and not isinstance(s, CommandPalette)]
        return below[-1] if below else None

    def compose(self) -> ComposeResult:
        screen = self._screen_below()
        on_the_panes = screen is not None and screen is self.app.screen_stack[0]
        if screen is not None:
            self.groups = keys_where_you_are(screen)
        box = VerticalScroll(id="help-box")
        box.border_title = "Keys that work here" if on_the_panes or screen is None else f"Keys: {screen_title(screen)}"
        width = min(KEY_COLUMN_MAX, max((len(e.key_text) for g in self.groups for e in g.actions), default=1))
        with box:
            for group in self.groups:
                yield Static(group_lines(group, width), classes="help-group")
            hint = "Each pane has its own keys: move to it (1-4) and press ? again. " if on_the_panes else ""
            hint += "ctrl+p finds every action by name. Esc closes this."
            yield Static(hint, id="help-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()  # arrow keys and page keys scroll a long list

    def action_close(self) -> None:
        """Back to the screen the help was about."""
        self.dismiss(None)
