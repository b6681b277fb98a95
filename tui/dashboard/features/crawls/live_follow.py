"""Following one crawl live over the service's WebSocket, for the status screen and the crawls pane.

`follow_crawl` reads `client.crawl.watch` until the crawl ends. A connection
lost on the way (`SocketDroppedError`) is opened again after a backoff, up to
`Reconnects.tries` times in all; after that, or at once when the service
offers no socket, refuses it, or sends what cannot be read, it returns
`Following("polling", why)`: the caller polls as it does without a socket
(and a refusal is then said the way polling says it). Each step is told to
`note` so the view can say how it is kept up to date. Only an upgrade
answered with a status that means "no socket here" (`NOT_OFFERED_STATUSES`)
says so of the whole service (`Following.offered`); a timeout, a refused
connection, a 429 or a 5xx, or no catch-up in time, is this crawl's bad luck.

Statuses are handed on at most every `pace` seconds (the latest wins, a
final one at once): a crawl of 100 pages a second would otherwise redraw its
view 100 times a second.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tui.api.backoff import Backoff
from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.api.socket_errors import SocketDroppedError, SocketNotOfferedError
from tui.contract.models.crawl import CrawlStatus

PACE_SECONDS = 0.25
"""The shortest time between two statuses handed on."""

NOT_OFFERED_STATUSES = frozenset({400, 403, 404, 405, 426})
"""Upgrade answers that mean the service has no socket there: no route (404; Starlette answers 403 to a
WebSocket on a path without one, as the emulator without it does), no such method (405), no upgrade
taken (400, 426). Any other failure to open one may pass."""

Mode = Literal["connecting", "live", "reconnecting", "polling", "ended"]


@dataclass(frozen=True)
class Reconnects:
    """How often a lost connection is opened again, and how long to wait before each try."""

    tries: int = 3
    backoff: Backoff = Backoff(initial=1.0, maximum=8.0)


RECONNECTS = Reconnects()


@dataclass(frozen=True)
class Following:
    """How a crawl is being followed: `mode`, and for a reconnect or a fallback, why (and which try, how long)."""

    mode: Mode
    reason: str | None = None
    attempt: int = 0
    of: int = 0
    wait: float = 0.0
    offered: bool = True  # False: the service has no socket here (no other crawl need try)

    def describe(self, poll_seconds: float) -> str:
        """What a view says of it: `● live`, `◌ reconnecting (1 of 3) in 2 s: ...`, `polling every 2 s · ...`."""
        if self.mode == "live":
            return "● live (the service pushes each page)"
        if self.mode == "ended":
            return "● followed live to its end"
        if self.mode == "connecting":
            return "◌ connecting for live updates…"
        said = f": {self.reason}" if self.reason else ""
        if self.mode == "reconnecting":
            return f"◌ live connection lost; reconnecting ({self.attempt} of {self.of}) in {self.wait:.0f} s{said}"
        polling = f"polling every {poll_seconds:g} s"
        return f"{polling} · no live updates{said}" if self.reason else polling


ENDED = Following("ended")


class _Paced:
    """Hands on the latest status at most every `gap` seconds; a final one at once."""

    def __init__(self, deliver: Callable[[CrawlStatus], object], gap: float) -> None:
        self.deliver, self.gap = deliver, gap
        self._latest: CrawlStatus | None = None
        self._last = float("-inf")
        self._timer: asyncio.TimerHandle | None = None

    def put(self, status: CrawlStatus) -> None:
        self._latest = status
        wait = self._last + self.gap - time.monotonic()
        if status.is_finished or wait <= 0:
            self.flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(wait, self.flush)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def flush(self) -> None:
        self.cancel()
        latest, self._latest = self._latest, None
        if latest is not None:
            self._last = time.monotonic()
            self.deliver(latest)


async def follow_crawl(
    client: WdsClient,
    crawl_id: str,
    *,
    deliver: Callable[[CrawlStatus], object],
    note: Callable[[Following], object] = lambda following: None,
    keep_documents: int | None = None,
    reconnects: Reconnects = RECONNECTS,
    pace: float = PACE_SECONDS,
) -> Following:
    """Follow `crawl_id` until it ends (`ENDED`) or live updates give up (`Following("polling", why)`)."""
    paced = _Paced(deliver, pace)
    lost = 0
    note(Following("connecting"))
    try:
        while True:
            try:
                async with client.crawl.watch(crawl_id, keep_documents=keep_documents) as updates:
                    told = False
                    async for status in updates:
                        if not told:  # once per connection: the first status says it is up
                            told = True
                            note(Following("live"))
                        paced.put(status)
                paced.flush()
                note(ENDED)
                return ENDED
            except SocketDroppedError as exc:
                paced.flush()
                lost += 1
                if lost > reconnects.tries:
                    return Following("polling", f"the live connection was lost {lost} times ({exc.message})")
                wait = reconnects.backoff.delay(lost - 1)
                note(Following("reconnecting", exc.message, attempt=lost, of=reconnects.tries, wait=wait))
                await asyncio.sleep(wait)
            except WdsError as exc:  # not offered, refused, unreadable; or the final status call failed
                paced.flush()
                return Following("polling", exc.message, offered=not _no_socket_here(exc))
    finally:
        paced.cancel()  # a status still held is dropped: whoever cancelled no longer shows it


def _no_socket_here(error: WdsError) -> bool:
    """Whether `error` says the service offers no socket at all (not only that this one failed)."""
    return isinstance(error, SocketNotOfferedError) and error.status in NOT_OFFERED_STATUSES
