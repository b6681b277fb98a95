"""The dashboard in tests: on a seeded emulator in-process, on a frozen clock, driven by a pilot.

Every UI test runs on the real emulator through httpx's ASGI transport; a
switch makes the "service" answer 503 so failure paths can be shown without
mocks of the client itself. `dashboard` builds the whole dashboard, `PaneHost`
hosts one pane alone; `wait_until`, `settle` and `open_pane` drive a pilot;
`freeze_cursors` stills a picture; `panes_loaded` says every pane (and the
usage pane's capacity line) has had its first answer. The standard picture is `seeded_emulator`:
team `ops` with key KEY, seeded history, at NOW.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
from textual import on
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer, Input, TextArea

import tui
from tui.api.client import WdsClient
from tui.contract.redact import mask_key
from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.features.usage.capacity_line import CapacityLine
from tui.dashboard.kit.clock import Clock
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live import POLL_GROUP
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.intents import Intent
from tui.dashboard.shell.navigation import Navigator
from tui.dashboard.shell.service_info import ServiceInfo
from tui.dashboard.shell.sightings import RECENT_WINDOW
from tui.dashboard.startup.app_factory import make_app
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.http.fault_rules import FaultRule, rule_from_fields
from tui.emulator.service import Emulator
from tui.monitor.settings import MonitorSettings

KEY = "wds-" + "5e" * 16
NOW = datetime(2025, 6, 15, 12, 0, tzinfo=UTC)
# How the dashboard shows NOW: local time, which tests/ui/conftest.py's `utc_local_time` makes UTC.
LOCAL_NOW = NOW.strftime("%H:%M:%S")
BASE_URL = "http://emulator.test"

PaneT = TypeVar("PaneT", bound=Pane)


def frozen_clock(at: datetime) -> Clock:
    """A clock that always answers `at` (for deterministic pictures)."""
    return lambda: at


class SwitchableTransport(httpx.AsyncBaseTransport):
    """The emulator in-process, with a switch that makes the service answer 503, and a request log.

    The switch is a fault rule of the emulator's own (`status=503` on every path), so the 503 is
    the service's error body as a faulty service answers it; every client of the emulator meets it.
    """

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.inner = httpx.ASGITransport(app=create_app(emulator))
        self.paths: list[str] = []
        self._outage: FaultRule | None = None

    @property
    def failing(self) -> bool:
        return self._outage is not None

    @failing.setter
    def failing(self, value: bool) -> None:
        if value and self._outage is None:
            self._outage = self.emulator.faults.add(rule_from_fields({"status": 503}))
        elif not value and self._outage is not None:
            self.emulator.faults.remove(self._outage.id)
            self._outage = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        return await self.inner.handle_async_request(request)


def client_over(http: httpx.AsyncClient, key: str = KEY) -> WdsClient:
    """Our client sending through `http`, without retries (tests want the first answer)."""
    return WdsClient(BASE_URL, key, http_client=http, max_retries=0)


def client_on(transport: httpx.AsyncBaseTransport, key: str = KEY) -> WdsClient:
    """Our client on the in-process emulator (see `client_over`)."""
    return client_over(httpx.AsyncClient(transport=transport, base_url=BASE_URL), key)


def seeded_emulator(seed: int = 11, clock: ManualClock | None = None, **kw: object) -> Emulator:
    """The standard picture: one team (`ops`, key KEY) with seeded history, on `clock` (a new one at NOW if none)."""
    return Emulator.from_keys(
        {"ops": [KEY]},
        seed=seed,
        clock=clock or ManualClock(NOW),
        **kw,  # type: ignore[arg-type]
    )


SLOW = 3600.0
"""Seconds between the panes' polls in a test's dashboard: tests refresh by hand."""


def emulator_service(key: str = KEY) -> ServiceInfo:
    """How a test's dashboard describes its service: the embedded emulator on a fixed address."""
    return ServiceInfo(host="127.0.0.1:3002", masked_key=mask_key(key), embedded=True)


