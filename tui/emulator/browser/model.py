"""One browser session as the service describes it: its lifetimes, secrets, URLs and bill.

The rules that create, expire and end sessions are `BrowserSessionManager`'s
(`sessions.py`); this is the record they work on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tui.emulator.browser.access import SessionSecrets
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.core.clock import isoformat_z

BROWSER_CREDITS_PER_MINUTE = 2


@dataclass
class BrowserSession:
    """One browser session of one team."""

    id: str
    team_id: str
    api_key: str
    secrets: SessionSecrets
    base_url: str
    created_at: datetime
    last_activity: datetime
    ttl: int
    activity_ttl: int
    stream_web_view: bool
    profile_name: str | None = None
    save_profile: bool = False
    bound_job_id: str | None = None
    status: str = "active"
    destroyed_at: datetime | None = None
    end_reason: str | None = None
    credits_billed: int = 0
    handle: BrowserHandle | None = None

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def expires_at(self) -> datetime:
        return self.created_at + timedelta(seconds=self.ttl)

    def due_at(self) -> tuple[datetime, str]:
        """When the session ends by itself, and which limit ends it."""
        idle_end = self.last_activity + timedelta(seconds=self.activity_ttl)
        return (self.expires_at, "ttl") if self.expires_at <= idle_end else (idle_end, "activityTtl")

    @property
    def cdp_url(self) -> str:
        ws_base = "ws" + self.base_url.removeprefix("http")
        return f"{ws_base}/cdp/{self.id}?token={self.secrets.cdp}"

    @property
    def live_view_url(self) -> str:
        return f"{self.base_url}/live/{self.id}?token={self.secrets.view}"

    @property
    def interactive_live_view_url(self) -> str:
        return f"{self.base_url}/live/{self.id}?token={self.secrets.interact}&interactive=1"

    def duration_ms(self, now: datetime) -> int:
        end = self.destroyed_at or now
        return int((end - self.created_at).total_seconds() * 1000)

    def urls(self) -> dict[str, str]:
        return {
            "cdpUrl": self.cdp_url,
            "liveViewUrl": self.live_view_url,
            "interactiveLiveViewUrl": self.interactive_live_view_url,
        }

    def to_wire(self) -> dict[str, Any]:
        """The session as `GET /v2/browser` lists it; an ended one says why (`endReason`, the emulator's own field)."""
        wire = {
            "id": self.id,
            "status": self.status,
            **self.urls(),
            "streamWebView": self.stream_web_view,
            "createdAt": isoformat_z(self.created_at),
            "lastActivity": isoformat_z(self.last_activity),
        }
        if self.status == "destroyed" and self.end_reason is not None:
            wire["endReason"] = self.end_reason
        return wire


def credits_for(duration_ms: int) -> int:
    """Credits for a session that lived `duration_ms`: per started minute, at least one minute."""
    return max(1, math.ceil(duration_ms / 60_000)) * BROWSER_CREDITS_PER_MINUTE
