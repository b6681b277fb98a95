"""The JSON lines `watch` writes: one per alert event and per notable event, to stdout or a file.

Every line is one JSON object with `at` (ISO 8601, UTC) and `event`:

- `alert`: an alert `fired`, was `repeated` or `resolved` (`what`), with `context`, `rule`,
  `subject`, `sentence`, `severity` and `target` (`{"kind": "job", "id": ...}` or null);
- `start` and `stop` (the last line; with a summary per context), `watching` (a context's polls began);
- `poll_error` and `poll_ok`: an endpoint began failing (or its words changed), and recovered:
  one line per change, never one per failed poll of a long outage;
- `journal`: what happened to a context's journal file (repaired, disabled, a write that failed);
- `delivery`: how sending an alert to a command or a webhook went (`outlet`, `ok`, `message`).

The service's words (hosts, errors) are written as JSON escapes when not plain
ASCII (`ensure_ascii`): a log read in a terminal never carries its control sequences.
A line that cannot be written (a full disk, a closed pipe) is dropped and
remembered in `problem`; it never stops `watch`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from tui.monitor.alerts.engine import AlertEvent
from tui.monitor.delivery.notice import AlertNotice


def _utc_now() -> datetime:
    return datetime.now(UTC)


class EventLog:
    """Writes one JSON object a line to `stream` (line-buffered when it is a file opened by `to_file`)."""

    def __init__(self, stream: TextIO, *, clock: Callable[[], datetime] = _utc_now, owned: bool = False) -> None:
        self._stream = stream
        self._clock = clock
        self._owned = owned
        self.problem: str | None = None
        self.lines = 0

    @classmethod
    def to_file(cls, path: Path, *, clock: Callable[[], datetime] = _utc_now) -> EventLog:
        """Append to `path` (made if missing), a line at a time; OSError when it cannot be opened."""
        return cls(path.open("a", buffering=1, encoding="utf-8"), clock=clock, owned=True)

    def write(self, event: str, **fields: Any) -> None:
        """One line: `{"at": ..., "event": event, **fields}`."""
        line = json.dumps({"at": self._clock().isoformat(), "event": event, **fields}, default=str)
        try:
            self._stream.write(line + "\n")
            self._stream.flush()
        except (OSError, ValueError) as error:  # ValueError: the stream was closed under us
            self.problem = self.problem or f"a log line was lost: {error}"
            return
        self.lines += 1

    def alert(self, event: AlertEvent, notice: AlertNotice, context: str | None = None) -> None:
        """An alert event as the monitor told it; `context` names it in the log (else the notice's)."""
        alert = event.alert
        target = {"kind": alert.opens.kind, "id": alert.opens.id} if alert.opens is not None else None
        self.write(
            "alert",
            what=event.what,
            context=context or notice.context,
            rule=alert.rule,
            subject=alert.subject,
            sentence=alert.sentence,
            severity=notice.severity,
            target=target,
            fired_at=alert.fired_at.isoformat(),
            repeats=alert.repeats,
        )

    def poll_change(self, context: str, endpoint: str, problem: str | None) -> None:
        """An endpoint began failing, or its failure's words changed (`poll_error`), or it recovered (`poll_ok`)."""
        if problem is None:
            self.write("poll_ok", context=context, endpoint=endpoint)
        else:
            self.write("poll_error", context=context, endpoint=endpoint, problem=problem)

    def close(self) -> None:
        """Close the file this log opened (stdout is left open)."""
        if self._owned:
            try:
                self._stream.close()
            except OSError as error:
                self.problem = self.problem or f"the log file did not close cleanly: {error}"
