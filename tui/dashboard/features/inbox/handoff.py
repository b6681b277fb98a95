"""Deliveries passed from the listener's thread to the inbox, which lives on the dashboard's loop.

The listener reads, checks and answers deliveries on a thread of its own, so
a burst of them never queues in front of the keys a person presses; the
inbox and the screens that read it stay on the dashboard's loop, single
threaded. `Handoff` carries the checked deliveries across: the listener puts,
the dashboard's loop takes them in batches (one wake-up for a burst, not one
per delivery). While the dashboard is behind by `MAX_WAITING` deliveries or
`MAX_WAITING_BYTES`, the listener holds its answers: the senders slow down
instead of the dashboard's memory growing.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections import deque

from tui.dashboard.features.inbox.store import PROBLEM_LIMIT, Delivery, Inbox
from tui.dashboard.kit.formatting import clip

MAX_WAITING = 512
"""Deliveries checked and not yet stored before the listener waits."""
MAX_WAITING_BYTES = 16 * 1024 * 1024
"""Bytes of such deliveries' bodies before the listener waits."""
WAIT_SECONDS = 0.005
SLICE = 64
"""Deliveries stored per turn of the dashboard's loop: a burst of 512 stored in one
callback held the keys pressed meanwhile for tens of milliseconds."""


class Handoff:
    """From the listener's thread (`put`) into `inbox` on `loop` (the dashboard's)."""

    def __init__(self, inbox: Inbox, loop: asyncio.AbstractEventLoop) -> None:
        self.inbox = inbox
        self._loop = loop
        # Made on the dashboard's loop: the inbox's listeners (a screen setting a timer)
        # run in its context (Textual's active app), not the listener thread's.
        self._context = contextvars.copy_context()
        self._lock = threading.Lock()
        self._waiting: deque[Delivery] = deque()
        self._waiting_bytes = 0
        self._scheduled = False
        self.failures = 0  # deliveries the inbox failed to store, even as a row saying so

    def full(self) -> bool:
        """Whether the dashboard is far enough behind that the listener should wait."""
        with self._lock:
            return len(self._waiting) >= MAX_WAITING or self._waiting_bytes >= MAX_WAITING_BYTES

    async def put(self, delivery: Delivery) -> None:
        """On the listener's thread: queue `delivery` for the inbox, after waiting while the dashboard is behind."""
        while self.full():
            await asyncio.sleep(WAIT_SECONDS)
        with self._lock:
            self._waiting.append(delivery)
            self._waiting_bytes += delivery.size
            wake, self._scheduled = not self._scheduled, True
        if wake:
            try:
                self._loop.call_soon_threadsafe(self._drain, context=self._context)
            except RuntimeError:
                pass  # the dashboard's loop is closed: the app has ended

    def _drain(self) -> None:
        """On the dashboard's loop: up to `SLICE` waiting deliveries into the inbox, then the rest on a later turn."""
        with self._lock:
            batch = [self._waiting.popleft() for _ in range(min(SLICE, len(self._waiting)))]
            self._waiting_bytes -= sum(delivery.size for delivery in batch)
            more = bool(self._waiting)
            self._scheduled = more
        for delivery in batch:
            self._store(delivery)
        if more:
            # call_soon queues behind what is ready now (key presses among it).
            try:
                self._loop.call_soon(self._drain, context=self._context)
            except RuntimeError:
                pass  # the loop is closing: the app has ended

    def _store(self, delivery: Delivery) -> None:
        try:
            self.inbox.add(delivery)
        except Exception as exc:  # noqa: BLE001 - our bug; it must not end the dashboard's loop
            problem = clip(f"the inbox failed to store this delivery ({type(exc).__name__}: {exc})", PROBLEM_LIMIT)
            try:
                self.inbox.add(Delivery(delivery.received_at, delivery.peer, delivery.size, None, None, problem))
            except Exception:  # noqa: BLE001 - nothing left to show it with
                self.failures += 1
