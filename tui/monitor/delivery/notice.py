"""What an alert says when it is delivered: one small record, the same for every outlet."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

AlertState = Literal["fired", "repeated", "resolved"]
Severity = Literal["info", "warning", "critical"]


@dataclass(frozen=True)
class AlertNotice:
    """One alert at one moment of its life: fired, repeated while it holds, or resolved.

    `rule` names the rule (`job_failed`), `subject` what it is about (a host, a
    crawl id); `title` and `body` are the words for people; `context` the config
    file's context it was seen in (None: the unnamed one).
    """

    rule: str
    subject: str
    state: AlertState
    title: str
    body: str
    severity: Severity
    at: datetime
    context: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The notice as plain JSON values (`at` in ISO 8601)."""
        return asdict(self) | {"at": self.at.isoformat()}

    def to_json(self) -> str:
        """The notice as one line of JSON: what a command reads on stdin and a generic webhook receives."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))
