"""The widget side of the one sink for unexpected failures: hand a failed worker on to the app.

Textual tells only a worker's own widget or screen that the worker ended
(`Worker.StateChanged` does not bubble); the app's handler
(`tui.dashboard.shell.failures`) says and logs it.
"""

from __future__ import annotations

from textual.worker import Worker, WorkerState


class ForwardsWorkerFailures:
    """Mixin for a widget or screen: its workers' failures reach the app's one sink."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.app.post_message(Worker.StateChanged(event.worker, event.state))  # type: ignore[attr-defined]
