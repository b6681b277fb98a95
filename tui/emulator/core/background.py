"""Background loops of a served emulator: registered at build time, started once it listens.

Tests drive the emulator through `httpx.ASGITransport` and never start them:
they call the loops' single steps (`run_due`, `sweep`) with a manual clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)

BackgroundLoop = Callable[[], Coroutine[Any, Any, None]]
Spawn = Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]]
"""What a part that starts one-off work is given: runs a coroutine as a task the emulator cancels on close."""


async def run_until_first_ends(*work: Coroutine[Any, Any, Any]) -> None:
    """Run `work` together until one ends; then cancel the others and wait for them to finish.

    The shape of every relay: either side closing (or the session ending) ends the whole.
    """
    tasks = [asyncio.create_task(coroutine) for coroutine in work]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class BackgroundTasks:
    """The loops to run while served, and every task started for them or by `spawn`."""

    def __init__(self) -> None:
        self.loops: list[BackgroundLoop] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        self.started = False

    def add(self, loop: BackgroundLoop) -> None:
        """Register a loop; it starts with `start()` (at once if already started)."""
        self.loops.append(loop)
        if self.started:
            self.spawn(loop())

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run `coro` as a task that `cancel_all()` cancels; needs a running event loop."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def start(self) -> None:
        """Start every registered loop (once)."""
        if self.started:
            return
        self.started = True
        for loop in self.loops:
            self.spawn(loop())

    async def cancel_all(self) -> None:
        """Cancel every task and wait for them to end; `start()` may run the loops again afterwards."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.difference_update(tasks)
        self.started = False

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("emulator background task failed", exc_info=task.exception())
