"""The curl form of a request: runnable once the key is put back, never carrying the key."""

from __future__ import annotations

import shlex

from tui.contract.redact import mask_key
from tui.dashboard.kit.curl import curl_command

KEY = "wds-0123456789abcdef0123456789abcdef"


def test_a_post_with_a_body_is_a_quoted_runnable_command_without_the_key() -> None:
    text = curl_command(
        "post",
        "https://api.example/",
        "/v2/scrape",
        key_hint=mask_key(KEY),
        body={"url": "https://x.test/it's", "formats": ["markdown"]},
    )
    assert KEY not in text and "…cdef" in text
    words = shlex.split(text.replace("\\\n", " "))
    assert words[:4] == ["curl", "-X", "POST", "https://api.example/v2/scrape"]
    assert words[words.index("-d") + 1] == '{"url":"https://x.test/it\'s","formats":["markdown"]}'
    assert "Content-Type: application/json" in words


def test_a_get_with_query_parameters_has_no_body() -> None:
    text = curl_command(
        "GET", "http://127.0.0.1:3002", "/v2/crawl/abc", key_hint="…0000", params={"limit": 1, "skip": None}
    )
    words = shlex.split(text.replace("\\\n", " "))
    assert words[3] == "http://127.0.0.1:3002/v2/crawl/abc?limit=1"
    assert "-d" not in words
