"""CPU-heavy work of a request, run off the event loop in a bounded number of threads.

Every team's requests share one event loop: a crawl plan or a batch of a few
thousand new sites computed on it held up everyone for seconds (issue 9). Such
work is pure (it reads the synthetic sites and returns a value), so it runs in
a worker thread while the loop keeps serving; the route then commits the
result to the stores on the loop, where all state changes happen.

The threads are daemon threads, not a `ThreadPoolExecutor`'s: the interpreter
joins an executor's workers at exit, so a SIGTERM would wait for the heaviest
plan in flight; a daemon thread is dropped with the process. At most
`WORKERS` run at once per lane and event loop, so a flood of heavy requests
queues instead of multiplying threads that compete with the loop for the GIL.
Lanes keep work of unbounded length (a batch of thousands of new sites, in
`PLANS`) from queueing ahead of work that is always short (a status page or a
map, in `PAGES`).
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

WORKERS = 2
PLANS = "plans"  # crawl plans, batch fetches: as long as the request makes them
PAGES = "pages"  # status pages, maps: bounded by the contract's limits

T = TypeVar("T")

_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = weakref.WeakKeyDictionary()


def _slots_of(loop: asyncio.AbstractEventLoop, lane: str) -> asyncio.Semaphore:
    lanes = _slots.setdefault(loop, {})
    found = lanes.get(lane)
    if found is None:
        found = lanes[lane] = asyncio.Semaphore(WORKERS)
    return found


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the request went away (cancelled) meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def off_loop(work: Callable[..., T], *args: Any, lane: str = PLANS) -> T:
    """`work(*args)` run in a worker thread of `lane`; its result or exception, awaited on the loop."""
    loop = asyncio.get_running_loop()
    async with _slots_of(loop, lane):
        future: asyncio.Future[T] = loop.create_future()

        def run() -> None:
            result: Any = None
            error: BaseException | None = None
            try:
                result = work(*args)
            except BaseException as exc:  # handed to the awaiting request, which reports it
                error = exc
            try:
                loop.call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:  # the loop closed while this ran: nobody waits any more
                pass

        threading.Thread(target=run, name="wds-emulator-work", daemon=True).start()
        return await future
