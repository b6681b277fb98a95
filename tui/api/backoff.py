"""How long to wait before trying again: one exponential backoff for every retry loop.

HTTP retries (`tui.api.retries`) and CDP reconnects (`tui.api.cdp`) both wait
with it, so "doubling from a start up to a ceiling, less a little jitter"
means the same thing everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """Doubling waits: `initial`, 2×, 4×, ... up to `maximum` seconds.

    `jitter` is the largest share taken off a wait at random, so that clients
    refused together do not all come back at the same moment (0: exact waits).
    """

    initial: float = 0.5
    maximum: float = 8.0
    jitter: float = 0.25

    def __post_init__(self) -> None:
        if self.initial < 0 or self.maximum < 0:
            raise ValueError(f"backoff waits must be 0 or more, not {self.initial} and {self.maximum}")
        if not 0 <= self.jitter <= 1:
            raise ValueError(f"jitter is a share between 0 and 1, not {self.jitter}")

    def delay(self, attempt: int) -> float:
        """Seconds to wait before retry number `attempt` (0 for the first retry)."""
        # The exponent stops at 64, long past any ceiling: a CDP client that has
        # reconnected for hours would otherwise overflow (2 ** 1100 is no float).
        wait = min(self.maximum, self.initial * 2.0 ** min(max(attempt, 0), 64))
        if self.jitter:
            wait *= 1 - self.jitter * random.random()
        return wait
