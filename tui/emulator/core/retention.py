"""Retention: what the contract no longer shows is dropped, so a served emulator stays small for days.

The contract shows a team's activity for 24 hours and keeps a job (its status,
documents, errors) retrievable for 24 hours (`expiresAt`). Every part that
keeps such records registers a `prune` step here; a served emulator runs them
from `run_loop`, tests call `sweep()` with a manual clock. Nothing a request
can still see is dropped: each store decides that against its own window.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

# Real seconds between sweeps. Reads already hide what is out of a window; the sweep only frees memory.
SWEEP_SECONDS = 30.0

Prune = Callable[[], int]


class RetentionSweeper:
    """Runs every registered store's `prune` step, now and then."""

    def __init__(self, interval: float = SWEEP_SECONDS) -> None:
        self.interval = interval
        self._steps: list[tuple[str, Prune]] = []

    def add(self, name: str, prune: Prune) -> None:
        """Register a store's prune step (it returns how many records it dropped); run in order."""
        self._steps.append((name, prune))

    def sweep(self) -> dict[str, int]:
        """Run every step once; what each dropped, by name."""
        dropped = {name: prune() for name, prune in self._steps}
        if any(dropped.values()):
            log.debug("retention dropped %s", dropped)
        return dropped

    async def run_loop(self) -> None:
        """Served mode: sweep every `interval` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.sweep()
            except Exception:  # a failed sweep must not stop the next ones
                log.exception("the retention sweep failed")
