"""The light look at the configuration that lets the embedded emulator start before the settings load."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tui.dashboard.startup import cli
from tui.dashboard.startup.config_path import names_no_service
from tui.dashboard.startup.settings import load_settings

KEY = "wds-0123456789abcdef0123456789abcdef"
SERVICE_FILE = f'[service]\nbase_url = "https://file.example"\napi_key = "{KEY}"\n'

# (flag, environment, config file text or None for no file)
CASES = {
    "nothing": (None, {}, None),
    "a file without a service": (None, {}, "timeout = 5\nrefresh = 2\n"),
    "an empty environment variable": (None, {"WDS_BASE_URL": "  "}, None),
    "a flag": ("https://flag.example", {"WDS_API_KEY": KEY}, None),
    "the environment": (None, {"WDS_BASE_URL": "https://env.example", "WDS_API_KEY": KEY}, None),
    "the environment in lower case": (None, {"wds_base_url": "https://env.example", "WDS_API_KEY": KEY}, None),
    "the file": (None, {}, SERVICE_FILE),
    "the file, top level": (None, {}, f'base_url = "https://file.example"\napi_key = "{KEY}"\n'),
    "a file that only mentions base_url in a comment": (None, {}, '# base_url = "https://x.example"\n'),
}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.upper().startswith("WDS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("WDS_CONFIG", str(tmp_path / "absent.toml"))


def _arrange(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], text: str | None) -> Path | None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    if text is None:
        return None
    path = tmp_path / "config.toml"
    path.write_text(text)
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("case", CASES)
def test_no_service_named_always_means_the_settings_pick_the_embedded_emulator(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flag, env, text = CASES[case]
    config = _arrange(tmp_path, monkeypatch, env, text)
    settings, _ = load_settings(config_path=config, base_url=flag)
    quick = names_no_service(flag, config, os.environ)
    if quick:
        assert settings.uses_embedded_emulator, "started early for a dashboard that will not use it"
    # Where nothing at all is configured, the early start must happen: that is its point.
    if case in ("nothing", "a file without a service", "an empty environment variable"):
        assert quick and settings.uses_embedded_emulator


def test_the_dashboard_gets_the_emulator_started_before_its_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.dashboard.startup import embedded_emulator as local_emulator

    events: list[str] = []

    class FakeEmulator:
        def __enter__(self) -> FakeEmulator:
            return self

        def __exit__(self, *exc: object) -> None:
            events.append("stopped")

    def start(**_: Any) -> FakeEmulator:
        events.append("started")
        return FakeEmulator()

    real_settings = cli._settings_from
    monkeypatch.setattr(local_emulator.LocalEmulator, "start", staticmethod(start))
    monkeypatch.setattr(cli, "_settings_from", lambda args: (events.append("settings"), real_settings(args))[1])

    def run(settings: object, started: object, **_: object) -> int:
        events.append(f"ran {type(started).__name__}")
        return 0

    monkeypatch.setattr("tui.dashboard.startup.launch.run_dashboard", run)
    assert cli.main([]) == 0
    assert events == ["started", "settings", "ran FakeEmulator", "stopped"]


def test_a_missing_config_file_given_by_flag_starts_nothing(tmp_path: Path) -> None:
    assert not names_no_service(None, tmp_path / "typo.toml", {})
    assert names_no_service(None, None, {"WDS_CONFIG": str(tmp_path / "absent.toml")})


def test_nothing_is_started_early_when_a_service_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.dashboard.startup import embedded_emulator as local_emulator

    monkeypatch.setattr(local_emulator.LocalEmulator, "start", staticmethod(lambda **_: pytest.fail("started")))
    monkeypatch.setattr(
        "tui.dashboard.startup.launch.run_dashboard", lambda settings, started, **_: 0 if started is None else 1
    )
    assert cli.main(["--base-url", "https://api.example.com", "--api-key", KEY]) == 0
