"""An alert's desktop notification and bell reach the terminal as bytes, chosen by the terminal's environment.

The app writes them through `tui.dashboard.shell.terminal_output.write_to_terminal`,
the one place that uses Textual's private `_driver` (as Textual's own `App.bell()`
does); the first test pins that. The others catch what the app would write with
its `terminal_write`, as a headless test app writes nothing to any terminal.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from textual.app import App

from tests.support.dashboard import NOW, SwitchableTransport, client_on, emulator_service, seeded_emulator, wait_until
from tests.ui.alerts_helpers import ONE_SEEDED_FAILURE, firing, rules
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.shell.terminal_output import write_to_terminal
from tui.dashboard.startup.app_factory import make_app

ITERM = {"TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"}


class RecordingDriver:
    """Stands for Textual's driver: a terminal that is not headless, and what was written to it."""

    is_headless = False

    def __init__(self) -> None:
        self.written: list[str] = []

    def write(self, data: str) -> None:
        self.written.append(data)


def test_codes_go_through_the_driver_the_way_textuals_own_bell_goes() -> None:
    app: App[None] = App()
    assert write_to_terminal(app, "\x1b]9;hi\x07") is False  # not running: no terminal, nothing written
    driver = RecordingDriver()
    app._driver = driver  # type: ignore[assignment]
    app.bell()  # Textual's own: if this stops writing here, write_to_terminal must change with it
    assert write_to_terminal(app, "\x1b]9;hi\x07") is True
    assert driver.written == ["\x07", "\x1b]9;hi\x07"]


def notified_app(tmp_path: Path, delivery: dict[str, Any], env: dict[str, str], *, read_only: bool = False) -> WdsApp:
    service = dataclasses.replace(emulator_service(), read_only=read_only)
    app = make_app(
        client_on(SwitchableTransport(seeded_emulator())),
        service,
        clock=lambda: NOW,
        refresh=3600,
        monitoring=rules(job_failed=ONE_SEEDED_FAILURE, delivery=delivery),
        journal_dir=tmp_path,
    )
    app.terminal_env = env
    return app


async def written_for_the_failed_job(app: WdsApp) -> list[str]:
    written: list[str] = []
    app.terminal_write = written.append
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        await pilot.pause()
        assert any(n.title == "▲ job_failed" for n in app._notifications)  # the toast, whatever is written
    return written


async def test_auto_picks_osc_9_in_iterm_with_the_bell(tmp_path: Path) -> None:
    written = await written_for_the_failed_job(notified_app(tmp_path, {"notification": "auto", "bell": True}, ITERM))
    [codes] = written
    assert codes.startswith("\x1b]9;wds-tui alert: job_failed: 1 job failed (host fernwood.co)")
    assert codes.endswith("\x07\x07")


async def test_inside_tmux_the_code_is_wrapped_for_its_passthrough(tmp_path: Path) -> None:
    env = {**ITERM, "TMUX": "/tmp/tmux-1000/default,1,0"}
    written = await written_for_the_failed_job(notified_app(tmp_path, {"notification": "osc777", "bell": False}, env))
    [codes] = written
    assert codes.startswith("\x1bPtmux;\x1b\x1b]777;notify;wds-tui alert: job_failed;1 job failed")
    assert codes.endswith("\x1b\\")


async def test_a_terminal_not_known_to_notify_gets_the_bell_only(tmp_path: Path) -> None:
    plain_term = {"TERM": "xterm-256color"}
    written = await written_for_the_failed_job(
        notified_app(tmp_path, {"notification": "auto", "bell": True}, plain_term)
    )
    assert written == ["\x07"]


async def test_with_notification_and_bell_off_nothing_is_written(tmp_path: Path) -> None:
    written = await written_for_the_failed_job(notified_app(tmp_path, {"notification": "off", "bell": False}, ITERM))
    assert written == []


async def test_read_only_mode_still_shows_and_notifies(tmp_path: Path) -> None:
    app = notified_app(tmp_path, {"notification": "osc9", "bell": False}, ITERM, read_only=True)
    written = await written_for_the_failed_job(app)
    assert len(written) == 1 and written[0].startswith("\x1b]9;")
    assert app.header.read_only


async def test_headless_the_app_writes_nothing_and_goes_on(tmp_path: Path) -> None:
    app = notified_app(tmp_path, {"notification": "osc9", "bell": True}, ITERM)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        await pilot.pause()
        assert app.is_headless and write_to_terminal(app, "x") is False
        assert app.header.alerts == 1
