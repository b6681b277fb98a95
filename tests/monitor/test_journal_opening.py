"""Nothing about the file stops the dashboard: missing is created, corrupt is moved aside, unwritable keeps nothing."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tui.monitor.journal import ActivityRecord, Journal
from tui.monitor.journal.schema import SCHEMA_VERSION

NOW = 1_790_000_000.0
STAMP = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(NOW))


def kept_ids(path: Path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return [row[0] for row in connection.execute("SELECT id FROM activity ORDER BY id")]
    finally:
        connection.close()


async def write_one(journal: Journal, entry_id: str) -> None:
    journal.add(ActivityRecord(entry_id, "scrape", NOW))
    await journal.aclose()


async def test_a_missing_journal_is_created_with_its_folders(tmp_path: Path) -> None:
    path = tmp_path / "state" / "wds-tui" / "journal" / "prod.sqlite3"
    journal = Journal(path, clock=lambda: NOW)
    assert journal.disabled is None and journal.notice is None
    await write_one(journal, "a1")
    assert kept_ids(path) == ["a1"]
    connection = sqlite3.connect(path)
    pragmas = [connection.execute(f"PRAGMA {name}").fetchone()[0] for name in ("journal_mode", "auto_vacuum")]
    assert pragmas == ["wal", 2]  # 2: incremental, so retention can shrink the file
    assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    connection.close()


async def test_a_file_that_is_not_a_database_is_moved_aside_and_started_anew(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    path.write_bytes(b"this was never a database, " * 200)
    journal = Journal(path, clock=lambda: NOW)
    aside = tmp_path / f"prod.sqlite3.corrupt-{STAMP}"
    assert journal.disabled is None
    assert journal.notice is not None and "damaged" in journal.notice and aside.name in journal.notice
    assert aside.read_bytes() == b"this was never a database, " * 200
    await write_one(journal, "a1")
    assert kept_ids(path) == ["a1"]


async def test_a_database_whose_pages_are_damaged_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    journal = Journal(path, clock=lambda: NOW)
    for n in range(2000):
        journal.add(ActivityRecord(f"old-{n}", "scrape", NOW, target="https://example.com/" + "x" * 200))
    await journal.aclose()
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[page * 3 : page * 40] = b"\xff" * (page * 37)  # the header stays: it still opens as a database
    path.write_bytes(bytes(data))

    again = Journal(path, clock=lambda: NOW)
    assert again.disabled is None and again.notice is not None and "damaged" in again.notice
    assert (tmp_path / f"prod.sqlite3.corrupt-{STAMP}").exists()
    await write_one(again, "new")
    assert kept_ids(path) == ["new"]


async def test_a_folder_that_cannot_be_made_gives_a_disabled_journal_that_keeps_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    journal = Journal(blocker / "journal" / "prod.sqlite3", clock=lambda: NOW)
    assert journal.disabled is not None and "cannot be written" in journal.disabled.reason
    assert journal.notice == journal.disabled.reason
    journal.add(ActivityRecord("a1", "scrape", NOW))  # accepted and dropped, never raised
    await journal.flush()
    assert await journal.prune() == 0
    assert await journal.read(lambda history: history.calls_per_day(30)) == {}
    await journal.aclose()


async def test_a_path_that_sqlite_cannot_open_gives_a_disabled_journal(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    path.mkdir()  # a folder in the file's place
    journal = Journal(path, clock=lambda: NOW)
    assert journal.disabled is not None and str(path) in journal.disabled.reason
    assert path.is_dir() and list(tmp_path.iterdir()) == [path]  # nothing moved aside: the file is not at fault


async def test_a_journal_from_a_newer_version_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "prod.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    journal = Journal(path, clock=lambda: NOW)
    assert journal.disabled is not None and "newer wds-tui" in journal.disabled.reason
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prod.sqlite3"]


def as_a_user_who_cannot_write(script: str) -> subprocess.CompletedProcess[str]:
    """Run `script` in Python as an unprivileged user: root writes anywhere, so as root the test drops to nobody."""
    command = [sys.executable, "-c", script]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv to drop to an unprivileged user")
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


async def test_a_read_only_folder_gives_a_disabled_journal_and_leaves_the_file_alone(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wds-journal-"))  # not under tmp_path: another user must reach it
    try:
        path = folder / "prod.sqlite3"
        await write_one(Journal(path, clock=lambda: NOW), "kept")
        before = path.read_bytes()
        folder.chmod(0o555)
        path.chmod(0o444)
        script = (
            "import asyncio, pathlib\n"
            "from tui.monitor.journal import ActivityRecord, Journal\n"
            f"journal = Journal(pathlib.Path({str(path)!r}))\n"
            "journal.add(ActivityRecord('lost', 'scrape', 0.0))\n"
            "asyncio.run(journal.flush())\n"
            "print(journal.disabled.reason if journal.disabled else 'enabled')\n"
        )
        run = as_a_user_who_cannot_write(script)
        assert run.returncode == 0, run.stderr
        assert "cannot be written" in run.stdout and str(path) in run.stdout
        assert sorted(p.name for p in folder.iterdir()) == ["prod.sqlite3"] and path.read_bytes() == before
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_a_new_journal_and_its_folder_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal" / "prod.sqlite3"
    journal = Journal(path)
    journal.add(ActivityRecord("a", "scrape", 1.0))
    journal.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
