"""A pause after a 429: nothing more is asked until the `Retry-After` the service gave has passed.

Callers that ask about many jobs in the background (the activity pane's status column, `watch`'s
poller) share this rule: one 429 stops every ask of theirs, not only the one that met it, for as
long as the service said (or `DEFAULT_PAUSE` when it did not say).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tui.api.errors import RateLimitError

DEFAULT_PAUSE = 30.0
"""Seconds to wait after a 429 that did not say how long."""


class RateLimitPause:
    """When asking may go on again, after the last 429."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._until = 0.0

    def began(self, error: RateLimitError) -> None:
        """A 429 came: hold every ask for its `Retry-After` (or `DEFAULT_PAUSE`)."""
        self._until = self._monotonic() + (error.retry_after or DEFAULT_PAUSE)

    def left(self) -> float:
        """Seconds left of the pause (0 when asking may go on)."""
        return max(0.0, self._until - self._monotonic())
