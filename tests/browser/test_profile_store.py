"""Profile bookkeeping without a browser: directory names, the one-saver rule, saving back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.emulator.browser.backend import ProfileBusy
from tui.emulator.browser.profiles import ProfileStore, profile_dir_name


@pytest.mark.parametrize("name", ["../../etc", "team/alpha", "a" * 128, "ünïcödé ✓", ".", "CON", " spaces "])
def test_any_valid_name_becomes_one_safe_directory_name(name: str) -> None:
    dir_name = profile_dir_name(name)
    assert "/" not in dir_name and dir_name not in (".", "..")
    assert len(dir_name) <= 60
    assert dir_name == profile_dir_name(name)


def test_names_that_differ_only_in_unsafe_characters_do_not_collide() -> None:
    assert profile_dir_name("a/b") != profile_dir_name("a:b")
    assert profile_dir_name("Shop") != profile_dir_name("shop")


def test_an_empty_name_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        profile_dir_name("")


def test_a_team_scoped_key_longer_than_the_api_name_limit_is_accepted() -> None:
    key = "team-" + "0" * 32 + "/" + "n" * 128  # what the emulator passes for a 128-character name
    assert len(profile_dir_name(key)) <= 60


def test_one_saver_at_a_time_and_loaders_are_never_blocked(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles")
    store.check_out("shop", "s1", True, tmp_path / "w1")
    with pytest.raises(ProfileBusy, match="already in use"):
        store.check_out("shop", "s2", True, tmp_path / "w2")
    store.check_out("shop", "s3", False, tmp_path / "w3")
    store.release("shop", "s1")
    store.check_out("shop", "s2", True, tmp_path / "w2")
    assert store.saver_of("shop") == "s2"


def test_check_in_replaces_the_saved_state_and_drops_locks_and_caches(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles")
    first = tmp_path / "w1"
    store.check_out("shop", "s1", True, first)
    (first / "Default").mkdir()
    (first / "Default" / "Cookies").write_text("v1")
    (first / "SingletonLock").symlink_to("somehost-123")
    (first / "Cache").mkdir()
    store.check_in("shop", "s1", first)
    saved = store.path_for("shop")
    assert (saved / "Default" / "Cookies").read_text() == "v1"
    assert not (saved / "SingletonLock").is_symlink() and not (saved / "Cache").exists()
    assert not first.exists() and store.saver_of("shop") is None

    second = tmp_path / "w2"
    store.check_out("shop", "s2", True, second)
    (second / "Default" / "Cookies").write_text("v2")
    store.check_in("shop", "s2", second)
    assert (saved / "Default" / "Cookies").read_text() == "v2"
    assert sorted(p.name for p in store.root.iterdir()) == [saved.name]
