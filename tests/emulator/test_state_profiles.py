"""Saved browser profiles travel in the snapshot and are unpacked where a backend keeps profiles."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from tui.emulator.browser.backend import NoBrowserBackend
from tui.emulator.browser.profiles import ProfileStore
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator
from tui.emulator.state.snapshot import SnapshotReader, restore
from tui.emulator.state.values import SnapshotError


class ProfileKeepingBackend(NoBrowserBackend):
    """A backend that keeps saved profiles under `root` (and launches nothing: no session is opened here)."""

    available = True  # type: ignore[assignment]

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.profiles = ProfileStore(root)


def emulator_with_profiles(root: Path) -> Emulator:
    return Emulator.from_keys(
        {"acme": ["wds-" + "9c" * 16]}, clock=ManualClock(), history=False, browser_backend=ProfileKeepingBackend(root)
    )


def test_a_saved_profile_is_restored_file_for_file(tmp_path: Path) -> None:
    first = emulator_with_profiles(tmp_path / "first")
    saved = first.browser.backend.profiles.path_for("team/shop")  # type: ignore[attr-defined]
    (saved / "Default").mkdir(parents=True)
    (saved / "Default" / "Cookies").write_bytes(b"session=42")
    snapshot = json.loads(json.dumps(SnapshotReader(first).snapshot()))
    assert list(snapshot["parts"]["profiles"]) == [saved.name]

    second_root = tmp_path / "second"
    (second_root / "stale-profile").mkdir(parents=True)
    restore(emulator_with_profiles(second_root), snapshot)
    assert (second_root / saved.name / "Default" / "Cookies").read_bytes() == b"session=42"
    assert not (second_root / "stale-profile").exists()  # the snapshot's profiles are the profiles


def test_a_broken_profile_archive_is_refused_before_anything_changes(tmp_path: Path) -> None:
    service = emulator_with_profiles(tmp_path / "root")
    snapshot = SnapshotReader(service).snapshot()
    snapshot["parts"]["profiles"] = {"shop": {"tar_gz": base64.b64encode(b"not a tar").decode()}}
    before = SnapshotReader(service).snapshot()
    with pytest.raises(SnapshotError, match=r"profiles\['shop'\].tar_gz: not a base64 gzipped tar archive"):
        restore(service, snapshot)
    assert SnapshotReader(service).snapshot() == before


@pytest.mark.parametrize("name", ["x" * 300, "a\0b", "..", "."], ids=["300 bytes", "NUL", "dot-dot", "dot"])
def test_a_profile_name_no_directory_can_have_is_refused_before_anything_changes(tmp_path: Path, name: str) -> None:
    first = emulator_with_profiles(tmp_path / "first")
    saved = first.browser.backend.profiles.path_for("team/shop")  # type: ignore[attr-defined]
    (saved / "Default").mkdir(parents=True)
    snapshot = json.loads(json.dumps(SnapshotReader(first).snapshot()))
    snapshot["parts"]["profiles"][name] = snapshot["parts"]["profiles"][saved.name]

    root = tmp_path / "second"
    (root / "kept-profile").mkdir(parents=True)
    service = emulator_with_profiles(root)
    service.jobs._jobs.clear()
    before = SnapshotReader(service).snapshot()
    with pytest.raises(SnapshotError, match="not a profile directory's name"):
        restore(service, snapshot)
    assert SnapshotReader(service).snapshot() == before
    assert sorted(path.name for path in root.iterdir()) == ["kept-profile"]


def test_a_restore_leaves_no_staging_directory_behind(tmp_path: Path) -> None:
    first = emulator_with_profiles(tmp_path / "first")
    (first.browser.backend.profiles.path_for("team/shop") / "Default").mkdir(parents=True)  # type: ignore[attr-defined]
    snapshot = json.loads(json.dumps(SnapshotReader(first).snapshot()))
    root = tmp_path / "second"
    restore(emulator_with_profiles(root), snapshot)
    assert [path.name for path in root.iterdir()] == list(snapshot["parts"]["profiles"])
