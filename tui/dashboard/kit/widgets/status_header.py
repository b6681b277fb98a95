"""The top line: which service, which key (masked), connection state, alerts firing, last change.

"updated" is the time of the oldest data on screen: the oldest last answer among
the panes in view, taken when something on screen changes and when panes come
back into view (so it never claims more than the oldest pane), with
"· refreshing" while a pane back in view fetches its old data again. It is not
moved by polls that bring nothing new: a header that ticked every poll would
write to the terminal while nothing happens, and the connection dot already
says the polls succeed.
"""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

# The $text-* variants: a theme darkens them on a light background and lightens them on
# a dark one, so "● connected" stays readable on the header's panel in every theme.
CONNECTION_STYLES = {
    "connecting": ("◌ connecting", "$text-warning"),
    "connected": ("● connected", "$text-success"),
    "failing": ("▲ failing", "$text-error"),
    "unauthorised": ("✖ key refused", "$text-error"),
}


class StatusHeader(Widget):
    """One line; redrawn only when one of its facts changes (no ticking clock)."""

    DEFAULT_CSS = """
    StatusHeader {
        height: 1;
        background: $panel;
        color: $foreground;
        padding: 0 1;
    }
    """

    connection: reactive[str] = reactive("connecting")
    last_refresh: reactive[datetime | None] = reactive(None)
    refreshing: reactive[bool] = reactive(False)
    alerts: reactive[int] = reactive(0)
    """Alerts firing now (acknowledged ones too: they still hold); shown only when there are some."""

    def __init__(
        self, *, service: str, masked_key: str, embedded: bool, context: str | None = None, read_only: bool = False
    ) -> None:
        super().__init__()
        self.service = service
        self.masked_key = masked_key
        self.embedded = embedded
        self.context = context
        self.read_only = read_only

    def render(self) -> Text:
        label, variable = CONNECTION_STYLES.get(self.connection, (self.connection, "$foreground"))
        colour = self.app.theme_variables.get(variable.lstrip("$"), "")
        # At 80 columns the facts come first and the app's name goes: a person
        # over SSH needs the connection state and the time more than a title.
        wide = self.size.width >= 100
        text = Text()
        if wide:
            text.append("wds-tui", style="bold")
            text.append("  ")
        if self.context is not None:
            text.append(f"[{self.context}] ", style="bold")
        if self.read_only:
            text.append("READ-ONLY", style=f"bold reverse {self.app.theme_variables.get('warning', '')}".strip())
            text.append(" ")
        text.append(self.service)
        if self.embedded:
            text.append(" (local emulator)" if wide else " (emulator)", style="italic")
        text.append(f"  key {self.masked_key}  ")
        text.append(label, style=colour)
        if self.alerts:
            # A word and a sign, not a colour alone: readable on a monochrome terminal and by a screen reader.
            error = self.app.theme_variables.get("text-error", "")
            text.append("  ")
            text.append(f"▲ {self.alerts} alert{'s' if self.alerts != 1 else ''}", style=f"bold {error}".strip())
        if self.last_refresh is not None:
            text.append(f"  updated {self.last_refresh.astimezone():%H:%M:%S}")
            if self.refreshing:
                text.append(" · refreshing")
        return text
