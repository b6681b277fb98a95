"""The curl form of a request: runnable wherever `WDS_API_KEY` is set, never carrying the key."""

from __future__ import annotations

import os
import shlex
import subprocess

from tui.dashboard.kit.curl import curl_command

KEY = "wds-0123456789abcdef0123456789abcdef"


def words_in_a_shell(text: str, key: str) -> list[str]:
    """The command's words after a POSIX shell has expanded it with `WDS_API_KEY=key`."""
    script = f'set -- {text.removeprefix("curl ")}\nfor word in "$@"; do printf "%s\\0" "$word"; done'
    env = {**os.environ, "WDS_API_KEY": key}
    done = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True, check=True)
    return ["curl", *done.stdout.split("\0")[:-1]]


def test_a_post_with_a_body_is_a_quoted_command_that_reads_the_key_from_the_environment() -> None:
    text = curl_command(
        "post", "https://api.example/", "/v2/scrape", body={"url": "https://x.test/it's", "formats": ["markdown"]}
    )
    assert KEY not in text and "…" not in text
    assert '"Authorization: Bearer $WDS_API_KEY"' in text
    words = words_in_a_shell(text, KEY)
    assert words[:4] == ["curl", "-X", "POST", "https://api.example/v2/scrape"]
    assert f"Authorization: Bearer {KEY}" in words
    assert words[words.index("-d") + 1] == '{"url":"https://x.test/it\'s","formats":["markdown"]}'
    assert "Content-Type: application/json" in words


def test_a_get_with_query_parameters_has_no_body() -> None:
    text = curl_command("GET", "http://127.0.0.1:3002", "/v2/crawl/abc", params={"limit": 1, "skip": None})
    words = shlex.split(text.replace("\\\n", " "))
    assert words[3] == "http://127.0.0.1:3002/v2/crawl/abc?limit=1"
    assert "-d" not in words
