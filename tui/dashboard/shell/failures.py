"""One sink for unexpected failures: no worker fails silently (harlequin's habit).

Textual tells only a worker's own widget or screen that the worker ended
(`Worker.StateChanged` does not bubble). Every widget and screen of ours that
runs workers mixes in `ForwardsWorkerFailures` (`tui.dashboard.kit.worker_failures`),
which hands a failed worker's state change on to the app; there one handler (`WdsApp` calls
`report_worker_failure`) notifies with the cause and logs the traceback.

A view that already says what went wrong in place (the console's run) calls
`event.prevent_default()` in its own handler: the failure then goes no further.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from textual.worker import Worker

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger(__name__)


def where(worker: Worker[object]) -> str:
    """`SessionsPane.delete_session`: which view ran the worker, and what it was doing."""
    node = type(worker.node).__name__
    return f"{node}.{worker.name}" if worker.name else node


def report_worker_failure(app: App[Any], worker: Worker[object]) -> None:
    """Say (notify) and log that `worker` ended with an exception nobody handled."""
    error = worker.error
    log.error("worker %s failed", where(worker), exc_info=error)
    app.notify(
        f"{where(worker)} stopped: {type(error).__name__}: {error}",
        title="Unexpected error (a bug in wds-tui; please report it)",
        severity="error",
        timeout=15,
    )
