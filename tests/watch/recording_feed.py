"""What the watch tests share: a feed that records what a poller told it, and a client on an in-process emulator."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import httpx

from tui.api.client import WdsClient
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

KEY = "wds-" + "3a" * 16
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
BASE_URL = "http://emulator.test"


class RecordingFeed:
    """Stands in for a `Monitor`: every call kept as (method, arguments), in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def _keep(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append((name, args, kwargs))

    def named(self, name: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        return [(args, kwargs) for called, args, kwargs in self.calls if called == name]

    def saw_activity(self, entries: Iterable[Any]) -> None:
        self._keep("saw_activity", list(entries))

    def saw_job(self, kind: str, job_id: str, summary: Any, **kwargs: Any) -> None:
        self._keep("saw_job", kind, job_id, summary, **kwargs)

    def saw_crawl(self, kind: str, job_id: str, status: Any) -> None:
        self._keep("saw_crawl", kind, job_id, status)

    def saw_credits(self, balance: Any) -> None:
        self._keep("saw_credits", balance)

    def saw_queue(self, status: Any) -> None:
        self._keep("saw_queue", status)

    def saw_token_usage(self, history: Any) -> None:
        self._keep("saw_token_usage", history)

    def saw_sessions(self, sessions: Iterable[Any]) -> None:
        self._keep("saw_sessions", list(sessions))

    def saw_health(self, state: str, detail: str | None = None) -> None:
        self._keep("saw_health", state, detail)

    def tick(self) -> list[Any]:
        self._keep("tick")
        return []


class CountingTransport(httpx.AsyncBaseTransport):
    """The emulator in-process; counts the requests by path, and answers `scripted` ones itself."""

    def __init__(self, emulator: Emulator) -> None:
        self.inner = httpx.ASGITransport(app=create_app(emulator))
        self.paths: list[str] = []
        self.scripted: dict[str, httpx.Response] = {}
        self.broken: Exception | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        if self.broken is not None:
            raise self.broken
        for prefix, answer in self.scripted.items():
            if request.url.path.startswith(prefix):
                return httpx.Response(answer.status_code, headers=answer.headers, content=answer.content)
        return await self.inner.handle_async_request(request)

    def asked(self, prefix: str) -> int:
        return sum(1 for path in self.paths if path.startswith(prefix))


def seeded(seed: int = 5, clock: ManualClock | None = None, *, history: bool = True) -> Emulator:
    """One team (key KEY) with a seeded day of history, on a manual clock at NOW."""
    return Emulator.from_keys({"ops": [KEY]}, seed=seed, clock=clock or ManualClock(NOW), history=history)  # type: ignore[arg-type]


def client_on(transport: httpx.AsyncBaseTransport) -> WdsClient:
    """Our client through `transport`, without retries (a test wants the first answer)."""
    return WdsClient(
        BASE_URL, KEY, http_client=httpx.AsyncClient(transport=transport, base_url=BASE_URL), max_retries=0
    )
