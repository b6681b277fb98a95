"""Hand what a pane saw to the app's monitor (`tui.monitor.hub.Monitor`), when there is one.

The panes already poll everything the alert rules and the journal need: the
monitor is fed from their answers, never with a request of its own. A pane
calls `tell_monitor(self, lambda monitor: monitor.saw_credits(balance))`; the
app's `monitor` is None until its journal is open, and what is seen meanwhile
waits in its `monitor_backlog` (the panes' first answers come before the
journal is open); with monitoring off there is no backlog and nothing is kept. Whatever goes wrong in the monitor is
logged here and goes no further: a pane never fails because of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tui.monitor.hub import Monitor

log = logging.getLogger(__name__)


def tell_monitor(node: DOMNode, feed: Callable[[Monitor], object]) -> bool:
    """Call `feed` with the monitor of `node`'s app; False when there is none (or it failed, which is logged)."""
    try:
        app = node.app
    except Exception:  # no active app: a widget outside a running app (a unit test) has nobody to tell
        return False
    monitor: Monitor | None = getattr(app, "monitor", None)
    if monitor is None:
        backlog = getattr(app, "monitor_backlog", None)  # a deque while the monitor opens, else None
        if backlog is not None:
            backlog.append(feed)
        return False
    try:
        feed(monitor)
    except Exception:
        log.exception("the monitor could not take what %s saw", type(node).__name__)
        return False
    return True
