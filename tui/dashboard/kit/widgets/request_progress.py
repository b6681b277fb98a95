"""The line under a form while its request is on its way: what is sent, the seconds so far, how to cancel.

Shared by the forms that send one request and wait (scrape, map, batch): the
form says what to write each second (`start`), and what stays once the
request ended, if anything (`stop`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.timer import Timer
from textual.widgets import Static


class RequestProgress(Static):
    """Hidden until a request starts; `-running` (bold, warning colour) while it is on its way."""

    DEFAULT_CSS = """
    RequestProgress { height: auto; padding: 0 1; color: $text-muted; display: none; }
    RequestProgress.-running { color: $text-warning; text-style: bold; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._describe: Callable[[int], str] | None = None
        self._started = 0.0
        self._ticker: Timer | None = None

    def start(self, describe: Callable[[int], str]) -> None:
        """Show `describe(seconds so far)` now and every second until `stop`."""
        self._describe = describe
        self._started = time.monotonic()
        if self._ticker is not None:
            self._ticker.stop()
        self._ticker = self.set_interval(1.0, self._tick)
        self._tick()

    def stop(self, note: str = "") -> None:
        """The request ended: show `note` (hidden when empty)."""
        self._describe = None
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self.set_class(False, "-running")
        self.update(note)
        self.display = bool(note)

    def _tick(self) -> None:
        if self._describe is None:
            return
        self.update(self._describe(int(time.monotonic() - self._started)))
        self.set_class(True, "-running")
        self.display = True
