"""The interface between the emulator's session bookkeeping and a real browser.

The session manager (`tui.emulator.browser_sessions`) owns state, limits and
clocks; a backend owns processes. Keeping them apart lets the emulator run
(and answer 503 for browser work, as a self-hosted deployment without the
browser feature does) on a machine with no browser at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class BrowserUnavailable(Exception):
    """No browser can be started here; the message says how to get one."""


@dataclass(frozen=True)
class ProfileSpec:
    """A named persistent profile; `save_changes` writes state back on close."""

    name: str
    save_changes: bool


@dataclass
class BrowserHandle:
    """A running browser that belongs to one session."""

    session_id: str
    ws_endpoint: str
    pid: int
    user_data_dir: Path


@dataclass
class ExecutionOutcome:
    """What running user code in a session produced."""

    stdout: str
    stderr: str
    exit_code: int | None
    killed: bool
    error: str | None
    result: str | None
    truncated: bool = False


class BrowserBackend(Protocol):
    """Starts, runs code in, and stops browsers for sessions."""

    available: bool
    unavailable_reason: str

    async def launch(self, session_id: str, profile: ProfileSpec | None) -> BrowserHandle: ...

    async def close(self, handle: BrowserHandle, save_profile: bool) -> None: ...

    async def execute(
        self, handle: BrowserHandle, code: str, language: str, timeout: float
    ) -> ExecutionOutcome: ...

    async def shutdown(self) -> None: ...


NO_BROWSER_MESSAGE = (
    "Browser feature not configured: no Chromium or Chrome was found. "
    "Install one (Debian/Ubuntu: `apt-get install chromium`) or point WDS_CHROMIUM at its binary."
)


class NoBrowserBackend:
    """The backend of a deployment without the browser feature: every call is refused."""

    available = False

    def __init__(self, reason: str = NO_BROWSER_MESSAGE) -> None:
        self.unavailable_reason = reason

    async def launch(self, session_id: str, profile: ProfileSpec | None) -> BrowserHandle:
        raise BrowserUnavailable(self.unavailable_reason)

    async def close(self, handle: BrowserHandle, save_profile: bool) -> None:
        return None

    async def execute(
        self, handle: BrowserHandle, code: str, language: str, timeout: float
    ) -> ExecutionOutcome:
        raise BrowserUnavailable(self.unavailable_reason)

    async def shutdown(self) -> None:
        return None