def dashboard(
    emulator: Emulator,
    transport: httpx.AsyncBaseTransport | None = None,
    key: str = KEY,
    *,
    clock: Clock | None = None,
    keymap: dict[str, str] | None = None,
    hyperlinks: bool = False,
    webhooks: InboxService | None = None,
    recent_window: timedelta = RECENT_WINDOW,
    monitoring: MonitorSettings | None = None,
    journal_dir: Path | None = None,
    monitor_client: WdsClient | None = None,
) -> WdsApp:
    """The whole dashboard on `emulator`, polling slowly (tests refresh by hand).

    Its clock is frozen at NOW unless `clock` is given (a test whose emulator
    lives at another date passes the emulator's clock); `keymap`: [keys] overrides;
    `webhooks`: its inbox (one made on first use if None); `recent_window`: the setting.
    `monitoring`: journal and alert rules (None: none); `journal_dir`: where the journal is kept;
    `monitor_client`: the client of the monitor's background polls (None: none).
    `hyperlinks` off unless asked: a picture must not depend on the TERM the tests run under.
    """
    client = client_on(transport or SwitchableTransport(emulator), key)
    return make_app(
        client,
        emulator_service(key),
        clock=clock or frozen_clock(NOW),
        refresh=SLOW,
        keymap=keymap,
        hyperlinks=hyperlinks,
        webhooks=webhooks,
        recent_window=recent_window,
        monitoring=monitoring,
        journal_dir=journal_dir,
        monitor_client=monitor_client,
    )


class PaneHost(App[None]):
    """One widget alone (a pane, or a placeholder to push screens on), styled by the dashboard's stylesheet.

    `content` is called in `compose`, so the widget is built inside the running
    app as the dashboard builds its panes. With a `navigator`, the host opens
    the screens the widget asks for, as the dashboard does; every intent it
    sees is kept in `intents`.
    """

    CSS_PATH = Path(tui.__file__).parent / "dashboard" / "shell" / "app.tcss"

    def __init__(
        self, content: Callable[[], Widget], *, footer: bool = True, navigator: Navigator | None = None
    ) -> None:
        super().__init__()
        self._content = content
        self._footer = footer
        self.navigator = navigator
        self.intents: list[Intent] = []

    @on(Intent)
    def _navigate(self, intent: Intent) -> None:
        self.intents.append(intent)
        if self.navigator is not None:
            self.push_screen(self.navigator.screen_for(intent), self.navigator.when_answered(intent))

    def compose(self) -> ComposeResult:
        yield self._content()
        if self._footer:
            yield Footer()


async def wait_until(pilot: Pilot, predicate: Callable[[], bool], what: str, seconds: float = 5.0) -> None:
    """Poll the UI until `predicate` holds; fail naming `what` otherwise."""
    steps = int(seconds / 0.02)
    for _ in range(steps):
        if predicate():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def panes_loaded(app: App[Any]) -> bool:
    """Every pane has shown data, and the usage pane's capacity line its first answer (or failure)."""
    lines = app.query(CapacityLine)
    return all(p.data is not None for p in app.query(Pane)) and all(
        line.data is not None or line.stale_since is not None for line in lines
    )


async def settle(pilot: Pilot[Any]) -> None:
    """Let every fetch (and the fetch it triggers) finish and its result reach the screen.

    The panes' polling loops never complete: for those, wait until no fetch is due.
    """
    for _ in range(3):
        others = [worker for worker in pilot.app.workers if worker.group != POLL_GROUP]
        if others:
            await pilot.app.workers.wait_for_complete(others)
        await wait_until(pilot, lambda: not any(view.fetching for view in live_views(pilot.app)), "the panes' fetches")
        await pilot.pause()


def live_views(app: App[Any]) -> list[Pane[Any] | CapacityLine]:
    """The dashboard's polling views: its panes, and the capacity line that polls inside the usage pane."""
    return [*app.query(Pane), *app.query(CapacityLine)]


async def open_pane(pilot: Pilot[Any], kind: type[PaneT]) -> PaneT:
    """Once the dashboard's fetches are shown, focus the pane of `kind` (as a user tabbing to it) and return it."""
    await settle(pilot)
    pane = pilot.app.query_one(kind)
    pane.focus_first()
    await pilot.pause()
    return pane


def freeze_cursors(app: App) -> None:
    """Stop cursor blink so a picture does not depend on the instant it was taken."""
    for widget in app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False
            if isinstance(widget, TextArea):
                # TextArea's line cache keys the cursor on `blink and visible`: with blink off, a line drawn in the
                # blink's hidden phase would be reused without the cursor (1 picture in 4). Drop the cached lines.
                widget.notify_style_update()
                widget.refresh()
