"""Contexts in the config file (tui.dashboard.startup.contexts, tui.dashboard.startup.settings): chosen, listed masked, keys from a command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.dashboard.startup.settings import SettingsError, load_settings

PROD_KEY = "wds-0123456789abcdef0123456789abcdef"
STAGING_KEY = "wds-ffffffffffffffffffffffffffff1234"

CONTEXTS = f"""
current = "prod"

[contexts.prod]
base_url = "https://api.example.com"
api_key_command = "echo {PROD_KEY}"
read_only = true
refresh = 20

[contexts.staging]
base_url = "https://staging.example.com"
api_key = "{STAGING_KEY}"
"""


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "WDS_BASE_URL",
        "WDS_API_KEY",
        "WDS_TIMEOUT",
        "WDS_REFRESH",
        "WDS_WEBHOOK_LISTEN",
        "WDS_WEBHOOK_SECRET",
        "WDS_CONTEXT",
        "WDS_READ_ONLY",
        "WDS_API_KEY_COMMAND",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WDS_CONFIG", str(tmp_path / "absent.toml"))


def config(tmp_path: Path, text: str = CONTEXTS) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    os.chmod(path, 0o600)
    return path


def test_the_current_context_is_used_with_its_key_from_its_command(tmp_path: Path) -> None:
    settings, warnings = load_settings(config_path=config(tmp_path))
    assert warnings == []
    assert settings.context == "prod" and settings.base_url == "https://api.example.com"
    assert settings.api_key is not None and settings.api_key.get_secret_value() == PROD_KEY
    assert settings.read_only and settings.refresh == 20
    assert settings.context_names == ["prod", "staging", "local"]


def test_the_flag_beats_the_variable_which_beats_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = config(tmp_path)
    monkeypatch.setenv("WDS_CONTEXT", "staging")
    assert load_settings(config_path=path)[0].context == "staging"
    settings, _ = load_settings(config_path=path, context="prod")
    assert settings.context == "prod"
    staging, _ = load_settings(config_path=path, context="staging")
    assert staging.base_url == "https://staging.example.com" and not staging.read_only


def test_local_is_the_embedded_emulator_even_when_the_environment_names_a_service(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WDS_BASE_URL", "https://env.example.com")
    monkeypatch.setenv("WDS_API_KEY", STAGING_KEY)
    settings, _ = load_settings(config_path=config(tmp_path), context="local")
    assert settings.context == "local" and settings.uses_embedded_emulator


def test_a_context_switched_to_in_the_app_ignores_the_environment_that_named_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WDS_BASE_URL", "https://env.example.com")
    monkeypatch.setenv("WDS_API_KEY", STAGING_KEY)
    path = config(tmp_path)
    assert load_settings(config_path=path, context="staging")[0].base_url == "https://env.example.com"
    switched, _ = load_settings(config_path=path, context="staging", switching=True)
    assert switched.base_url == "https://staging.example.com"


def test_an_unknown_context_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"there is no context 'nope'; the contexts are: prod, staging, local"):
        load_settings(config_path=config(tmp_path), context="nope")


def test_two_contexts_and_none_current_asks_to_choose(tmp_path: Path) -> None:
    path = config(tmp_path, CONTEXTS.replace('current = "prod"', ""))
    with pytest.raises(SettingsError, match=r'none is current: add current = "NAME"'):
        load_settings(config_path=path)
    assert load_settings(config_path=path, context="staging")[0].context == "staging"


def test_a_single_context_needs_no_current(tmp_path: Path) -> None:
    path = config(tmp_path, f'[contexts.only]\nbase_url = "https://a.example.com"\napi_key = "{STAGING_KEY}"\n')
    assert load_settings(config_path=path)[0].context == "only"


def test_a_current_without_its_table_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"current = 'prd', but there is no \[contexts.prd\]"):
        load_settings(config_path=config(tmp_path, CONTEXTS.replace('current = "prod"', 'current = "prd"')))


def test_service_and_contexts_together_are_refused(tmp_path: Path) -> None:
    text = CONTEXTS + '\n[service]\nbase_url = "https://x.example.com"\n'
    with pytest.raises(SettingsError, match=r"both \[service\] and \[contexts\]"):
        load_settings(config_path=config(tmp_path, text))


def test_the_service_table_is_one_unnamed_context(tmp_path: Path) -> None:
    path = config(tmp_path, f'[service]\nbase_url = "https://a.example.com"\napi_key = "{STAGING_KEY}"\n')
    settings, _ = load_settings(config_path=path)
    assert settings.context is None and settings.base_url == "https://a.example.com"
    assert settings.context_names == ["local"]
    assert load_settings(config_path=path, context="local")[0].uses_embedded_emulator


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("echo oops >&2; exit 3", r"api_key_command of context 'prod' failed \(exit 3\): oops"),
        ("true", r"api_key_command of context 'prod' printed nothing"),
    ],
)
def test_a_key_command_that_fails_says_how(tmp_path: Path, command: str, said: str) -> None:
    path = config(tmp_path, CONTEXTS.replace(f"echo {PROD_KEY}", command.replace('"', '\\"')))
    with pytest.raises(SettingsError, match=said):
        load_settings(config_path=path)


def test_the_key_command_runs_only_for_the_context_used(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = config(tmp_path, CONTEXTS.replace(f"echo {PROD_KEY}", f"touch {marker}; echo {PROD_KEY}"))
    load_settings(config_path=path, context="staging")
    assert not marker.exists()
    load_settings(config_path=path)
    assert marker.exists()


def test_the_list_of_contexts_masks_keys_and_marks_the_one_in_use(tmp_path: Path) -> None:
    settings, _ = load_settings(config_path=config(tmp_path), context="staging")
    listed = settings.describe_contexts()
    assert PROD_KEY not in listed and STAGING_KEY not in listed
    assert listed.splitlines() == [
        "  prod         https://api.example.com · key from: echo … read-only",
        "* staging      https://staging.example.com · key …1234",
        "  local        the embedded local emulator · a fresh key each run",
    ]
    assert "context:  staging" in settings.describe()


def test_read_only_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WDS_READ_ONLY", "1")
    settings, _ = load_settings(config_path=config(tmp_path), context="staging")
    assert settings.read_only
