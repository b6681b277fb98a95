"""Export (s) of the activity window, a triage group and a batch's rows: CSV and JSON lines, file and clipboard."""

from __future__ import annotations

import csv
import json
import os
import stat
from datetime import timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from tests.support.dashboard import NOW, PaneHost, frozen_clock, wait_until
from tests.ui.triage_helpers import END, expected_groups, pane_ready, press_window, produce_failures, window_host
from tui.api.client import WdsClient
from tui.dashboard.features.activity.triage import TriageScreen
from tui.dashboard.features.activity.triage_jobs import FailureGroupScreen
from tui.dashboard.features.batch.status import BatchStatusScreen
from tui.dashboard.kit.export_dialog import ExportScreen
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock


async def open_export(pilot: Pilot) -> ExportScreen:
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ExportScreen), "the export dialog")
    dialog = pilot.app.screen
    assert isinstance(dialog, ExportScreen)
    await pilot.pause()
    return dialog


async def export_to(pilot: Pilot, dialog: ExportScreen, path: Path) -> None:
    dialog.query_one("#export-path", Input).value = str(path)
    await pilot.pause()
    await pilot.press("ctrl+s")


def message(dialog: ExportScreen) -> str:
    return str(dialog.query_one("#export-message", Static).render())


async def said(pilot: Pilot, dialog: ExportScreen) -> None:
    """Until the dialog says something (the file is written in a thread)."""
    await wait_until(pilot, lambda: message(dialog) != "", "the dialog's message")


async def test_the_activity_window_exports_as_csv_and_jsonl_files(
    client: WdsClient, clock: ManualClock, tmp_path: Path
) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        dialog = await open_export(pilot)
        assert dialog.query_one("#export-path", Input).value == "activity-1h.csv"
        await export_to(pilot, dialog, tmp_path / "activity.csv")
        await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")
        with (tmp_path / "activity.csv").open(newline="") as file:
            rows = list(csv.DictReader(file))
        newest_first = list(reversed(made))
        assert [row["id"] for row in rows] == [m.job_id for m in newest_first]
        assert [row["target"] for row in rows] == [m.url for m in newest_first]
        assert [row["created_at"] for row in rows] == [m.at.isoformat() for m in newest_first]
        assert {row["kind"] for row in rows} == {"scrape"}

        dialog = await open_export(pilot)
        dialog.query_one("#export-format", Select).value = "jsonl"
        await pilot.pause()
        assert dialog.query_one("#export-path", Input).value == "activity-1h.jsonl"  # the suffix follows the format
        await export_to(pilot, dialog, tmp_path / "activity.jsonl")
        await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")
        records = [json.loads(line) for line in (tmp_path / "activity.jsonl").read_text().splitlines()]
        assert [(r["id"], r["target"]) for r in records] == [(m.job_id, m.url) for m in newest_first]


async def test_a_triage_group_goes_to_the_clipboard(client: WdsClient, clock: ManualClock) -> None:
    made = await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "the triage view")
        triage = app.screen
        assert isinstance(triage, TriageScreen)
        await wait_until(pilot, lambda: triage.walk.state.finished and not triage.walking, "the walk", 15)
        await pilot.pause()
        await pilot.press("enter")  # the top group: /product/{n}
        await wait_until(pilot, lambda: isinstance(app.screen, FailureGroupScreen), "the group's jobs")
        dialog = await open_export(pilot)
        dialog.query_one("#export-to", Select).value = "clipboard"
        await pilot.pause()
        assert not dialog.query_one("#export-file-row").display
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")
        lines = app.clipboard.splitlines()
        assert lines[0] == "created_at,kind,id,target,state,http_status,error"
        rows = list(csv.DictReader(lines))
        wanted = expected_groups(made, END - timedelta(hours=1))[("acme-outdoor.com", "/product/{n}")]
        assert [(r["id"], r["target"], r["http_status"]) for r in rows] == [(m.job_id, m.url, "404") for m in wanted]
        assert all(r["state"] == "failed" and r["error"].startswith("HTTP 404") for r in rows)


