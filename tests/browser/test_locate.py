"""Finding a browser: the explicit choice wins and must be right; otherwise Debian's binary, then PATH."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.emulator.browser.backend import BrowserUnavailable, NoBrowserBackend
from tui.emulator.browser.chromium import ChromiumBackend, browser_backend_from_environment
from tui.emulator.browser.locate import find_chromium


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def _nowhere(name: str) -> None:
    return None


def test_env_var_that_points_nowhere_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(BrowserUnavailable, match="WDS_CHROMIUM=.*does not exist.*apt-get install chromium"):
        find_chromium({"WDS_CHROMIUM": str(tmp_path / "missing")}, which=_nowhere)


def test_env_var_that_is_not_executable_is_an_error(tmp_path: Path) -> None:
    plain = tmp_path / "chrome"
    plain.write_text("not a program")
    with pytest.raises(BrowserUnavailable, match="not an executable"):
        find_chromium({"WDS_CHROMIUM": str(plain)}, which=_nowhere)


def test_env_var_wins_over_everything(tmp_path: Path) -> None:
    chosen = _executable(tmp_path / "my-chrome")
    debian = _executable(tmp_path / "debian-chromium")
    assert find_chromium({"WDS_CHROMIUM": str(chosen)}, which=lambda n: "/usr/bin/x", debian_binary=debian) == chosen


def test_debian_binary_is_preferred_to_the_wrapper_on_path(tmp_path: Path) -> None:
    debian = _executable(tmp_path / "chromium")
    assert find_chromium({}, which=lambda name: "/usr/bin/chromium", debian_binary=debian) == debian


def test_path_is_searched_in_order(tmp_path: Path) -> None:
    found = find_chromium(
        {}, which=lambda name: f"/opt/{name}" if name == "google-chrome" else None, debian_binary=tmp_path / "absent"
    )
    assert found == Path("/opt/google-chrome")


def test_no_browser_says_how_to_install_one(tmp_path: Path) -> None:
    with pytest.raises(BrowserUnavailable) as caught:
        find_chromium({}, which=_nowhere, debian_binary=tmp_path / "absent")
    assert "apt-get install chromium" in str(caught.value)
    assert "WDS_CHROMIUM" in str(caught.value)


def test_backend_from_environment_without_a_browser_refuses_politely(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WDS_CHROMIUM", str(tmp_path / "missing"))
    backend = browser_backend_from_environment()
    assert isinstance(backend, NoBrowserBackend)
    assert backend.available is False
    assert "does not exist" in backend.unavailable_reason


def test_backend_from_environment_with_a_browser(chromium: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WDS_CHROMIUM", str(chromium))
    backend = browser_backend_from_environment()
    assert isinstance(backend, ChromiumBackend)
    assert backend.binary == chromium
