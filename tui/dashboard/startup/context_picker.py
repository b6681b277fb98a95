"""Switch context (T): the config file's contexts, the one in use marked; Enter loads the chosen one.

Loading may run the context's `api_key_command` (a password manager), so it
runs in a thread and the list stays usable; a context that cannot be loaded
says why here and the dashboard stays on the one it has.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.dashboard.kit.outside_text import shown
from tui.dashboard.startup.contexts import LOCAL, ContextSwitch, SwitchTo


class ContextPickerScreen(ModalScreen[SwitchTo | None]):
    """A list of contexts; dismissed with the loaded settings of the chosen one, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Cancel", id="context_picker.dismiss_none")
    ]

    DEFAULT_CSS = """
    ContextPickerScreen { align: center middle; }
    ContextPickerScreen > Vertical {
        width: 64; max-width: 95%; height: auto; border: round $accent; padding: 0 1; background: $surface;
    }
    ContextPickerScreen #context-title { text-style: bold; margin-bottom: 1; }
    ContextPickerScreen OptionList { height: auto; max-height: 12; }
    ContextPickerScreen #context-problem { color: $error; height: auto; }
    ContextPickerScreen #context-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, switch: ContextSwitch) -> None:
        super().__init__()
        self.switch = switch

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Switch context", id="context-title")
            # A context's name is any TOML key ("a[/b]" too): text, never markup.
            options = [
                Option(
                    shown(
                        f"{'● ' if name == self.switch.current else '  '}{name}"
                        f"{'  (the embedded emulator)' if name == LOCAL else ''}"
                    ),
                    id=name,
                )
                for name in self.switch.names
            ]
            yield OptionList(*options, id="contexts")
            yield Static("", id="context-problem", markup=False)
            yield Static("⏎ switch · esc cancel · the panes start again on the context chosen", id="context-hint")

    def on_mount(self) -> None:
        picker = self.query_one(OptionList)
        if self.switch.current in self.switch.names:
            picker.highlighted = self.switch.names.index(self.switch.current)
        self.query_one("#context-problem").display = False

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        name = event.option.id
        if name is None:
            return
        if name == self.switch.current:
            self.dismiss(None)
            return
        self._say(f"Loading {name}…", error=False)
        self._load(name)

    @work(thread=True, exclusive=True, exit_on_error=False, group="context-load")
    def _load(self, name: str) -> None:
        try:
            settings, warnings = self.switch.load(name)
        except Exception as exc:  # noqa: BLE001 - SettingsError and anything its command does: said, never a crash
            self.app.call_from_thread(self._say, f"Cannot switch to {name}: {exc}")
            return
        self.app.call_from_thread(self.dismiss, SwitchTo(settings, warnings))

    def _say(self, text: str, *, error: bool = True) -> None:
        problem = self.query_one("#context-problem", Static)
        problem.set_class(not error, "-note")
        problem.update(shown(text, lines=True))  # may quote a key command's own output
        problem.display = True

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
