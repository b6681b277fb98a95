"""Sessions behind a CDP proxy without the emulator's session manager: for the proxy's and live view's tests.

`FakeSessions` has the methods the CDP proxy and live view ask of the session
manager; `proxied_session` launches a browser and serves a proxy in front of it;
`Serve` is the type of the `serve` fixture (tests/browser/conftest.py) that does the serving.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.applications import Starlette

from tui.emulator.browser.access import Access, SessionSecrets
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.http.cdp_proxy import cdp_proxy_route

Serve = Callable[[Starlette], Awaitable[str]]
"""The `serve` fixture's type: `await serve(app)` runs the app on a loopback port and returns `host:port`."""


@dataclass
class _Entry:
    secrets: SessionSecrets
    handle: BrowserHandle
    active: bool = True


class FakeSessions:
    """The three methods the CDP proxy and live view need from the session manager."""

    def __init__(self) -> None:
        self.entries: dict[str, _Entry] = {}
        self.touches: Counter[str] = Counter()

    def add(self, handle: BrowserHandle) -> str:
        """Register a running browser; returns its cdp token (`secrets_of` has all three)."""
        secrets = SessionSecrets.new()
        self.entries[handle.session_id] = _Entry(secrets, handle)
        return secrets.cdp

    def secrets_of(self, session_id: str) -> SessionSecrets:
        return self.entries[session_id].secrets

    def end(self, session_id: str) -> None:
        self.entries[session_id].active = False

    def get_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> _Entry | None:
        entry = self.entries.get(session_id)
        if entry is None or not entry.active:
            return None
        return entry if entry.secrets.grants(token, access) else None

    def touch(self, session_id: str) -> bool:
        entry = self.entries.get(session_id)
        if entry is None or not entry.active:
            return False
        self.touches[session_id] += 1
        return True

    def ended_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> bool:
        entry = self.entries.get(session_id)
        return entry is not None and not entry.active and entry.secrets.grants(token, access)

    def handle(self, session_id: str) -> BrowserHandle | None:
        entry = self.entries.get(session_id)
        return entry.handle if entry is not None and entry.active else None


async def proxied_session(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve, session_id: str
) -> tuple[BrowserHandle, str]:
    """A browser launched as `session_id` behind a served CDP proxy: (its handle, its cdpUrl with the token)."""
    handle = await backend.launch(session_id, None)
    token = sessions.add(handle)
    host = await serve(Starlette(routes=[cdp_proxy_route(sessions)]))
    return handle, f"ws://{host}/cdp/{handle.session_id}?token={token}"
