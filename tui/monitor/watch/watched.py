"""One context as `watch` runs it: its monitor and the poller that feeds it."""

from __future__ import annotations

from dataclasses import dataclass

from tui.monitor.hub import Monitor
from tui.monitor.watch.poller import Poller

DEFAULT_CONTEXT = "default"
"""How the unnamed context (a config file without contexts) is called in logs and metrics labels."""


@dataclass(frozen=True)
class Watched:
    """A context being watched: its name (None: the unnamed one), its monitor and its poller."""

    context: str | None
    monitor: Monitor
    poller: Poller

    @property
    def label(self) -> str:
        """The context's name as a metrics label and in the log."""
        return self.context or DEFAULT_CONTEXT
