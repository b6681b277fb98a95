"""Starting the dashboard: on the configured service, or on an embedded emulator.

With nothing configured, the emulator runs inside this process, in a thread of
its own on a free loopback port, with a fresh key and live traffic, so a first
run shows a moving dashboard and touches nothing outside the machine.
"""

from __future__ import annotations

import gc
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import SecretStr

from tui.api.client import WdsClient
from tui.api.redact import mask_key
from tui.app import Intervals, ServiceInfo, WdsApp
from tui.settings import Settings


@dataclass(frozen=True)
class Connection:
    """Where the dashboard's client points, and how the header describes it."""

    base_url: str
    api_key: SecretStr
    service: ServiceInfo


def new_api_key() -> str:
    """A key in the service's style, for the embedded emulator's one team."""
    return "wds-" + secrets.token_hex(16)


@contextmanager
def embedded_emulator(seed: int | None = None) -> Iterator[Connection]:
    """Run a live emulator in a background thread for as long as the block lasts."""
    from tui.emulator.browser.chromium import browser_backend_from_environment
    from tui.emulator.server import ServerThread
    from tui.emulator.state import Emulator

    key = new_api_key()
    emulator = Emulator.from_keys(
        {"local": [key]},
        seed=seed if seed is not None else secrets.randbelow(2**31),
        live=True,
        browser_backend=browser_backend_from_environment(),
    )
    server = ServerThread(emulator, host="127.0.0.1", port=0)
    base_url = server.start()
    try:
        yield Connection(
            base_url=base_url,
            api_key=SecretStr(key),
            service=ServiceInfo(host=urlsplit(base_url).netloc, masked_key=mask_key(key), embedded=True),
        )
    finally:
        server.stop()


@contextmanager
def connection_for(settings: Settings) -> Iterator[Connection]:
    """The configured service, or an embedded emulator when none is configured."""
    if settings.uses_embedded_emulator:
        with embedded_emulator() as connection:
            yield connection
        return
    assert settings.base_url is not None and settings.api_key is not None  # load_settings checked
    yield Connection(
        base_url=settings.base_url,
        api_key=settings.api_key,
        service=ServiceInfo(host=urlsplit(settings.base_url).netloc, masked_key=settings.masked_key),
    )


def run_dashboard(settings: Settings) -> int:
    """Run the Textual app until the user quits; the exit status for the CLI."""
    with connection_for(settings) as connection:
        client = WdsClient(connection.base_url, connection.api_key, timeout=settings.timeout)
        intervals = Intervals.every(settings.refresh) if settings.refresh else None
        app = WdsApp(client, connection.service, intervals=intervals)
        # Everything made so far lives as long as the app: keep it out of every
        # later collection, then let the collector run again (see `tui.cli.main`).
        gc.freeze()
        gc.enable()
        app.run()
    return app.return_code or 0
