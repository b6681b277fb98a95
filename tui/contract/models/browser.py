"""Browser sessions: create, list, delete, execute (`/v2/browser...`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from tui.contract.models.common import OPEN, Timestamp, WdsModel


class SessionStatus(StrEnum):
    """Known states of a browser session (`error` is seen from newer servers)."""

    ACTIVE = "active"
    DESTROYED = "destroyed"
    ERROR = "error"


SessionStatusValue = Annotated[SessionStatus | str, OPEN]


class BrowserSession(WdsModel):
    """A browser session as listed by `GET /v2/browser`.

    `cdp_url` carries the token that authorises the DevTools websocket, so it
    is left out of `repr()`.
    """

    id: str
    status: SessionStatusValue
    cdp_url: str | None = Field(None, repr=False)
    live_view_url: str | None = None
    interactive_live_view_url: str | None = None
    stream_web_view: bool | None = None
    created_at: Timestamp | None = None
    last_activity: Timestamp | None = None
    expires_at: Timestamp | None = None

    @property
    def is_active(self) -> bool:
        """True while the session can still run code."""
        return self.status == SessionStatus.ACTIVE

    @property
    def end_reason(self) -> str | None:
        """Why an ended session ended, when the service says (`endReason`: the local emulator's own field).

        The contract lists no reason; the emulator adds one (`ttl`, `activityTtl`, `deleted`,
        `shutdown`, "the emulator restarted" for a session a state file brought back).
        """
        reason = (self.model_extra or {}).get("endReason")
        return reason if isinstance(reason, str) and reason else None

    @property
    def profile_name(self) -> str | None:
        """The profile's name, when the service lists it.

        The contract's list has no such field: it is read from what a service
        may add (`profile: {name}` as in the create request, or `profileName`).
        """
        extra = self.model_extra or {}
        profile = extra.get("profile")
        name = profile.get("name") if isinstance(profile, dict) else profile
        name = name if name is not None else extra.get("profileName")
        return name if isinstance(name, str) and name else None


class BrowserSessionCreated(WdsModel):
    """The answer to `POST /v2/browser`: the new session's id, URLs and expiry."""

    success: bool = True
    id: str
    cdp_url: str = Field(repr=False)
    live_view_url: str | None = None
    interactive_live_view_url: str | None = None
    expires_at: Timestamp | None = None


class BrowserSessionList(WdsModel):
    """The answer to `GET /v2/browser`."""

    success: bool = True
    sessions: list[BrowserSession]  # always sent: a missing list is a broken answer, not an empty one


class StopOutcome(StrEnum):
    """How stopping a session went."""

    STOPPED = "stopped"
    FAILED = "failed"


class BrowserSessionDeleted(WdsModel):
    """The answer to `DELETE /v2/browser/{id}`: outcome, duration and cost."""

    success: bool = True
    status: Annotated[StopOutcome | str, OPEN] | None = None
    session_duration_ms: int | None = None
    credits_billed: float | None = None


class ExecuteResult(WdsModel):
    """What running code in a session produced.

    The service reports an exception raised by the code (a navigation timeout,
    say) in `error` while `success` stays true; `failed` looks at all of
    `error`, `killed` and `exit_code`.
    """

    success: bool = True
    stdout: str | None = None
    result: str | None = None
    stderr: str | None = None
    exit_code: int | None = None
    killed: bool = False
    error: str | None = None

    @property
    def output(self) -> str | None:
        """The program's output (`stdout`, or its alias `result`)."""
        return self.stdout if self.stdout is not None else self.result

    @property
    def failed(self) -> bool:
        """True when the code raised, exited non-zero or was killed by the timeout."""
        return self.error is not None or self.killed or self.exit_code not in (None, 0)
