"""Keys typed ahead wait their turn, so each acts where the screen will be when it arrives.

Textual hands a key to the focused widget's own queue and goes straight on to
the next key. A plain binding (Escape closing a screen, `c` opening a form)
runs only when the key has come back up to the app, but the app's priority
keys (the digits, `?`) are judged at once, against the screen as it still
is. So an operator's "Escape 4 c" after a job screen had `4` judged on the
closing screen, and keys typed while a form was opening reached whatever had
the focus before it. `TypeAhead` keeps the order instead: a key typed while an
earlier one is still on its way through the widgets is held, and the held
keys are let go one by one once that key and what it set off (a screen
opening, the messages on their way) are done; never later than `HOLD_LIMIT`,
so a lost key cannot block typing. A key typed after the last one was done,
the usual case, is handled at once.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App, ReturnType

HOLD_LIMIT = 1.0
"""Seconds a key is held at most; then it goes on as it would have without holding."""

POLL_SECONDS = 0.005


class TrackedKey(events.Key):
    """A key from the terminal that remembers whether anything stopped it on its way through the widgets.

    Textual keeps that to itself; a key is stopped by the widget that takes it
    (`Key.stop`), or by Textual as it queues the key back at the app, where
    it is next in line.
    """

    __slots__ = ["stopped"]

    def __init__(self, key: str, character: str | None) -> None:
        super().__init__(key, character)
        self.stopped = False

    @classmethod
    def of(cls, key: events.Key) -> TrackedKey:
        """`key`, tracked (typed at the same moment)."""
        tracked = cls(key.key, key.character)
        tracked.time = key.time
        return tracked

    def stop(self, stop: bool = True) -> TrackedKey:
        self.stopped = stop
        super().stop(stop)
        return self


TrackedKey.handler_name = events.Key.handler_name  # handled as any key: `on_key`, not `on_tracked_key`


class TypeAhead:
    """Holds keys while an earlier one is on its way or a screen is still opening (see the module doc).

    The app asks `holds(key)` before handling a key and calls `after(key, fresh=...)` once it has.
    """

    def __init__(self, app: App[Any], clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.clock = clock
        self._held: deque[events.Key] = deque()
        self._on_its_way: TrackedKey | None = None
        self._deadline = 0.0
        self._released: events.Key | None = None
        self._polling = False

    def holds(self, key: events.Key) -> bool:
        """Whether the app must not handle `key` now (it is kept, and posted again in its turn)."""
        if key.is_forwarded:
            return False  # a key coming back up from the widgets: the one on its way
        if key is self._released:
            self._released = None  # its turn: it was let go when nothing was in the way
            return False
        if not self._held and self._released is None and not self._key_on_its_way():
            return False  # the usual case: typed after the last key was done, handled at once
        if not self._held:
            self._deadline = max(self._deadline, self.clock() + HOLD_LIMIT)
        self._held.append(key)
        self._poll()
        return True

    def after(self, key: events.Key, *, fresh: bool) -> None:
        """The app has handled `key` (`fresh`: it came from the terminal, not back up from the widgets)."""
        if fresh and key.is_forwarded and isinstance(key, TrackedKey):
            self._on_its_way = key  # handed on to the widgets: the next keys wait until it is done
            self._deadline = self.clock() + HOLD_LIMIT
        elif key is self._on_its_way:
            self._on_its_way = None  # back at the app: its bindings have run
        if self._held:
            self._poll()

    # --- when the next key may go -------------------------------------------------------

    def _key_on_its_way(self) -> bool:
        """An earlier key is still with the widgets (neither taken by one nor queued back at the app)."""
        on_its_way = self._on_its_way
        if on_its_way is None or on_its_way.stopped or self.clock() >= self._deadline:
            # Stopped: a widget took it, or it is queued back at the app, ahead of any key after it.
            self._on_its_way = None
            return False
        return True

    def _busy(self) -> bool:
        """An earlier key, or what it set off (a screen opening, messages on their way), is not done yet."""
        if self.clock() >= self._deadline:
            return False
        return self._key_on_its_way() or not self._quiet()

    def _quiet(self) -> bool:
        """The screen on top is mounted and no widget of it has a message waiting."""
        screen = self.app.screen
        if not screen.is_mounted:
            return False
        return all(node.message_queue_size == 0 for node in (self.app, *screen.walk_children(with_self=True)))

    def _poll(self) -> None:
        if not self._polling:
            self._polling = True
            self.app.call_later(self._check)

    async def _check(self) -> None:
        """Let the next held key go once nothing is in its way (two quiet looks in a row)."""
        self._polling = False
        if not self._held or self._released is not None:
            return
        quiet_looks = 0
        while quiet_looks < 2 and self.clock() < self._deadline:
            quiet_looks = 0 if self._busy() else quiet_looks + 1
            await asyncio.sleep(POLL_SECONDS)
            if self.app.message_queue_size:
                break  # the app has work queued (the key coming back, a screen to push): let it run first
        if quiet_looks >= 2 or self.clock() >= self._deadline:
            self._released = self._held.popleft()
            self._deadline = self.clock() + HOLD_LIMIT
            self.app.post_message(self._released)
        else:
            self._poll()


class KeysInTurn(App[ReturnType]):
    """An app whose keys typed ahead wait their turn (mix in before `App`; see the module doc)."""

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key):
            await super().on_event(event)
            return
        typeahead = self.__dict__.get("_typeahead")
        if typeahead is None:
            typeahead = self.__dict__["_typeahead"] = TypeAhead(self)
        if not event.is_forwarded and not isinstance(event, TrackedKey):
            event = TrackedKey.of(event)  # from the terminal: tracked from here on
        if typeahead.holds(event):
            return  # posted again in its turn
        fresh = not event.is_forwarded
        await super().on_event(event)
        typeahead.after(event, fresh=fresh)
