"""An outlet's queue: the caller never waits, a full queue drops its oldest notice and counts it, a failure ends nothing."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import pytest

from tests.monitor.notices import notice
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.delivery.outlet_queue import OutletQueue


@dataclass(frozen=True)
class Sent:
    ok: bool = True
    message: str = "sent"


class SlowOutlet:
    """An outlet that holds each notice until the test lets it go."""

    def __init__(self) -> None:
        self.go = asyncio.Event()
        self.sent: list[str] = []

    async def send(self, item: AlertNotice) -> Sent:
        await self.go.wait()
        self.sent.append(item.title)
        return Sent()


async def test_put_returns_at_once_while_the_outlet_is_stuck() -> None:
    outlet = SlowOutlet()
    queue = OutletQueue("slow", outlet.send, maxsize=10)
    for index in range(5):
        assert queue.put(notice(title=f"n{index}")) is True
    await asyncio.sleep(0)
    assert outlet.sent == [] and queue.waiting == 4  # one is with the outlet already
    outlet.go.set()
    await asyncio.wait_for(queue.drain(), 5)
    assert outlet.sent == ["n0", "n1", "n2", "n3", "n4"]
    await queue.close()


async def test_a_full_queue_drops_the_oldest_waiting_and_counts_it(caplog: pytest.LogCaptureFixture) -> None:
    outlet = SlowOutlet()
    told: list[tuple[str, str, bool]] = []
    queue = OutletQueue(
        "slow", outlet.send, maxsize=3, on_outcome=lambda name, n, o: told.append((name, n.title, o.ok))
    )
    queue.put(notice(title="first"))
    await asyncio.sleep(0)  # taken by the outlet: no longer waiting
    kept = [queue.put(notice(title=f"n{index}")) for index in range(6)]
    assert kept == [True, True, True, False, False, False]
    assert queue.dropped == 3 and queue.waiting == 3
    assert "alerts to slow: queue full, oldest dropped (3 dropped so far)" in caplog.messages
    outlet.go.set()
    await asyncio.wait_for(queue.drain(), 5)
    assert outlet.sent == ["first", "n3", "n4", "n5"]
    assert told == [("slow", "first", True), ("slow", "n3", True), ("slow", "n4", True), ("slow", "n5", True)]
    await queue.close()


async def test_an_outlet_that_raises_is_logged_and_the_next_notice_still_goes(caplog: pytest.LogCaptureFixture) -> None:
    sent: list[str] = []

    async def flaky(item: AlertNotice) -> Sent:
        if item.title == "bad":
            raise RuntimeError("outlet bug")
        sent.append(item.title)
        return Sent()

    queue = OutletQueue("flaky", flaky)
    queue.put(notice(title="bad"))
    queue.put(notice(title="good"))
    await asyncio.wait_for(queue.drain(), 5)
    assert sent == ["good"]
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR] == [
        "alerts to flaky: sending failed unexpectedly"
    ]
    await queue.close()


async def test_close_stops_the_worker_and_forgets_what_waits() -> None:
    outlet = SlowOutlet()
    queue = OutletQueue("slow", outlet.send)
    queue.put(notice())
    queue.put(notice())
    await asyncio.sleep(0)
    await asyncio.wait_for(queue.close(), 5)
    assert queue.waiting == 0 and outlet.sent == []


async def test_by_default_a_hundred_wait_before_the_oldest_is_dropped() -> None:
    outlet = SlowOutlet()
    queue = OutletQueue("slow", outlet.send)
    queue.put(notice(title="taken"))
    await asyncio.sleep(0)
    assert all(queue.put(notice(title=str(index))) for index in range(100))
    assert queue.put(notice(title="one more")) is False and queue.dropped == 1
    await queue.close()
