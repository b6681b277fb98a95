"""Starting the dashboard: on the configured service, or on an embedded emulator.

With nothing configured, the emulator runs in a child process on a free
loopback port with a fresh key and live traffic (`tui.dashboard.startup.embedded_emulator`), so a
first run shows a moving dashboard and touches nothing outside the machine.
The child is started before the UI is imported, so that the two build at the
same time, each on its own core.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pydantic import SecretStr

from tui.contract.redact import mask_key
from tui.dashboard.startup.contexts import ContextSwitch, SwitchTo
from tui.dashboard.startup.settings import Settings

ContextLoader = Callable[[str], tuple[Settings, list[str]]]

if TYPE_CHECKING:
    from tui.dashboard.startup.embedded_emulator import LocalEmulator


@dataclass(frozen=True)
class Connection:
    """Where the dashboard's client points, and how the header describes it."""

    base_url: str
    api_key: SecretStr
    host: str
    masked_key: str
    embedded: bool = False
    emulator_log: Path | None = None


@contextmanager
def connection_for(
    settings: Settings, started: LocalEmulator | None = None, *, stop_unneeded: bool = True
) -> Iterator[Connection]:
    """The configured service, or an embedded emulator when none is configured.

    `started`: an embedded emulator already started (its owner stops it), used
    instead of starting one; stopped at once if the settings name a service
    (unless `stop_unneeded` is False: kept for a later switch back to local).
    """
    if settings.uses_embedded_emulator:
        if started is not None:
            yield _embedded_connection(started)
            return
        from tui.dashboard.startup.embedded_emulator import LocalEmulator

        with LocalEmulator.start() as emulator:
            yield _embedded_connection(emulator)
        return
    if started is not None and stop_unneeded:
        started.stop()
    assert settings.base_url is not None and settings.api_key is not None  # load_settings checked
    yield Connection(
        base_url=settings.base_url,
        api_key=settings.api_key,
        host=urlsplit(settings.base_url).netloc,
        masked_key=settings.masked_key,
    )


def _embedded_connection(emulator: LocalEmulator) -> Connection:
    return Connection(
        base_url=emulator.base_url,
        api_key=SecretStr(emulator.api_key),
        host=urlsplit(emulator.base_url).netloc,
        masked_key=mask_key(emulator.api_key),
        embedded=True,
        emulator_log=emulator.log_path,
    )


def run_dashboard(
    settings: Settings, started: LocalEmulator | None = None, *, load_context: ContextLoader | None = None
) -> int:
    """Run the Textual app until the user quits; the exit status for the CLI.

    `started`: the embedded emulator, if the caller started it already (the
    caller stops it). `load_context`: loads another context's settings by name,
    for the app's context switch (T): the app then ends with that context's
    settings and starts again on them, so nothing of the last context stays.
    An embedded emulator started here lives until the dashboard ends, so going
    back to `local` finds the same team.
    """
    if started is not None and not settings.uses_embedded_emulator:
        started.stop()  # started early for nothing: the settings name a service
        started = None
    from tui.dashboard.keys.overrides import check_key_overrides

    keys = check_key_overrides(settings.keys)  # once: [keys] is the file's, not a context's
    notes: list[str] = keys.problems
    with ExitStack() as emulators:
        embedded = started
        while True:
            if settings.uses_embedded_emulator and embedded is None:
                from tui.dashboard.startup.embedded_emulator import LocalEmulator

                embedded = emulators.enter_context(LocalEmulator.start())
            result = _run_app(settings, embedded, load_context, notes, keys.keymap)
            if not isinstance(result.value, SwitchTo):
                return result.code
            settings, notes = result.value.settings, result.value.warnings


@dataclass(frozen=True)
class _Ended:
    value: object
    code: int


def _run_app(
    settings: Settings,
    embedded: LocalEmulator | None,
    load_context: ContextLoader | None,
    notes: list[str],
    keymap: dict[str, str],
) -> _Ended:
    with connection_for(settings, embedded, stop_unneeded=False) as connection:
        # Imported only now: the embedded emulator is already building meanwhile.
        from tui.api.client import WdsClient
        from tui.dashboard.shell.service_info import ServiceInfo
        from tui.dashboard.startup.app_factory import make_app

        client = WdsClient(
            connection.base_url, connection.api_key, timeout=settings.timeout, read_only=settings.read_only
        )
        service = ServiceInfo(
            host=connection.host,
            masked_key=connection.masked_key,
            embedded=connection.embedded,
            emulator_log=connection.emulator_log,
            context=settings.context,
            read_only=settings.read_only,
            config_path=settings.config_path,
        )
        from tui.dashboard.features.inbox.service import InboxService
        from tui.dashboard.startup.ui_state import UiState, default_state_path

        webhooks = InboxService(settings.webhook_listen, settings.webhook_secret)
        contexts = (
            ContextSwitch(settings.context_names, settings.context, load_context) if load_context is not None else None
        )
        app = make_app(
            client,
            service,
            refresh=settings.refresh,
            webhooks=webhooks,
            ui_state=UiState(default_state_path()),
            contexts=contexts,
            startup_notes=notes,  # the new context's settings warnings (a file others can read, plain http, ...)
            keymap=keymap,
            recent_window=settings.recent_window,
            monitoring=settings.monitoring,
            # Its own client, read-only: the background polls never change anything, and never
            # count in what the panes' client is waiting for.
            monitor_client=WdsClient(connection.base_url, connection.api_key, timeout=settings.timeout, read_only=True),
        )
        # Everything made so far lives as long as the app: keep it out of every
        # later collection, then let the collector run again (see `tui.dashboard.startup.cli.main`).
        gc.freeze()
        gc.enable()
        app.run()
    return _Ended(app.return_value, app.return_code or 0)
