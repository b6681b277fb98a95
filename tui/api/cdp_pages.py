"""The page targets of a CDP connection, with their url, title and loading state.

Chromium tells a connection of pages opened and closed, but not of title changes
of pages nobody is attached to, nor of loading state: so what it announces
(`track`) is merged with what a poll finds (`apply`, `refresh_loading`). Its own
module because it is the client's one piece of state about the browser rather than
the connection, and it talks to the browser only through the `send` it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from tui.api.cdp_types import CdpCommandError, CdpEvent, CdpTimeoutError, ClientUpdate, PagesChanged, PageTarget

# A page busy navigating does not answer `document.readyState` quickly: it counts as loading.
READY_STATE_TIMEOUT = 2.0


class SendCommand(Protocol):
    """`CdpClient.send`: one command and its result."""

    async def __call__(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]: ...


class PageTracker:
    """The page targets seen on one connection; every change is emitted as `PagesChanged`."""

    def __init__(self, send: SendCommand, emit: Callable[[ClientUpdate], None]) -> None:
        self._send = send
        self._emit = emit
        self._pages: dict[str, PageTarget] = {}
        self._sessions: dict[str, str] = {}  # target id -> the flat session attached to read its state

    @property
    def pages(self) -> tuple[PageTarget, ...]:
        return tuple(self._pages.values())

    def track(self, event: CdpEvent) -> None:
        """Follow what the browser announces: targets created, changed, destroyed and detached."""
        if event.method in ("Target.targetCreated", "Target.targetInfoChanged"):
            self.apply([event.params.get("targetInfo", {})], complete=False)
        elif event.method == "Target.targetDestroyed":
            target_id = event.params.get("targetId", "")
            self._sessions.pop(target_id, None)
            if self._pages.pop(target_id, None) is not None:
                self._emit(PagesChanged(self.pages))
        elif event.method == "Target.detachedFromTarget":
            target_id = event.params.get("targetId", "")
            if self._sessions.get(target_id) == event.params.get("sessionId"):
                del self._sessions[target_id]

    def apply(self, infos: list[dict[str, Any]], *, complete: bool) -> None:
        """Apply target infos; with `complete`, pages missing from `infos` are gone."""
        pages = dict(self._pages)
        seen = set()
        for info in infos:
            if info.get("type") != "page":
                continue
            target_id = str(info.get("targetId"))
            seen.add(target_id)
            old = pages.get(target_id)
            url, title = str(info.get("url", "")), str(info.get("title", ""))
            pages[target_id] = replace(old, url=url, title=title) if old else PageTarget(target_id, url, title)
        if complete:
            pages = {key: page for key, page in pages.items() if key in seen}
        self._replace(pages)

    def clear(self) -> None:
        """The connection closed: its pages and sessions are gone with it."""
        self._sessions.clear()
        if self._pages:
            self._pages.clear()
            self._emit(PagesChanged(()))

    async def refresh_loading(self, command_timeout: float) -> None:
        """Read each page's `document.readyState` through a flat session attached to it."""
        for target_id in dict(self._pages):
            try:
                session_id = self._sessions.get(target_id)
                if session_id is None:
                    attached = await self._send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
                    session_id = self._sessions[target_id] = attached["sessionId"]
                state = await self._send(
                    "Runtime.evaluate",
                    {"expression": "document.readyState", "returnByValue": True},
                    session_id=session_id,
                    timeout=min(command_timeout, READY_STATE_TIMEOUT),
                )
                loading = state.get("result", {}).get("value") != "complete"
            except CdpTimeoutError:
                loading = True  # a page busy navigating does not answer quickly
            except CdpCommandError:
                continue  # the page went away meanwhile
            if target_id in self._pages and self._pages[target_id].loading != loading:
                self._replace({**self._pages, target_id: replace(self._pages[target_id], loading=loading)})

    def _replace(self, pages: dict[str, PageTarget]) -> None:
        if pages != self._pages:
            self._pages = pages
            self._emit(PagesChanged(self.pages))
