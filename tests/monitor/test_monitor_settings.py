"""A context's [alerts] and [journal] tables as the config file gives them, and `wds-tui config` listing them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tui.dashboard.startup import cli
from tui.dashboard.startup.settings import load_settings
from tui.monitor.settings import MEGABYTE, read_monitor_settings

README = Path(__file__).resolve().parents[2] / "README.md"
KEY = "fc-0123456789abcdef"


def readme_journal_example() -> object:
    section = README.read_text().split("## The journal", 1)[1]
    toml = section.split("```toml\n", 1)[1].split("```", 1)[0]
    return tomllib.loads(toml)["contexts"]["prod"]["journal"]


def test_the_readmes_journal_example_reads_without_a_warning() -> None:
    settings, warnings = read_monitor_settings(None, readme_journal_example())
    assert warnings == []
    assert settings.retention.days == 30
    assert settings.retention.size_cap_bytes == 100 * MEGABYTE


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    path.chmod(0o600)
    return path


def test_each_context_has_its_own_rules_delivery_and_journal(tmp_path: Path) -> None:
    path = config_file(
        tmp_path,
        f"""
current = "prod"
[contexts.prod]
base_url = "https://api.example.com"
api_key = "{KEY}"
[contexts.prod.alerts.job_failed]
count = 1
[contexts.prod.alerts.delivery]
bell = false
[contexts.prod.journal]
retention_days = 7
[contexts.staging]
base_url = "https://staging.example.com"
api_key = "{KEY}"
""",
    )
    prod, warnings = load_settings(config_path=path, environ={})
    assert warnings == []
    rules = {rule.kind: rule for rule in prod.monitoring.rules}
    assert rules["job_failed"].count == 1  # type: ignore[attr-defined]
    assert prod.monitoring.delivery.bell is False
    assert prod.monitoring.retention.days == 7
    staging, _ = load_settings(config_path=path, context="staging", environ={})
    assert staging.monitoring.delivery.bell is True
    assert staging.monitoring.retention.days == 90
    assert prod.monitoring.journal_file("prod") != staging.monitoring.journal_file("staging")


def test_a_bad_alerts_table_is_a_warning_not_a_refused_start(tmp_path: Path) -> None:
    path = config_file(tmp_path, f'base_url = "https://api.example.com"\napi_key = "{KEY}"\nalerts = 5\n')
    settings, warnings = load_settings(config_path=path, environ={})
    assert any(warning.startswith("[alerts] must be a table") for warning in warnings)
    assert len(settings.monitoring.rules) == 10


def test_wds_tui_config_lists_the_rules_where_alerts_go_and_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = config_file(
        tmp_path,
        f"""
base_url = "https://api.example.com"
api_key = "{KEY}"
[alerts.crawl_stalled]
minutes = 20
[alerts.delivery]
webhooks = [{{ url = "https://hooks.slack.com/services/T0/B0/SECRETSECRET", form = "slack" }}]
""",
    )
    assert cli.main(["--config", str(path), "config"]) == 0
    out = capsys.readouterr().out
    assert "crawl_stalled: on  no new page for 20 min" in out
    assert "webhook https://hooks.slack.com/…CRET (slack)" in out
    assert "SECRETSECRET" not in out
    assert f"journal:  {tmp_path / 'state' / 'wds-tui' / 'journal' / 'default.sqlite3'}" in out
