"""`wds-tui watch`'s flags: each refusal one line on stderr and exit status 2, before anything starts;
a --metrics host other than loopback needs --allow-remote, as `serve`'s --host does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.processes import REPO
from tests.watch.watch_process import environment, write_config
from tui.dashboard.startup import cli
from tui.dashboard.startup.watch_command import WatchRefused, metrics_address

CONFIG = 'current = "a"\n\n[contexts.a]\nbase_url = "https://a.example.com"\n\n[contexts.b]\nbase_url = "https://b.example.com"\n'


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, value in environment(tmp_path).items():
        monkeypatch.setenv(name, value)
    return write_config(tmp_path, CONFIG)


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--metrics", "0.0.0.0:9464"], "--metrics 0.0.0.0 would let anyone who reaches it read"),
        (["--metrics", "[::]:9464"], "add --allow-remote"),
        (["--metrics", "monitoring.example.com:9464"], "add --allow-remote"),
        (["--metrics", "9464x"], "give [HOST:]PORT"),
        (["--metrics", "127.0.0.1:70000"], "give [HOST:]PORT"),
        (["--context", "a,,b"], "context names separated by commas"),
        (["--context", "a,a"], "a context is named twice"),
        (["--context", "a,b", "--base-url", "https://c.example.com"], "each context's table names its own"),
        (["--context", "nope"], "nope"),
        (["--log-file", "/nonexistent-dir/watch.jsonl"], "--log-file /nonexistent-dir/watch.jsonl"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_a_flag_that_cannot_be_used_is_one_line_and_exit_2(
    config: Path, capsys: pytest.CaptureFixture[str], flags: list[str], words: str
) -> None:
    assert cli.main(["watch", *flags]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("wds-tui: ") and words in line


def test_argparses_own_refusals_are_one_line_too(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["watch", "--metrics"])
    assert exited.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "--metrics" in line and "expected one argument" in line


def test_the_metrics_address_loopback_by_default_and_remote_only_when_allowed() -> None:
    assert metrics_address("9464", allow_remote=False) == ("127.0.0.1", 9464)
    assert metrics_address("localhost:9100", allow_remote=False) == ("localhost", 9100)
    assert metrics_address("[::1]:9464", allow_remote=False) == ("::1", 9464)
    assert metrics_address("0.0.0.0:9464", allow_remote=True) == ("0.0.0.0", 9464)
    with pytest.raises(WatchRefused, match="--allow-remote"):
        metrics_address("10.0.0.5:9464", allow_remote=False)


def test_watch_without_metrics_never_loads_prometheus_client() -> None:
    probe = (
        "import sys, tui.dashboard.startup.cli, tui.dashboard.startup.watch_command, tui.monitor.watch.run, "
        "tui.monitor.watch.poller; print('prometheus_client' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.strip() == "False"
