"""The `wds-tui` command's own start-up rules (the commands themselves are tested where they live)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tui import cli

KEY = "wds-0123456789abcdef0123456789abcdef"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("WDS_BASE_URL", "WDS_API_KEY", "WDS_TIMEOUT", "WDS_REFRESH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WDS_CONFIG", str(tmp_path / "absent.toml"))


def test_the_collector_is_held_during_start_up_and_back_on_for_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[bool] = []
    real = cli._settings_from
    monkeypatch.setattr(cli, "_settings_from", lambda args: (seen.append(gc.isenabled()), real(args))[1])
    assert cli.main(["--base-url", "https://api.example.com", "--api-key", KEY, "config"]) == 0
    assert seen == [False]  # held while settings and their models were built
    assert gc.isenabled()
    assert "…cdef" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--version"], ["--base-url", "nonsense", "config"], ["no-such-command"]])
def test_the_collector_is_back_on_whatever_way_the_command_ends(argv: list[str]) -> None:
    try:
        cli.main(argv)
    except SystemExit:
        pass
    assert gc.isenabled()
