"""The command palette: every action of the screen it was opened on, by name, with its key.

Textual hands a provider the screen the palette was opened on (`self.screen`);
`self.app.screen` would be the palette itself. The actions come from
`tui.dashboard.keys.keymap`, read from the widgets' own BINDINGS (every pane, every widget of
the screen, the screen, the app), so a key added anywhere shows up here
without a second list to keep in step. Each runs on the node that declares
it: "Browser sessions: Refresh" refreshes that pane, whatever has the focus.
Actions that cannot run now (`check_action`) are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.dashboard.keys.keymap import KeyAction, palette_actions


def command_name(entry: KeyAction) -> str:
    """How a command reads in the palette: its owner, then what it does."""
    return f"{entry.group}: {entry.description}"


class DashboardCommands(Provider):
    """Commands for every action of the screen the palette was opened on, and the app's."""

    _cached: list[tuple[str, Callable[[], object], str]] | None = None

    def _commands(self) -> Iterator[tuple[str, Callable[[], object], str]]:
        """(name, what runs it, help text with the key) for each action that can run now."""
        for entry in palette_actions(self.screen):
            yield command_name(entry), entry.run, f"key {entry.key_text}"

    async def startup(self) -> None:
        # What can run is read once, as the palette opens: typing a query must not change the list.
        self._cached = list(self._commands())

    def _listed(self) -> list[tuple[str, Callable[[], object], str]]:
        if self._cached is None:
            self._cached = list(self._commands())
        return self._cached

    async def discover(self) -> Hits:
        for name, command, help_text in self._listed():
            yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, command, help_text in self._listed():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)
