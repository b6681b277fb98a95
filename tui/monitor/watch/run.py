"""Watching contexts until told to stop, then stopping in order: what `wds-tui watch` does once it is set up.

The order of a stop (SIGTERM, SIGINT, or `stop()`):
1. every poller stops (a poll in flight is cancelled: its answer would come too late to matter);
2. each context's deliverer is given `drain_seconds` to send what is queued (a receiver that
   is down is not waited for longer: the alerts are in the journal and in the log);
3. each journal commits what it holds and closes (`Monitor.aclose`);
4. the metrics server stops listening;
5. the last line: `stop`, with what each context saw.

Meanwhile each journal's trouble (a write that failed, a file repaired on opening) and
each delivery's outcome are written to the log as they happen.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.delivery.outlet_queue import Outcome
from tui.monitor.journal import WatchStarted
from tui.monitor.watch.event_log import EventLog
from tui.monitor.watch.watched import Watched

DRAIN_SECONDS = 10.0
"""How long alerts still queued for a command or a webhook are given at exit."""
JOURNAL_CHECK_SECONDS = 5.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class WatchRun:
    """Runs the watched contexts' pollers until `stop()` (or a stop signal), then stops them in order."""

    def __init__(
        self,
        watched: Sequence[Watched],
        log: EventLog,
        *,
        drain_seconds: float = DRAIN_SECONDS,
        on_stopped: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.watched = list(watched)
        self._log = log
        self._drain_seconds = drain_seconds
        self._on_stopped = on_stopped
        self._stopping = asyncio.Event()
        self.reason = "stopped"
        self._journal_said: dict[str, str | None] = {}

    def stop(self, reason: str = "stopped") -> None:
        """Begin the stop (the first reason given is the one reported)."""
        if not self._stopping.is_set():
            self.reason = reason
            self._stopping.set()

    async def run(self, **start: Any) -> int:
        """Watch until stopped; 0 once everything is closed. `start`: more fields for the `start` line."""
        loop = asyncio.get_running_loop()
        for number in STOP_SIGNALS:
            loop.add_signal_handler(number, self.stop, signal.Signals(number).name)
        try:
            self._log.write("start", contexts=[each.label for each in self.watched], **start)
            for each in self.watched:
                self._begin(each)
            pollers = [asyncio.create_task(each.poller.run()) for each in self.watched]
            journals = asyncio.create_task(self._watch_journals())
            await self._stopping.wait()
            for each in self.watched:
                each.poller.stop()
            await asyncio.gather(*pollers, return_exceptions=True)
            journals.cancel()
            await asyncio.gather(journals, return_exceptions=True)
            await self._drain()
            for each in self.watched:
                await self._close(each)
            if self._on_stopped is not None:
                await self._on_stopped()
            self._log.write(
                "stop", reason=self.reason, contexts={each.label: self._summary(each) for each in self.watched}
            )
        finally:
            for number in STOP_SIGNALS:
                loop.remove_signal_handler(number)
        return 0

    def _begin(self, each: Watched) -> None:
        monitor = each.monitor
        monitor.listen(lambda event, notice: self._log.alert(event, notice, each.label))
        if monitor.deliverer is not None:
            monitor.deliverer.on_outcome = lambda outlet, notice, outcome: self._delivered(
                each, outlet, notice, outcome
            )
        journal = monitor.journal
        if journal is not None:
            journal.add(WatchStarted(monitor.now().timestamp()))  # a dashboard never run here counts from it
        self._log.write(
            "watching",
            context=each.label,
            rules=[rule.name for rule in monitor.engine.rules],
            outlets=monitor.deliverer.outlets if monitor.deliverer is not None else [],
            journal=str(journal.path) if journal is not None else None,
        )
        if journal is not None and journal.notice:
            self._log.write("journal", context=each.label, notice=journal.notice)

    def _delivered(self, each: Watched, outlet: str, notice: AlertNotice, outcome: Outcome) -> None:
        self._log.write(
            "delivery",
            context=each.label,
            outlet=outlet,
            rule=notice.rule,
            subject=notice.subject,
            state=notice.state,
            ok=outcome.ok,
            message=outcome.message,
        )

    async def _watch_journals(self) -> None:
        while True:
            for each in self.watched:
                self._say_journal_problem(each)
            await asyncio.sleep(JOURNAL_CHECK_SECONDS)

    def _say_journal_problem(self, each: Watched) -> None:
        journal = each.monitor.journal
        problem = journal.problem if journal is not None else None
        if problem != self._journal_said.get(each.label) and problem is not None:
            self._log.write("journal", context=each.label, problem=problem)
        self._journal_said[each.label] = problem

    async def _drain(self) -> None:
        """Give every context's queued alerts `drain_seconds` in all (not each) to be sent."""
        deliverers = [(each, each.monitor.deliverer) for each in self.watched if each.monitor.deliverer is not None]
        try:
            async with asyncio.timeout(self._drain_seconds):
                await asyncio.gather(*(deliverer.drain() for _, deliverer in deliverers))
        except TimeoutError:
            for each, deliverer in deliverers:
                waiting = sum(queue.waiting for queue in deliverer.queues)
                if waiting:
                    message = f"{waiting} alerts not sent: stopped after {self._drain_seconds:g} s"
                    self._log.write("delivery", context=each.label, ok=False, message=message)

    async def _close(self, each: Watched) -> None:
        """Commit and close the context's journal and stop its deliverer; a failure is said, never raised."""
        try:
            if each.monitor.journal is not None:
                await each.monitor.journal.flush()
            await each.monitor.aclose()
        except Exception as error:  # noqa: BLE001 - one context's trouble must not keep the others open
            self._log.write("journal", context=each.label, problem=f"not closed cleanly: {error}")
        self._say_journal_problem(each)

    def _summary(self, each: Watched) -> dict[str, Any]:
        stats = each.monitor.stats
        polls = each.poller.stats
        journal = each.monitor.journal
        return {
            "alerts_firing": len(each.monitor.engine.firing()),
            "alert_events": dict(stats.alerts),
            "jobs_finished": sum(stats.jobs.values()),
            "polls": sum(polls.polls.values()),
            "poll_errors": sum(polls.errors.values()),
            "journal": None
            if journal is None
            else (journal.disabled.reason if journal.disabled else str(journal.path)),
        }
