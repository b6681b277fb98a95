"""Issue 9: a caller's regular expression cannot freeze the emulator (RE2, never backtracking)."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.safe_regex import PATTERN_MAX_CHARS, PATTERNS_MAX, UnsafePattern, compile_user_pattern
from tui.emulator.jobs.params_preview import read_prompt
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = pytest.mark.serial

# The reproduction: exponential backtracking in `re` on any path without a "Z".
EVIL = "^(([a-z/-])+)+Z$"
EVIL_CRAWL = {"url": "https://lumen-labs.io/", "excludePaths": [EVIL], "limit": 50}


def test_a_backtracking_pattern_matches_in_linear_time() -> None:
    pattern = compile_user_pattern(EVIL)
    started = time.monotonic()
    assert pattern.search("/" + "a" * 100_000) is None
    assert time.monotonic() - started < 1.0  # `re` needs longer than the age of the universe


@pytest.mark.parametrize("pattern", [r"(a)\1", "(?=blog)", "(?<!x)y", "(", "a" * (PATTERN_MAX_CHARS + 1)])
def test_patterns_re2_cannot_run_safely_are_refused(pattern: str) -> None:
    with pytest.raises(UnsafePattern):
        compile_user_pattern(pattern)


@pytest.mark.socket
def test_the_evil_crawl_answers_at_once_and_others_are_served(emulator: Emulator, clock: ManualClock) -> None:
    with ServerThread(emulator) as base_url:

        def bad() -> httpx.Response:
            return httpx.post(f"{base_url}/v2/crawl", json=EVIL_CRAWL, headers=auth(ALPHA_KEY), timeout=10)

        latencies, crawl = activity_latencies_while(base_url, bad, lead_seconds=0.0)
        assert crawl.error is None and crawl.seconds is not None and crawl.seconds < 5
        assert crawl.result.status_code == 200, crawl.result.text
        assert_loop_free(latencies)
        # The crawl goes on: the pattern excludes nothing (no path ends in "Z").
        clock.advance(3600)
        status = httpx.get(crawl.result.json()["url"], headers=auth(ALPHA_KEY), timeout=10).json()
        assert status["status"] == "completed" and status["completed"] == status["total"] > 1


async def test_lookarounds_and_backreferences_answer_400_naming_the_pattern(client: httpx.AsyncClient) -> None:
    for field, patterns in (("excludePaths", ["^/blog", r"(a)\1"]), ("includePaths", ["(?=x)"])):
        response = await client.post(
            "/v2/crawl", json={"url": "https://lumen-labs.io/", field: patterns}, headers=auth(ALPHA_KEY)
        )
        body = response.json()
        assert response.status_code == 400 and body["success"] is False and body["code"] == "BAD_REQUEST"
        assert body["details"][0]["path"] == [field, len(patterns) - 1]
        assert "RE2" in body["error"]


async def test_too_many_patterns_answer_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/crawl",
        json={"url": "https://lumen-labs.io/", "includePaths": ["^/a"] * (PATTERNS_MAX + 1)},
        headers=auth(ALPHA_KEY),
    )
    assert response.status_code == 400 and f"at most {PATTERNS_MAX}" in response.json()["error"]


async def test_re2_keeps_the_usual_path_filters_working(client: httpx.AsyncClient) -> None:
    for field, patterns in (
        ("includePaths", [r"^/blog(/.*)?$", r"\d+", "(?i)BLOG"]),
        ("excludePaths", ["^/careers(/.*)?$", "[^a-z]legal"]),
    ):
        response = await client.post(
            "/v2/crawl", json={"url": "https://lumen-labs.io/", field: patterns}, headers=auth(ALPHA_KEY)
        )
        assert response.status_code == 200, response.text


@pytest.mark.socket
def test_a_prompt_of_ten_thousand_digits_is_read_at_once_and_others_are_served(emulator: Emulator) -> None:
    # `re` tried every position of the digit run for a number followed by "levels": 13 s on the loop.
    body = {"url": "https://lumen-labs.io/", "prompt": "1" * 9999}
    with ServerThread(emulator) as base_url:

        def bad() -> httpx.Response:
            return httpx.post(f"{base_url}/v2/crawl/params-preview", json=body, headers=auth(ALPHA_KEY), timeout=30)

        latencies, preview = activity_latencies_while(base_url, bad, lead_seconds=0.0)
        assert preview.error is None and preview.result.status_code == 200
        assert preview.seconds is not None and preview.seconds < 5
        assert_loop_free(latencies)


@pytest.mark.parametrize(
    "prompt",
    [
        "1" * 9999,
        "skip the blog and docs or " * 380,
        "only blog, " * 900,
        "as a" + "-" * 9990,
        "only " + "/a" * 4990 + " and",
    ],
)
def test_worst_prompts_are_read_in_milliseconds(prompt: str) -> None:
    started = time.monotonic()
    read_prompt("https://lumen-labs.io/", prompt[:10_000])
    assert time.monotonic() - started < 1.0  # each took 0.2 to 13 s with `re`


def test_prompt_reading_still_finds_every_parameter() -> None:
    params = read_prompt(
        "https://a.io/",
        "Crawl only the blog and docs, at most one hundred pages, depth 3, "
        "skip careers & legal or /café, as MyBot/1.0 with delay 500 ms",
    )
    assert params["includePaths"] == ["^/blog(/.*)?$", "^/docs(/.*)?$"]
    assert params["excludePaths"] == ["^/careers(/.*)?$", "^/legal(/.*)?$", "^/café(/.*)?$"]
    assert (params["limit"], params["maxDepth"], params["delay"], params["robotsUserAgent"]) == (
        100,
        3,
        0.5,
        "MyBot/1.0",
    )


def test_prompt_reading_keeps_pythons_unicode_word_rules() -> None:
    # "é" is a letter, so "cafésubdomains" holds no word "subdomains"; "٣" is a digit.
    params = read_prompt("https://a.io/", "only /cafésubdomains, depth ٣, or ébot \ud800 as crawlé-bot")
    assert params["allowSubdomains"] is False and params["maxDepth"] == 3
    assert params["includePaths"] == ["^/cafésubdomains(/.*)?$"] and params["robotsUserAgent"] == "crawlé-bot"
