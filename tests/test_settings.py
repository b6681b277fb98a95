"""Settings: flags over environment over the config file; the key never shown whole."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from tui.dashboard.startup.settings import SettingsError, load_settings

KEY = "wds-0123456789abcdef0123456789abcdef"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "WDS_BASE_URL",
        "WDS_API_KEY",
        "WDS_TIMEOUT",
        "WDS_REFRESH",
        "wds_api_key",
        "WDS_WEBHOOK_LISTEN",
        "WDS_WEBHOOK_SECRET",
        "WDS_CONTEXT",
        "WDS_READ_ONLY",
        "WDS_API_KEY_COMMAND",
        "WDS_RECENT_WINDOW",
    ):
        monkeypatch.delenv(name, raising=False)
    # Point the default config location at an empty place so a developer's own file is never read.
    monkeypatch.setenv("WDS_CONFIG", str(tmp_path / "absent.toml"))


def write_config(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    os.chmod(path, mode)
    return path


def test_nothing_configured_means_the_embedded_emulator() -> None:
    settings, warnings = load_settings()
    assert settings.uses_embedded_emulator
    assert warnings == []


def test_flags_beat_environment_which_beats_the_file(tmp_path, monkeypatch) -> None:
    path = write_config(tmp_path, f'base_url = "https://file.example"\napi_key = "{KEY}"\ntimeout = 5\n')
    monkeypatch.setenv("WDS_BASE_URL", "https://env.example")
    settings, _ = load_settings(config_path=path)
    assert settings.base_url == "https://env.example"
    assert settings.api_key.get_secret_value() == KEY
    assert settings.timeout == 5
    settings, _ = load_settings(config_path=path, base_url="https://flag.example/")
    assert settings.base_url == "https://flag.example"


def test_service_table_in_the_file_is_read(tmp_path) -> None:
    path = write_config(tmp_path, f'[service]\nbase_url = "https://svc.example/v2"\napi_key = "{KEY}"\n')
    settings, _ = load_settings(config_path=path)
    assert settings.base_url == "https://svc.example"


def test_key_is_masked_everywhere_it_is_shown(tmp_path) -> None:
    settings, _ = load_settings(base_url="https://svc.example", api_key=KEY)
    for text in (settings.describe(), repr(settings), str(settings), settings.masked_key):
        assert KEY not in text
    assert settings.masked_key == "…cdef"
    assert "…cdef" in settings.describe()


def test_config_readable_by_others_is_warned_about(tmp_path) -> None:
    path = write_config(tmp_path, f'api_key = "{KEY}"\n', mode=0o644)
    _, warnings = load_settings(config_path=path)
    assert any("chmod 600" in w for w in warnings)
    os.chmod(path, 0o600)
    _, warnings = load_settings(config_path=path)
    assert warnings == []


@pytest.mark.parametrize(
    ("url", "warned"),
    [
        ("http://api.example.com", True),
        ("https://api.example.com", False),
        ("http://127.0.0.1:8080", False),
        ("http://localhost:8080", False),
        ("http://[::1]:8080", False),
    ],
)
def test_plain_http_off_this_machine_is_warned_about(url: str, warned: bool) -> None:
    _, warnings = load_settings(base_url=url, api_key=KEY)
    assert any("unencrypted" in w for w in warnings) is warned


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"base_url": "ftp://x", "api_key": KEY}, "base_url"),
        ({"base_url": "not a url", "api_key": KEY}, "base_url"),
        ({"base_url": "https://svc.example"}, "no API key"),
        ({"base_url": "https://svc.example", "api_key": KEY, "timeout": 0}, "timeout"),
        ({"base_url": "https://svc.example", "api_key": "has space"}, "api_key"),
    ],
)
def test_bad_values_name_what_to_change(overrides: dict, needle: str) -> None:
    with pytest.raises(SettingsError, match=needle):
        load_settings(**overrides)


def test_broken_toml_and_missing_explicit_file_are_clear(tmp_path) -> None:
    path = write_config(tmp_path, "base_url = \n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_settings(config_path=path)
    with pytest.raises(SettingsError, match="does not exist"):
        load_settings(config_path=tmp_path / "nope.toml")


def test_unknown_keys_in_the_file_are_warned_about(tmp_path) -> None:
    path = write_config(tmp_path, 'colour = "red"\n')
    _, warnings = load_settings(config_path=path)
    assert any("colour" in w for w in warnings)


def test_refresh_interval_comes_from_flag_environment_or_file(tmp_path, monkeypatch) -> None:
    path = write_config(tmp_path, "refresh = 7\n")
    assert load_settings(config_path=path)[0].refresh == 7
    monkeypatch.setenv("WDS_REFRESH", "3")
    assert load_settings(config_path=path)[0].refresh == 3
    assert load_settings(config_path=path, refresh=2)[0].refresh == 2
    with pytest.raises(SettingsError, match="refresh"):
        load_settings(refresh=0.1)


def test_the_recent_window_comes_from_the_environment_or_the_file_default_one_hour(tmp_path, monkeypatch) -> None:
    from tui.dashboard.shell.sightings import RECENT_WINDOW

    settings, _ = load_settings()
    assert settings.recent_window == RECENT_WINDOW == timedelta(hours=1)  # the pane's own default is the same
    assert "finished crawls and batches stay 1 h in the crawls pane" in settings.describe()
    path = write_config(tmp_path, 'recent_window = "2h30m"\n')
    assert load_settings(config_path=path)[0].recent_window == timedelta(hours=2, minutes=30)
    monkeypatch.setenv("WDS_RECENT_WINDOW", "45m")
    assert load_settings(config_path=path)[0].recent_window == timedelta(minutes=45)
    monkeypatch.setenv("WDS_RECENT_WINDOW", "5400")  # a bare number is seconds, as timeout and refresh
    assert load_settings(config_path=path)[0].recent_window == timedelta(minutes=90)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("an hour", "recent_window: 'an hour' is not a duration: write it as 30m, 1h, 2h30m or a number of seconds"),
        ("25h", "recent_window: 25 h is out of range: from 1 min to 24 h"),
        ("30s", "recent_window: 30 s is out of range: from 1 min to 24 h"),
    ],
)
def test_a_bad_recent_window_is_one_clear_line(tmp_path, value: str, said: str) -> None:
    path = write_config(tmp_path, f'recent_window = "{value}"\n')
    with pytest.raises(SettingsError) as caught:
        load_settings(config_path=path)
    assert str(caught.value) == f"Invalid configuration: {said}"


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"base_url": "https://svc.example/api?x=1", "api_key": KEY}, "query"),
        ({"base_url": "https://svc.example", "api_key": "abc\x07def"}, "control characters"),
    ],
)
def test_what_the_client_would_refuse_is_refused_here_with_a_message(overrides: dict, needle: str) -> None:
    with pytest.raises(SettingsError, match=needle):
        load_settings(**overrides)


def test_the_environment_beats_the_file_whatever_the_case_of_its_names(tmp_path, monkeypatch) -> None:
    path = write_config(tmp_path, f'base_url = "https://file.example"\napi_key = "{KEY}"\n')
    other = "wds-" + "9" * 32
    monkeypatch.setenv("wds_api_key", other)
    settings, _ = load_settings(config_path=path)
    assert settings.api_key.get_secret_value() == other


def test_an_empty_environment_variable_counts_as_unset(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("WDS_TIMEOUT", "")
    assert load_settings()[0].timeout == 30
    path = write_config(tmp_path, "timeout = 5\n")
    assert load_settings(config_path=path)[0].timeout == 5


def test_a_directory_given_as_the_config_file_is_refused(tmp_path) -> None:
    with pytest.raises(SettingsError, match="Cannot read the config file .*directory"):
        load_settings(config_path=tmp_path)


@pytest.mark.parametrize("source", ["flag", "environment", "file"])
def test_credentials_in_the_base_url_are_refused_wherever_it_comes_from(tmp_path, monkeypatch, source) -> None:
    url = f"http://{KEY}@svc.example"
    path = write_config(tmp_path, f'base_url = "{url}"\napi_key = "{KEY}"\n' if source == "file" else "")
    if source == "environment":
        monkeypatch.setenv("WDS_BASE_URL", url)
    with pytest.raises(SettingsError, match="must not carry credentials") as caught:
        load_settings(config_path=path, base_url=url if source == "flag" else None, api_key=KEY)
    assert KEY not in str(caught.value)
    assert "WDS_API_KEY" in str(caught.value)  # where the key goes instead


def test_the_webhook_inbox_address_and_secret_come_from_flag_environment_or_file(tmp_path, monkeypatch) -> None:
    path = write_config(tmp_path, 'webhook_listen = "0.0.0.0:9001"\nwebhook_secret = "whsec-from-file"\n')
    settings, _ = load_settings(config_path=path)
    assert settings.webhook_listen == "0.0.0.0:9001"
    assert settings.webhook_secret is not None and settings.webhook_secret.get_secret_value() == "whsec-from-file"
    assert "whsec-from-file" not in settings.describe() and "listen on 0.0.0.0:9001" in settings.describe()
    monkeypatch.setenv("WDS_WEBHOOK_LISTEN", "8100")
    monkeypatch.setenv("WDS_WEBHOOK_SECRET", "whsec-from-env")
    settings, _ = load_settings(config_path=path)
    assert settings.webhook_listen == "127.0.0.1:8100"  # loopback unless a host is given
    assert settings.webhook_secret.get_secret_value() == "whsec-from-env"
    settings, _ = load_settings(config_path=path, webhook_listen="[::1]:8101")
    assert settings.webhook_listen == "[::1]:8101"


@pytest.mark.parametrize("value", ["http://x:80", "99999", "host.example:80"])
def test_a_bad_webhook_address_says_what_is_wrong(value: str) -> None:
    with pytest.raises(SettingsError, match="webhook_listen"):
        load_settings(webhook_listen=value)
