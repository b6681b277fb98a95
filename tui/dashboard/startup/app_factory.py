"""The one place that builds the dashboard: `make_app`.

posting's habit (`posting/__main__.py::make_posting`, shared by its CLI and
its snapshot tests): the CLI (`tui.dashboard.startup.launch`), the tests, the benchmarks and
the README's screenshots all call this one function, so each of them runs the
app wired the same way. They differ only in what they hand it: a client (on
the configured service, or on an in-process emulator), the description of the
service, and the clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.app_memory import AppMemory
from tui.dashboard.shell.intervals import Intervals
from tui.dashboard.shell.navigation import Navigator
from tui.dashboard.shell.service_info import ServiceInfo
from tui.dashboard.shell.sightings import RECENT_WINDOW

if TYPE_CHECKING:
    from tui.api.client import WdsClient
    from tui.dashboard.features.inbox.service import InboxService
    from tui.dashboard.startup.contexts import ContextSwitch
    from tui.dashboard.startup.ui_state import UiState
    from tui.monitor.settings import MonitorSettings


def make_app(
    client: WdsClient,
    service: ServiceInfo,
    *,
    clock: Clock = system_clock,
    refresh: float | None = None,
    webhooks: InboxService | None = None,
    ui_state: UiState | None = None,
    contexts: ContextSwitch | None = None,
    startup_notes: Sequence[str] = (),
    keymap: Mapping[str, str] | None = None,
    hyperlinks: bool | None = None,
    recent_window: timedelta = RECENT_WINDOW,
    monitoring: MonitorSettings | None = None,
    journal_dir: Path | None = None,
    monitor_client: WdsClient | None = None,
) -> WdsApp:
    """The dashboard on `client`, its parts made and wired.

    `refresh`: seconds between polls of every pane (None: each pane's own
    interval). `webhooks`: the inbox to listen with (None: one made when first
    opened). `ui_state`: what is remembered between runs (None: nothing, as in
    tests). `contexts`: the config file's contexts to switch between (None: one
    only). `startup_notes`: warnings said once the app runs. `keymap`: the
    config file's `[keys]` that passed their checks, binding id -> keys
    (`tui.dashboard.keys.overrides`). `hyperlinks`: whether URLs are OSC 8 links
    (None: as the terminal allows, `tui.dashboard.kit.widgets.hyperlink`).
    `recent_window`: how long finished crawls and batches stay in the crawls pane.
    `monitoring`: the context's alert rules, delivery and journal (None: no
    journal and no alerts, as in most tests); `journal_dir`: where journals are
    kept (None: the user's state directory); `monitor_client`: a read-only client
    for the monitor's background polls (None: the panes alone feed it).
    """
    memory = AppMemory(webhooks)
    navigator = Navigator(client, memory, clock=clock, hyperlinks=hyperlinks)
    app = WdsApp(
        client,
        service,
        memory=memory,
        navigator=navigator,
        clock=clock,
        intervals=Intervals.every(refresh) if refresh else Intervals(),
        ui_state=ui_state,
        contexts=contexts,
        startup_notes=startup_notes,
        recent_window=recent_window,
        monitoring=monitoring,
        journal_dir=journal_dir,
    )
    app.monitor_client = monitor_client if monitoring is not None else None
    navigator.follow_monitor(app)  # the history reads the app's monitor, open or not
    if keymap:
        app.set_keymap(dict(keymap))
    return app
