"""The interface between the emulator's session bookkeeping and a real browser.

The session manager (`tui.emulator.browser.sessions`) owns state, limits and
clocks; a backend owns processes. Keeping them apart lets the emulator run
(and answer 503 for browser work, as a self-hosted deployment without the
browser feature does) on a machine with no browser at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


class BrowserUnavailable(Exception):
    """No browser can be started here; the message says how to get one."""


class BrowserStartFailed(RuntimeError):
    """A browser was found but did not start (the manager answers 502)."""


class ProfileBusy(RuntimeError):
    """A second session wants to save into a profile that already has a saver (409).

    The manager normally refuses such a create itself; the backend guards too.
    """


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
    # Set by the backend once the browser is closed, so that live connections
    # (the CDP proxy, live views) can end at once instead of polling.
    closed: asyncio.Event = field(default_factory=asyncio.Event, repr=False, compare=False)
    # Why the browser ended by itself (killed by hand, crashed), set by the backend when it
    # notices; the session manager then marks the session destroyed. None while it runs.
    lost: str | None = None
    # Why the session ended ("deleted", "ttl", ...), set by the session manager before it closes
    # the browser, so that a run the close kills can say why.
    end_reason: str | None = None
    # An in-process CDP connection of its own to the browser (send/recv/async for/close, ending
    # with websockets' ConnectionClosed), for the emulator's own users; None: use `ws_endpoint`.
    open_cdp: Callable[[], Awaitable[Any]] | None = field(default=None, repr=False, compare=False)


@dataclass
class ExecutionOutcome:
    """What running user code in a session produced.

    `result` is the value of the code's last expression (node and python; None
    when the code ends in a statement or the value is undefined/None, and always
    for bash). The contract's execute response calls `result` an alias of stdout,
    so routes answer `result if result is not None else stdout` there.
    `error` is set when the code raised (the exception's message), was killed
    by the timeout, or exited non-zero. `truncated` says stdout or stderr hit
    the output cap. `duration_ms` is wall time from spawn to exit.
    """

    stdout: str
    stderr: str
    exit_code: int | None
    killed: bool
    error: str | None
    result: str | None
    truncated: bool = False
    duration_ms: float | None = None


@dataclass(frozen=True)
class SiteResponse:
    """What a session's browser receives for a request to a web site the emulator makes up.

    `delay` (seconds) holds the answer back, for pages that are slow on purpose.
    """

    status: int
    headers: Mapping[str, str]
    body: bytes
    delay: float = 0.0


# The emulator's answer for a URL, or None when no site answers it (the browser then
# sees a failed DNS lookup, as for a host that does not exist).
SiteResolver = Callable[[str], SiteResponse | None]


class BrowserBackend(Protocol):
    """Starts, runs code in, and stops browsers for sessions.

    A backend whose browsers should see the emulator's synthetic sites instead of
    the network also has `set_site_resolver(resolver: SiteResolver) -> None`;
    it is optional, and the emulator calls it when present.
    """

    available: bool
    unavailable_reason: str

    async def launch(self, session_id: str, profile: ProfileSpec | None) -> BrowserHandle: ...

    async def close(self, handle: BrowserHandle, save_profile: bool) -> None: ...

    async def execute(self, handle: BrowserHandle, code: str, language: str, timeout: float) -> ExecutionOutcome: ...

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

    async def execute(self, handle: BrowserHandle, code: str, language: str, timeout: float) -> ExecutionOutcome:
        raise BrowserUnavailable(self.unavailable_reason)

    async def shutdown(self) -> None:
        return None
