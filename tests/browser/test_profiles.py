"""Profiles with a real browser: state written back by a saver survives into later sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser_pages import PagesBackend
from tui.emulator.browser.backend import ProfileBusy, ProfileSpec
from tui.emulator.browser.chromium import ChromiumBackend

pytestmark = pytest.mark.browser

READ_STATE = "[document.cookie, localStorage.getItem('note')]"


async def test_a_saved_cookie_and_local_storage_survive_into_a_new_session(backend: ChromiumBackend, site: str) -> None:
    saver = await backend.launch("s-save", ProfileSpec("team-1/shop", save_changes=True))
    outcome = await backend.execute(saver, f"await page.goto('{site}/set-cookie')\nawait page.title()", "python", 30)
    assert outcome.result == "cookie set", outcome.stderr
    await backend.close(saver, save_profile=True)
    assert backend.profiles.exists("team-1/shop")
    assert not saver.user_data_dir.exists()

    reader = await backend.launch("s-read", ProfileSpec("team-1/shop", save_changes=False))
    outcome = await backend.execute(
        reader, f"await page.goto('{site}/title/back'); await page.evaluate(\"{READ_STATE}\")", "node", 30
    )
    assert outcome.error is None, outcome.stderr
    assert outcome.result == '["flavour=oatmeal","kept"]'
    await backend.close(reader, save_profile=False)


async def test_a_loader_changes_nothing(backend: ChromiumBackend, site: str) -> None:
    loader = await backend.launch("s-load", ProfileSpec("fresh", save_changes=False))
    await backend.execute(loader, f"await page.goto('{site}/set-cookie')", "python", 30)
    await backend.close(loader, save_profile=True)  # asking to save does not make a loader a saver
    assert not backend.profiles.exists("fresh")

    later = await backend.launch("s-later", ProfileSpec("fresh", save_changes=True))
    outcome = await backend.execute(
        later, f"await page.goto('{site}/title/x'); await page.evaluate('document.cookie')", "node", 30
    )
    assert outcome.result == ""


async def test_one_saver_per_profile(backend: ChromiumBackend) -> None:
    first = await backend.launch("s-1", ProfileSpec("shared", save_changes=True))
    with pytest.raises(ProfileBusy):
        await backend.launch("s-2", ProfileSpec("shared", save_changes=True))
    assert "s-2" not in {h for h in backend._running}  # noqa: SLF001 - nothing half-started is left
    reader = await backend.launch("s-3", ProfileSpec("shared", save_changes=False))
    await backend.close(first, save_profile=True)
    second = await backend.launch("s-2", ProfileSpec("shared", save_changes=True))
    assert second.pid != first.pid
    await backend.close(reader, save_profile=False)


async def test_profiles_outlive_the_backend_when_given_a_directory(chromium: Path, tmp_path: Path, site: str) -> None:
    profiles = tmp_path / "profiles"
    for round_trip in range(2):
        backend = PagesBackend(chromium, profiles_dir=profiles, temp_parent=tmp_path)
        try:
            handle = await backend.launch("s", ProfileSpec("kept", save_changes=True))
            if round_trip == 0:
                await backend.execute(handle, f"await page.goto('{site}/set-cookie')", "python", 30)
            else:
                outcome = await backend.execute(
                    handle, f"await page.goto('{site}/title/x')\nawait page.evaluate('document.cookie')", "python", 30
                )
                assert outcome.result == "flavour=oatmeal"
            await backend.close(handle, save_profile=True)
        finally:
            await backend.shutdown()
    assert [p.name for p in tmp_path.iterdir()] == ["profiles"]
