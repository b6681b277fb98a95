"""The `wds-tui` command's own start-up rules (the commands themselves are tested where they live)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tui.dashboard.startup import cli

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


def _modules_loaded_by(argv: list[str], tmp_path: Path) -> set[str]:
    """The modules a `wds-tui` command imported, from a fresh interpreter."""
    import json
    import subprocess
    import sys

    script = (
        "import json, sys\nfrom tui.dashboard.startup import cli\n"
        f"code = cli.main({argv!r})\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    env = {"HOME": str(tmp_path), "WDS_CONFIG": str(tmp_path / "absent.toml"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_commands_other_than_the_emulator_do_not_load_it(tmp_path: Path) -> None:
    loaded = _modules_loaded_by(["--base-url", "https://api.example.com", "--api-key", KEY, "config"], tmp_path)
    assert not {name for name in loaded if name.startswith(("tui.emulator", "uvicorn", "starlette", "textual"))}


def test_the_emulator_command_takes_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["emulator", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: wds-tui emulator") and "--latency" in out and "--seed" in out


def test_an_unknown_option_is_refused_with_the_commands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--base-url", "https://api.example.com", "config", "--port", "1"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --port 1" in capsys.readouterr().err


def test_nothing_configured_and_no_emulator_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.dashboard.startup import embedded_emulator as local_emulator

    monkeypatch.setattr(local_emulator, "missing_emulator_message", lambda: "the local emulator is not installed")
    assert cli.main([]) == 2
    assert cli.main(["emulator"]) == 2
    assert capsys.readouterr().err.splitlines() == ["wds-tui: the local emulator is not installed"] * 2


@pytest.mark.parametrize("command", ["check", "config"])
@pytest.mark.parametrize("via", ["flag", "environment"])
def test_a_key_in_the_base_url_is_refused_and_never_printed(
    command: str, via: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://{KEY}@127.0.0.1:9"
    argv = ["--base-url", url, command] if via == "flag" else [command]
    if via == "environment":
        monkeypatch.setenv("WDS_BASE_URL", url)
        monkeypatch.setenv("WDS_API_KEY", KEY)
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert "must not carry credentials" in err
    assert KEY not in out + err
