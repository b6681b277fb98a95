"""Saving a key typed on the connection screen into the config file, keeping the rest (tui.dashboard.startup.config_edit)."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

from tui.dashboard.startup.config_edit import save_api_key, with_api_key

KEY = "wds-" + "12" * 16


def test_a_context_table_gets_its_key_replaced_and_comments_survive() -> None:
    text = '# mine\ncurrent = "prod"\n\n[contexts.prod]\nbase_url = "https://a"  # prod\napi_key = "old"\n\n[contexts.dev]\napi_key = "dev"\n'
    out = with_api_key(text, "prod", KEY)
    assert "# mine" in out and "# prod" in out
    data = tomllib.loads(out)
    assert data["contexts"]["prod"]["api_key"] == KEY and data["contexts"]["dev"]["api_key"] == "dev"


def test_a_key_is_added_to_a_table_without_one_and_a_missing_table_is_created() -> None:
    text = '[contexts.prod]\nbase_url = "https://a"\napi_key_command = "pass show x"\n'
    assert tomllib.loads(with_api_key(text, "prod", KEY))["contexts"]["prod"]["api_key"] == KEY
    added = tomllib.loads(with_api_key(text, "staging", KEY))
    assert added["contexts"]["staging"] == {"api_key": KEY} and added["contexts"]["prod"]["base_url"] == "https://a"


def test_the_unnamed_context_is_the_service_table_or_the_top_level() -> None:
    service = '[service]\nbase_url = "https://a"\napi_key = "old"\n'
    assert tomllib.loads(with_api_key(service, None, KEY))["service"]["api_key"] == KEY
    flat = 'base_url = "https://a"\n\n[keys]\n"sessions.create" = "n"\n'
    data = tomllib.loads(with_api_key(flat, None, KEY))
    assert data["api_key"] == KEY and "api_key" not in data["keys"]


def test_the_file_is_written_for_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "wds" / "config.toml"
    save_api_key(path, None, KEY)
    assert tomllib.loads(path.read_text()) == {"api_key": KEY}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    save_api_key(path, "prod", KEY)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert list(tmp_path.joinpath("wds").iterdir()) == [path]  # no temporary file left behind
