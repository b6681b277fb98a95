"""One outlet's queue: notices are handed over at once and sent in the background, one after another.

The caller (the dashboard's alert engine, `wds-tui watch`) never waits for a
receiver that is slow, down, or asking to be left alone for a minute. The queue
is bounded: when a burst outruns the outlet, the oldest notice waiting is
dropped (the newest says most about now) and the drops are counted and logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from tui.monitor.delivery.notice import AlertNotice

log = logging.getLogger(__name__)

DEFAULT_QUEUE_SIZE = 100
"""Notices an outlet holds waiting at most."""


class Outcome(Protocol):
    """What any outlet reports of one delivery."""

    @property
    def ok(self) -> bool: ...

    @property
    def message(self) -> str: ...


OutcomeSink = Callable[[str, AlertNotice, Outcome], None]
"""Told each outcome: the outlet's name, the notice, what happened."""


class OutletQueue:
    """Sends notices through `send` in a background task, from a bounded queue that drops its oldest when full."""

    def __init__(
        self,
        name: str,
        send: Callable[[AlertNotice], Awaitable[Outcome]],
        *,
        maxsize: int = DEFAULT_QUEUE_SIZE,
        on_outcome: OutcomeSink | None = None,
    ) -> None:
        if maxsize < 1:
            raise ValueError(f"an outlet's queue holds at least one notice, not {maxsize}")
        self.name = name
        self._send = send
        self._waiting: deque[AlertNotice] = deque()
        self._maxsize = maxsize
        self._on_outcome = on_outcome
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._worker: asyncio.Task[None] | None = None
        self.dropped = 0
        """Notices dropped because the queue was full, since it was made."""

    def put(self, notice: AlertNotice) -> bool:
        """Queue `notice` for sending, without waiting; False when the oldest waiting one was dropped for it."""
        kept = True
        if len(self._waiting) >= self._maxsize:
            self._waiting.popleft()
            self.dropped += 1
            kept = False
            log.warning("alerts to %s: queue full, oldest dropped (%d dropped so far)", self.name, self.dropped)
        self._waiting.append(notice)
        self._idle.clear()
        self._wake.set()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work(), name=f"alerts to {self.name}")
        return kept

    @property
    def waiting(self) -> int:
        """Notices not yet taken for sending."""
        return len(self._waiting)

    async def _work(self) -> None:
        while True:
            if not self._waiting:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            notice = self._waiting.popleft()
            try:
                outcome = await self._send(notice)
            except Exception:  # an outlet's bug must not end the queue: it is logged, the next notice goes
                log.exception("alerts to %s: sending failed unexpectedly", self.name)
                continue
            if self._on_outcome is not None:
                self._on_outcome(self.name, notice, outcome)

    async def drain(self) -> None:
        """Wait until every queued notice has been sent (or given up on)."""
        await self._idle.wait()

    async def close(self) -> None:
        """Stop the background task; notices still waiting are not sent."""
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except asyncio.CancelledError:
                pass
        self._waiting.clear()
        self._idle.set()
