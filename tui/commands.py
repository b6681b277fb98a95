"""The command palette: every key binding of every pane, by name.

Built from the panes' own BINDINGS, so a key added to a pane shows up here
without a second list to keep in step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class DashboardCommands(Provider):
    """Commands for each pane's actions and for moving between panes."""

    def _commands(self) -> Iterator[tuple[str, Callable[[], object], str]]:
        from tui.panes.base import Pane

        screen = self.app.screen
        for pane in screen.query(Pane):
            title = pane.TITLE
            yield (f"{title}: focus", partial(pane.focus_first), f"Move to the {title} pane")
            seen: set[str] = set()
            for binding in pane.all_bindings():
                if not binding.description or binding.action in seen:
                    continue
                seen.add(binding.action)
                yield (
                    f"{title}: {binding.description}",
                    partial(pane.run_action, binding.action),
                    f"key {binding.key}",
                )

    async def discover(self) -> Hits:
        for name, command, help_text in self._commands():
            yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, command, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)
