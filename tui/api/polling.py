"""The one poll loop: fetch, hand the answer over (saying if it is the same as last time), sleep, again.

Every live view polls with it: the dashboard's panes and screens (through
`tui.dashboard.kit.widgets.live`, which hosts it in a Textual worker and adds staleness,
pause and visibility) and the CDP client's page tracking. Pure asyncio, so the
API layer can use it without Textual.

The next fetch starts only after the previous one has finished and the
interval has passed (dolphie's habit: no pile-up when the service is slow).
A failed fetch (or a failure to deliver its answer) is handed to `fail` and
the loop goes on; `fail` may raise to end it. Whoever runs `run()` in a task
restarts by cancelling that task and running it again, which also cancels a
fetch in flight: an answer to an older question can then never overwrite a
newer one. `wake()` cuts the sleep short: a view that comes back into sight with
old data asks for it at once rather than at the end of the interval.
`again()` asks for one more fetch without cancelling the one in flight (news
learnt after it set out): many news during a slow fetch are one more fetch,
and the view is never starved of answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


def _always() -> bool:
    return True


class PollLoop(Generic[T]):
    """Poll `fetch` every `interval` seconds while `due()` says so, until `stop()`.

    `deliver(answer, same)` gets each answer, `same` being True when it equals
    the previous answer (most polls of an idle service: nothing to redraw).
    `fail(error)` gets each exception that fetching or delivering raised,
    cancellation apart.
    """

    def __init__(
        self,
        fetch: Callable[[], Awaitable[T]],
        *,
        deliver: Callable[[T, bool], object],
        fail: Callable[[Exception], object],
        interval: float | Callable[[], float],
        due: Callable[[], bool] = _always,
    ) -> None:
        self.fetch = fetch
        self.deliver = deliver
        self.fail = fail
        self._interval = interval
        self.due = due
        self.last: T | None = None
        self._answered = False
        self._stopped = False
        self._woken = asyncio.Event()
        self._polling = False
        self._again = False  # asked for one more fetch after the one in flight
        self._answering_again = False

    @property
    def interval(self) -> float:
        """Seconds between the end of one fetch and the start of the next (read at each sleep)."""
        return self._interval() if callable(self._interval) else self._interval

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        """No more fetches: `run()` returns after the step it is in (a fetch's answer is still delivered)."""
        self._stopped = True

    def resume(self) -> None:
        """Undo `stop()`, for a caller about to `run()` again (a reload of a finished job)."""
        self._stopped = False

    def wake(self) -> None:
        """End the current sleep now: the next fetch starts at once (if `due()`), not after the interval.

        A fetch already on its way answers the wake-up: its answer is as fresh as asked.
        """
        if not self._polling:
            self._woken.set()

    def again(self) -> None:
        """One more fetch as soon as the one in flight has ended (at once if none), even if not `due()`.

        The fetch in flight is not cancelled: it answers, then the next one
        starts. However often this is called meanwhile, that is one fetch.
        """
        self._again = True
        if not self._polling:
            self._woken.set()

    @property
    def asked_again(self) -> bool:
        """Whether a fetch asked for by `again()` has not ended yet."""
        return self._again or self._answering_again

    async def run(self, *, at_once: bool = True) -> None:
        """Fetch (at once, unless `at_once` is False), then poll on the interval until stopped."""
        if at_once and not self._stopped:
            await self.poll()
        while not self._stopped:
            await self._sleep()
            asked = self._again
            if not self._stopped and (asked or self.due()):  # e.g. no request while nobody watches
                self._answering_again = asked
                try:
                    await self.poll()
                finally:
                    self._answering_again = False

    async def _sleep(self) -> None:
        """The interval, or less if `wake()` is called meanwhile."""
        try:
            async with asyncio.timeout(self.interval):  # no task per sleep, unlike wait_for
                await self._woken.wait()
        except TimeoutError:
            pass
        self._woken.clear()

    async def poll(self) -> None:
        """One fetch, its answer delivered or its failure handed to `fail`."""
        self._polling = True
        self._woken.clear()
        self._again = False  # this fetch sets out after whatever asked for it
        try:
            answer = await self.fetch()
            self.deliver(answer, self._answered and answer == self.last)
        except Exception as error:  # noqa: BLE001 - every failure goes to `fail`, which decides
            self.fail(error)
            return
        finally:
            self._polling = False
            if self._again:  # asked for while this one was on its way: the next starts at once
                self._woken.set()
        # Only once delivered: an answer whose showing failed is shown again next time.
        self.last, self._answered = answer, True
