"""Whether there is a journal to read, and if not, the one sentence that says why and how to get history.

The app's monitor (`tui.monitor`) is None when monitoring is off; its journal is None
when the journal is turned off; a journal that could not be opened is `disabled`, with
its reason. Each says something different to do, so each has its own sentence.
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
    "The journal is off for this context, so no history is kept. "
    "Turn it on in the config file and history builds up from the next start."
)


class HasJournal(Protocol):
    """What the history needs of the app's monitor: its journal (None: turned off)."""

    @property
    def journal(self) -> Journal | None: ...


@dataclass(frozen=True)
class JournalState:
    """A journal to read (`journal`), or why there is none (`off`)."""

    journal: Journal | None
    off: str | None

    @classmethod
    def of(cls, monitor: HasJournal | None) -> JournalState:
        """The journal of the app's `monitor`, or the sentence that says why there is none."""
        if monitor is None:
            return cls(None, MONITORING_OFF)
        return cls.given(monitor.journal)

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
