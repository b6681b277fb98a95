"""The README's `wds-tui watch` section says what watch does: every metric it serves, its flags, its JSON events."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui.dashboard.startup import cli
from tui.monitor.watch.metrics import METRICS

README = Path(__file__).resolve().parents[2] / "README.md"


def section() -> str:
    return README.read_text().split("\n## wds-tui watch\n", 1)[1].split("\n## ", 1)[0]


def test_the_metrics_table_lists_every_metric_served_and_no_other() -> None:
    listed = re.findall(r"^\| `(wds_[a-z_]+)` \|", section(), re.MULTILINE)
    assert sorted(listed) == sorted(METRICS)


def test_every_flag_of_watch_is_in_the_section(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["watch", "--help"])
    own = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", capsys.readouterr().out))
    own -= {"--help", "--base-url", "--api-key", "--config", "--timeout", "--webhook-listen"}
    missing = sorted(flag for flag in own if f"`{flag}" not in section())
    assert not missing, f"flags of wds-tui watch the README does not mention: {missing}"


def test_every_event_the_log_writes_is_in_the_table() -> None:
    sources = (Path(__file__).resolve().parents[2] / "tui" / "monitor" / "watch").glob("*.py")
    written = {
        event for path in sources for event in re.findall(r'(?:write|"event")\(\s*"([a-z_]+)"', path.read_text())
    }
    written |= {"alert", "poll_ok", "poll_error"}
    table = set(re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", section(), re.MULTILINE))
    documented = {name for row in table for name in row if name}
    assert written <= documented, sorted(written - documented)
