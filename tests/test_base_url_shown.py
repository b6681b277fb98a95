"""A base URL is never shown with what may hold a secret: userinfo, query, fragment (issue 18, 6).

Where a base URL is shown: the message refusing it (config file, environment,
flag; `config`, `check` and the dashboard read settings alike), `wds-tui
config` (other contexts' tables are not checked until chosen), `check`'s
first line, and the context picker's reason when a switch fails. The header,
banner and connection screen show the URL of settings already accepted,
which cannot carry any of the three.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support.dashboard import SwitchableTransport, dashboard, seeded_emulator, wait_until
from tui.contract.redact import mask_url
from tui.dashboard.startup import cli
from tui.dashboard.startup.context_picker import ContextPickerScreen
from tui.dashboard.startup.contexts import ContextSwitch
from tui.dashboard.startup.settings import SettingsError, load_settings

KEY = "wds-0123456789abcdef0123456789abcdef"
SECRET = "s3cr3t-0123456789-ABCD"
# each holds SECRET where a URL may carry one; each is refused as a base URL
SECRET_URLS = [
    f"https://api.example.com/?key={SECRET}",
    f"https://api.example.com/v2?token=x&key={SECRET}#top",
    f"https://api.example.com/#{SECRET}",
    f"https://user:{SECRET}@api.example.com",
    f"https://user:pa?ss{SECRET}@api.example.com",  # a `?` typed in a password
    f"api.example.com/?key={SECRET}",  # no scheme
]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("WDS_BASE_URL", "WDS_API_KEY", "WDS_CONTEXT", "WDS_API_KEY_COMMAND"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WDS_CONFIG", str(tmp_path / "absent.toml"))


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"https://api.example.com/?key={SECRET}", "https://api.example.com/?…ABCD"),
        (f"https://u:{SECRET}@api.example.com/v2?a=1#{SECRET}", "https://…ABCD@api.example.com/v2?…#…ABCD"),
        ("https://api.example.com/v2", "https://api.example.com/v2"),
        ("https://api.example.com/team@x", "https://api.example.com/team@x"),  # an `@` in the path is no userinfo
        ("http://[::1", "http://[::1"),
    ],
)
def test_mask_url_keeps_host_and_path_and_masks_the_rest(url: str, shown: str) -> None:
    assert mask_url(url) == shown


@pytest.mark.parametrize("url", SECRET_URLS)
def test_a_refused_base_url_in_the_config_file_or_environment_is_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'base_url = "{url}"\napi_key = "{KEY}"\n')
    with pytest.raises(SettingsError) as from_file:
        load_settings(config_path=path)
    monkeypatch.setenv("WDS_BASE_URL", url)
    monkeypatch.setenv("WDS_API_KEY", KEY)
    with pytest.raises(SettingsError) as from_env:
        load_settings()
    for caught in (from_file, from_env):
        message = str(caught.value)
        assert "base_url" in message and "api.example.com" in message
        assert SECRET not in message and "ABCD" in message  # masked as a key is: its last four shown


@pytest.mark.parametrize("command", ["config", "check"])
@pytest.mark.parametrize("url", SECRET_URLS[:4])
def test_a_refused_base_url_given_as_a_flag_is_masked(
    capsys: pytest.CaptureFixture[str], url: str, command: str
) -> None:
    assert cli.main(["--base-url", url, "--api-key", KEY, command]) == 2
    said = capsys.readouterr()
    assert "base_url" in said.err and SECRET not in said.err + said.out


def _contexts_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        'current = "prod"\n'
        f'[contexts.prod]\nbase_url = "https://api.example.com"\napi_key = "{KEY}"\n'
        f'[contexts.leaky]\nbase_url = "https://leaky.example.com/?key={SECRET}"\napi_key = "{KEY}"\n'
    )
    return path


def test_config_lists_another_contexts_url_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WDS_CONFIG", str(_contexts_file(tmp_path)))
    assert cli.main(["config"]) == 0
    out = capsys.readouterr().out
    assert "leaky        https://leaky.example.com/?…ABCD · key …cdef" in out
    assert SECRET not in out


async def test_switching_to_a_context_whose_url_holds_a_secret_says_why_masked(tmp_path: Path) -> None:
    load = partial(load_settings, config_path=_contexts_file(tmp_path))
    emulator = seeded_emulator()
    app = dashboard(emulator, SwitchableTransport(emulator))
    app.contexts = ContextSwitch(["prod", "leaky", "local"], "prod", lambda name: load(context=name))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await wait_until(pilot, lambda: isinstance(app.screen, ContextPickerScreen), "the picker")
        await pilot.press("down", "enter")
        problem = app.screen.query_one("#context-problem", Static)
        await wait_until(pilot, lambda: "Cannot switch" in str(problem.render()), "the reason")
        shown = str(problem.render())
    assert "leaky.example.com/?…ABCD" in shown.replace("\n", "") and SECRET not in shown.replace("\n", "")
