"""Whether there is a journal to read, and if not, the one sentence that says why and how to get history.

The app holds its monitor (`tui.dashboard.shell.monitoring`): no monitoring settings
means no monitor at all; a monitor that could not be opened leaves its problem; one
still opening is None for a moment. An open monitor's journal is None when the context
turned it off (`enabled = false`), and a journal that could not be opened is `disabled`,
with its reason. Each says something different to do, so each has its own sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tui.monitor.journal import Journal

MONITORING_OFF = (
    "The journal is off: this dashboard runs without monitoring, so it keeps no history. "
    "Start it with monitoring on, or run 'wds-tui watch' for this context, and history builds up from then."
)
JOURNAL_OFF = (
    "The journal is off for this context (enabled = false in its [journal] table), so no history is kept. "
    "Set enabled = true and history builds up from the next start."
)
OPENING = "The journal is still opening: go back and press H again in a moment."


class HasJournal(Protocol):
    """What the history needs of the app's monitor: its journal (None: turned off)."""

    @property
    def journal(self) -> Journal | None: ...


class HoldsAMonitor(Protocol):
    """What the history reads of the app: its monitor (None until open, or when off), and why there is none."""

    @property
    def monitor(self) -> HasJournal | None: ...

    @property
    def monitor_settings(self) -> object | None: ...

    @property
    def monitor_problem(self) -> str | None: ...


@dataclass(frozen=True)
class JournalState:
    """A journal to read (`journal`), or why there is none (`off`)."""

    journal: Journal | None
    off: str | None

    @classmethod
    def of(cls, holder: HoldsAMonitor | None) -> JournalState:
        """The journal of the app's monitor, or the sentence that says why there is none."""
        if holder is None or holder.monitor_settings is None:
            return cls(None, MONITORING_OFF)
        if holder.monitor_problem is not None:
            return cls(None, f"No history: {holder.monitor_problem}.")
        if holder.monitor is None:
            return cls(None, OPENING)
        return cls.given(holder.monitor.journal)

    @classmethod
    def given(cls, journal: Journal | None) -> JournalState:
        """`journal` itself: readable, turned off (None) or disabled (its reason said)."""
        if journal is None:
            return cls(None, JOURNAL_OFF)
        if journal.disabled is not None:
            reason = journal.disabled.reason
            return cls(
                None, f"The journal is off: {reason}. Once it can be written, history builds up from the next start."
            )
        return cls(journal, None)


def nothing_yet(span_text: str) -> str:
    """What an empty span says: why, and how history gets there."""
    return (
        f"Nothing in the journal for this span ({span_text}): it fills while a dashboard "
        "or 'wds-tui watch' runs for this context."
    )
