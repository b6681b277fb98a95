"""How the dashboard quits: `q` where it cannot lose typing, `ctrl+c` everywhere, twice while work is on its way.

Operators press ctrl+c to leave every terminal tool, so it quits here too
(Textual only says which key quits). A request the user started (a scrape, a
crawl start, a question to support, code in the console) may still be on its
way: then the first press says what would be lost and a second press within
`CONFIRM_SECONDS` quits. In a text field holding a selection, ctrl+c copies it,
as it does in every text field.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from textual.app import App, ReturnType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import Worker

from tui.dashboard.keys.keymap import is_text_area

CONFIRM_SECONDS = 2.0

UNFINISHED_WORK: dict[str, str] = {
    "scrape": "a scrape",
    "crawl-preview": "a crawl parameter preview",
    "crawl-start": "a crawl being started",
    "crawl-cancel": "a crawl being cancelled",
    "support-ask": "a question to support",
    "session-create": "a browser session being created",
    "sessions-delete": "a browser session being deleted",
    "console-run": "code running in the console",
    "batch-start": "a batch scrape being started",
    "map": "a map",
}
"""Worker groups of requests a person started, and how to name them (pane polls are not among them)."""


def unfinished_work(workers: Iterable[Worker[object]]) -> str | None:
    """What a quit now would abandon ("a scrape"), or None when nothing a person started is on its way."""
    for worker in workers:
        if not worker.is_finished and worker.group in UNFINISHED_WORK:
            return UNFINISHED_WORK[worker.group]
    return None


def selected_text(widget: Widget | None) -> str:
    """The text selected in a text field (what ctrl+c copies there), else ""."""
    if isinstance(widget, Input):
        start, end = sorted(widget.selection)
        return widget.value[start:end]
    if is_text_area(widget):
        return str(getattr(widget, "selected_text", ""))
    return ""


def has_text_field(screen: Screen[object]) -> bool:
    """Whether `screen` holds a field a person types into (where `q` must never quit: it would lose the typing)."""
    # Only fields laid out on screen: a hidden one (a problem screen's key field) takes no typing.
    if any(field.region.area > 0 for field in screen.query(Input)):
        return True
    # "TextArea" by its style name: the class is not imported before a console opened one (start-up time).
    return any(not getattr(area, "read_only", True) and area.region.area > 0 for area in screen.query("TextArea"))


class QuitsLikeATerminal(App[ReturnType]):
    """An app whose ctrl+c (`action_interrupt`) quits as a terminal tool's does (mix in before `App`)."""

    _interrupted_at: float | None = None  # the last ctrl+c that asked before quitting

    def action_interrupt(self) -> None:
        """ctrl+c: copy a text field's selection; else quit, asking again while a request is on its way."""
        selection = selected_text(self.screen.focused)
        if selection:
            self.copy_to_clipboard(selection)
            return
        work = unfinished_work(self.workers)
        now = time.monotonic()
        if work is not None and (self._interrupted_at is None or now - self._interrupted_at > CONFIRM_SECONDS):
            self._interrupted_at = now
            self.notify(
                f"{work[:1].upper()}{work[1:]} is on its way: ctrl+c again to quit anyway",
                title="Quit?",
                severity="warning",
                timeout=CONFIRM_SECONDS,
            )
            return
        self.exit()
