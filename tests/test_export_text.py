"""The export's text (tui.dashboard.kit.export): CSV safe for spreadsheets, JSON lines, file errors in words."""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import stat
from pathlib import Path

import pytest

from tui.dashboard.kit.export import ExportTable, csv_text, jsonl_text, with_suffix
from tui.dashboard.kit.export_file import ExportError, ExportExists, write_export

HOSTILE = ('=HYPERLINK("http://evil")', "+1+1", "-2+3", "@SUM(A1)", "a\x1b[31mred\tb\r\nc", "plain")


def table(*values: str) -> ExportTable:
    return ExportTable("t", "T", ("value", "count"), tuple({"value": v, "count": -i} for i, v in enumerate(values)))


def test_csv_cells_cannot_start_a_formula_or_carry_control_characters() -> None:
    rows = list(csv.reader(io.StringIO(csv_text(table(*HOSTILE)))))
    assert rows[0] == ["value", "count"]
    values = [row[0] for row in rows[1:]]
    assert values == ['\'=HYPERLINK("http://evil")', "'+1+1", "'-2+3", "'@SUM(A1)", "a [31mred b  c", "plain"]
    assert [row[1] for row in rows[1:]] == ["0", "-1", "-2", "-3", "-4", "-5"]  # numbers stay numbers


def test_json_lines_keep_every_value_as_it_was() -> None:
    records = [json.loads(line) for line in jsonl_text(table(*HOSTILE)).splitlines()]
    assert [r["value"] for r in records] == list(HOSTILE)
    assert "\x1b" not in jsonl_text(table(*HOSTILE))  # escaped as \u001b, never raw


def test_a_formula_behind_spaces_tabs_or_controls_is_prefixed_too() -> None:
    hidden = (" =cmd", "  +1", "\t=cmd", "\r@SUM(A1)", "\x1b-2", "\u00a0=cmd", "\tplain", "\rplain", " plain")
    values = [row[0] for row in list(csv.reader(io.StringIO(csv_text(table(*hidden)))))[1:]]
    assert values == ["' =cmd", "'  +1", "' =cmd", "' @SUM(A1)", "' -2", "'\u00a0=cmd", "' plain", "' plain", " plain"]


@pytest.mark.parametrize("char", ["\x7f", "\x9b", "\x85", "\u2028", "\u2029"])
def test_json_lines_escape_del_c1_controls_and_line_separators(char: str) -> None:
    text = jsonl_text(table(f"a{char}[31mb"))
    assert char not in text
    assert text.isascii() and f"\\u{ord(char):04x}" in text
    assert json.loads(text.splitlines()[0])["value"] == f"a{char}[31mb"


def test_the_suffix_follows_the_format() -> None:
    assert with_suffix("out/activity.csv", "jsonl") == "out/activity.jsonl"
    assert with_suffix("out/activity.jsonl", "csv") == "out/activity.csv"
    assert with_suffix("notes.txt", "csv") == "notes.txt"


def test_write_errors_are_said_in_words(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        write_export(str(tmp_path / "nope" / "a.csv"), "x")
    with pytest.raises(ExportError, match="is a folder"):
        write_export(str(tmp_path), "x")
    with pytest.raises(ExportError, match="Give a file name"):
        write_export("  ", "x")
    assert write_export(str(tmp_path / "a.csv"), "x\n").read_text() == "x\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_without_permission_is_said(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ExportError, match="No permission to write"):
            write_export(str(locked / "a.csv"), "x")
    finally:
        locked.chmod(0o700)


def test_a_pipe_a_symbolic_link_and_an_existing_file_are_not_written_unasked(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    with pytest.raises(ExportError, match="is not a regular file"):
        write_export(str(pipe), "x", replace=True)  # at once: nothing opens the pipe
    kept = tmp_path / "kept.csv"
    kept.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(kept)
    with pytest.raises(ExportError, match="is a symbolic link"):
        write_export(str(link), "new\n", replace=True)
    with pytest.raises(ExportExists, match="exists: Export again to replace it"):
        write_export(str(kept), "new\n")
    assert kept.read_text() == "old\n" and link.is_symlink()
    kept.chmod(0o640)
    assert write_export(str(kept), "new\n", replace=True).read_text() == "new\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640  # the replaced file's permissions stay
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv", "link.csv", "pipe.csv"]  # no temp file left


def test_a_write_that_fails_half_way_leaves_the_old_file_whole(tmp_path: Path) -> None:
    kept = tmp_path / "kept.csv"
    kept.write_text("old row\n" * 1000)
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    # A file size limit: the write fails half way with EFBIG (Python ignores SIGXFSZ), as on a full disk.
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, limit[1]))
    try:
        with pytest.raises(ExportError, match="Could not write .*nothing was written"):
            write_export(str(kept), "new row\n" * 100_000, replace=True)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
    assert kept.read_text() == "old row\n" * 1000
    assert [p.name for p in tmp_path.iterdir()] == ["kept.csv"]  # the half-written file is gone