async def test_a_path_that_cannot_be_written_is_said_and_nothing_typed_is_lost(
    client: WdsClient, clock: ManualClock, tmp_path: Path
) -> None:
    await produce_failures(client, clock)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        dialog = await open_export(pilot)
        dialog.query_one("#export-format", Select).value = "jsonl"
        missing = tmp_path / "no-such-folder" / "out.jsonl"
        await export_to(pilot, dialog, missing)
        await said(pilot, dialog)
        assert app.screen is dialog
        assert message(dialog) == f"The folder {missing.parent} does not exist; nothing was written."
        assert dialog.query_one("#export-path", Input).value == str(missing)
        assert dialog.query_one("#export-format", Select).value == "jsonl"

        await export_to(pilot, dialog, tmp_path)  # a folder, not a file
        await said(pilot, dialog)
        assert app.screen is dialog and message(dialog) == f"{tmp_path} is a folder; give a file name in it."

        existing = tmp_path / "kept.jsonl"
        existing.write_text("keep me\n")
        await export_to(pilot, dialog, existing)
        await said(pilot, dialog)
        assert app.screen is dialog and "exists: Export again to replace it" in message(dialog)
        assert existing.read_text() == "keep me\n"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")
        assert len(existing.read_text().splitlines()) == 11


async def test_a_named_pipe_is_refused_at_once_and_the_dashboard_goes_on(
    client: WdsClient, clock: ManualClock, tmp_path: Path
) -> None:
    await produce_failures(client, clock)
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        await press_window(pilot, pane, "1 h")
        dialog = await open_export(pilot)
        await export_to(pilot, dialog, pipe)  # opened for writing, it would wait for a reader for ever
        await said(pilot, dialog)
        assert message(dialog) == f"{pipe} is not a regular file (a pipe, a device or a socket); nothing was written."
        assert app.screen is dialog and dialog.query_one("#export-path", Input).value == str(pipe)
        await pilot.press("ctrl+s")  # a second press does not make it a file to replace
        await pilot.pause()
        await said(pilot, dialog)
        assert "not a regular file" in message(dialog) and stat.S_ISFIFO(pipe.lstat().st_mode)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")


async def test_a_batchs_rows_export_as_csv(client: WdsClient, clock: ManualClock, tmp_path: Path) -> None:
    urls = ["https://acme-outdoor.com/", "https://acme-outdoor.com/old-pricing", "https://fernwood.co/"]
    started = await client.batch.create(urls)
    app = PaneHost(lambda: Static(""), navigator=Navigator(client, clock=frozen_clock(NOW)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = BatchStatusScreen(client, started.id, clock=frozen_clock(NOW), interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None, "the first look")
        clock.advance(3600)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        dialog = await open_export(pilot)
        await export_to(pilot, dialog, tmp_path / "batch.csv")
        await wait_until(pilot, lambda: app.screen is screen, "back on the batch")
        with (tmp_path / "batch.csv").open(newline="") as file:
            rows = list(csv.DictReader(file))
        assert screen.status is not None
        assert [row["url"] for row in rows] == [d.metadata.url or d.metadata.source_url for d in screen.status.data]
        results = {row["url"]: (row["http_status"], row["result"]) for row in rows}
        assert results == {
            "https://acme-outdoor.com/": ("200", "scraped"),
            "https://acme-outdoor.com/old-pricing": ("404", "failed"),
            "https://fernwood.co/": ("200", "scraped"),
        }


async def test_at_24_hours_the_page_on_screen_is_exported(client: WdsClient, tmp_path: Path) -> None:
    app = window_host(client)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await pane_ready(pilot)
        assert pane.data is not None and pane.data.page.next_cursor is not None  # more pages than this one
        dialog = await open_export(pilot)
        assert dialog.query_one("#export-path", Input).value == "activity-24h.csv"
        await export_to(pilot, dialog, tmp_path / "page.csv")
        await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")
        with (tmp_path / "page.csv").open(newline="") as file:
            rows = list(csv.DictReader(file))
        assert [row["id"] for row in rows] == [entry.id for entry in pane.data.page.entries]
