"""Arguments outside the contract's limits fail before anything is sent, naming field and limit."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from tests.api.mock_service import JOB_ID, SESSION_ID, Recorder, json_response
from tui.api import errors
from tui.api.client import WdsClient
from tui.contract.requests import BrowserCreateRequest, ExecuteRequest, SupportAskRequest

Call = Callable[[WdsClient, Any], Awaitable[Any]]

OK_BODIES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", r"/v2/support/docs-search", {"answer": "a", "evidence": []}),
    ("POST", r"/v2/support/ask", {"requestId": "r", "answer": "a", "confidence": "high", "durationMs": 1}),
    ("POST", r"/v2/browser/[^/]+/execute", {"success": True, "stdout": "2", "exitCode": 0}),
    ("POST", r"/v2/browser", {"success": True, "id": SESSION_ID, "cdpUrl": "wss://x/cdp/1?token=t"}),
    ("GET", r"/v2/browser", {"success": True, "sessions": []}),
    ("POST", r"/v2/scrape/[^/]+/interact", {"success": True, "stdout": "", "exitCode": 0}),
    ("POST", r"/v2/batch/scrape", {"success": True, "id": JOB_ID, "url": "http://x/v2/batch/scrape/1"}),
    ("POST", r"/v2/map", {"success": True, "links": []}),
    ("GET", r"/v2/team/activity", {"success": True, "data": [], "cursor": None, "has_more": False}),
    ("POST", r"/v2/crawl/params-preview", {"success": True, "data": {}}),
    ("GET", r"/v2/crawl/[^/]+", {"success": True, "status": "scraping", "completed": 0, "total": 0, "data": []}),
]


def answer_ok(request: httpx.Request) -> httpx.Response:
    for method, pattern, body in OK_BODIES:
        if request.method == method and re.fullmatch(pattern, request.url.raw_path.decode().split("?")[0]):
            return json_response(200, body)
    raise AssertionError(f"no canned answer for {request.method} {request.url.path}")


# (id, call, wire field, values just inside, (value just outside, limit the message must quote)...)
BOUNDARIES: list[tuple[str, Call, str, list[Any], list[tuple[Any, str]]]] = [
    (
        "docs question",
        lambda c, v: c.support.docs_search(v),
        "question",
        ["x", "x" * 8000],
        [("", "at least 1"), ("x" * 8001, "at most 8000")],
    ),
    (
        "ask question",
        lambda c, v: c.support.ask(v),
        "question",
        ["x", "x" * 8000],
        [("", "at least 1"), ("x" * 8001, "at most 8000")],
    ),
    (
        "ask rationale",
        lambda c, v: c.support.ask("q", rationale=v),
        "rationale",
        ["r", "r" * 2000],
        [("", "at least 1"), ("r" * 2001, "at most 2000")],
    ),
    (
        "ttl",
        lambda c, v: c.browser.create(ttl=v),
        "ttl",
        [30, 3600],
        [(29, "greater than or equal to 30"), (3601, "less than or equal to 3600")],
    ),
    (
        "activityTtl",
        lambda c, v: c.browser.create(ttl=60, activity_ttl=v),
        "activityTtl",
        [10, 3600],
        [(9, "greater than or equal to 10"), (3601, "less than or equal to 3600")],
    ),
    (
        "profile name",
        lambda c, v: c.browser.create(ttl=60, profile={"name": v}),
        "profile.name",
        ["p", "p" * 128],
        [("", "at least 1"), ("p" * 129, "at most 128")],
    ),
    (
        "browser status",
        lambda c, v: c.browser.list(status=v),
        "status",
        ["active", "destroyed"],
        [("running", "'active' or 'destroyed'")],
    ),
    (
        "execute code",
        lambda c, v: c.browser.execute(SESSION_ID, code=v),
        "code",
        ["1", "1" * 100_000],
        [("", "at least 1"), ("1" * 100_001, "at most 100000")],
    ),
    (
        "execute timeout",
        lambda c, v: c.browser.execute(SESSION_ID, code="1", timeout=v),
        "timeout",
        [1, 300],
        [(0, "greater than or equal to 1"), (301, "less than or equal to 300")],
    ),
    (
        "execute language",
        lambda c, v: c.browser.execute(SESSION_ID, code="1", language=v),
        "language",
        ["python", "node", "bash"],
        [("ruby", "'python', 'node' or 'bash'")],
    ),
    (
        "interact code",
        lambda c, v: c.scrape.interact(JOB_ID, code=v),
        "code",
        ["1", "1" * 100_000],
        [("", "at least 1"), ("1" * 100_001, "at most 100000")],
    ),
    (
        "interact prompt",
        lambda c, v: c.scrape.interact(JOB_ID, prompt=v),
        "prompt",
        ["p", "p" * 10_000],
        [("", "at least 1"), ("p" * 10_001, "at most 10000")],
    ),
    (
        "interact timeout",
        lambda c, v: c.scrape.interact(JOB_ID, code="1", timeout=v),
        "timeout",
        [1, 300],
        [(0.5, "greater than or equal to 1"), (300.5, "less than or equal to 300")],
    ),
    (
        "interact language",
        lambda c, v: c.scrape.interact(JOB_ID, code="1", language=v),
        "language",
        ["bash"],
        [("perl", "'python', 'node' or 'bash'")],
    ),
    (
        "batch timeout",
        lambda c, v: c.batch.create(["https://a.test"], timeout=v),
        "timeout",
        [1000, 300_000],
        [(999, "greater than or equal to 1000"), (300_001, "less than or equal to 300000")],
    ),
    ("batch urls", lambda c, v: c.batch.create(v), "urls", [["https://a.test"]], [([], "at least 1")]),
    (
        "batch proxy",
        lambda c, v: c.batch.create(["https://a.test"], proxy=v),
        "proxy",
        ["enhanced"],
        [("stealth", "'basic', 'enhanced' or 'auto'")],
    ),
    (
        "map limit",
        lambda c, v: c.map("https://a.test", limit=v),
        "limit",
        [1, 100_000],
        [(0, "greater than or equal to 1"), (100_001, "less than or equal to 100000")],
    ),
    (
        "map sitemap",
        lambda c, v: c.map("https://a.test", sitemap=v),
        "sitemap",
        ["skip", "only"],
        [("never", "'skip', 'include' or 'only'")],
    ),
    ("map url", lambda c, v: c.map(v), "url", ["https://a.test/x"], [("a.test", "http"), ("ftp://a.test", "http")]),
    (
        "activity limit",
        lambda c, v: c.team.activity(limit=v),
        "limit",
        [1, 100],
        [(0, "greater than or equal to 1"), (101, "less than or equal to 100")],
    ),
    (
        "activity endpoint",
        lambda c, v: c.team.activity(endpoint=v),
        "endpoint",
        ["batch_scrape", "interact"],
        [("crawls", "'batch_scrape'")],
    ),
    (
        "preview prompt",
        lambda c, v: c.crawl.params_preview("https://a.test", v),
        "prompt",
        ["p", "p" * 10_000],
        [("", "at least 1"), ("p" * 10_001, "at most 10000")],
    ),
    ("crawl skip", lambda c, v: c.crawl.get(JOB_ID, skip=v), "skip", [0], [(-1, "greater than or equal to 0")]),
    ("crawl limit", lambda c, v: c.crawl.get(JOB_ID, limit=v), "limit", [1], [(0, "greater than or equal to 1")]),
]


@pytest.mark.parametrize(
    ("call", "field", "inside", "outside"), [b[1:] for b in BOUNDARIES], ids=[b[0] for b in BOUNDARIES]
)
async def test_boundaries(
    client: WdsClient, recorder: Recorder, call: Call, field: str, inside: list[Any], outside: list[tuple[Any, str]]
) -> None:
    recorder.handler = answer_ok
    for value, limit in outside:
        with pytest.raises(errors.RequestValidationError) as caught:
            await call(client, value)
        assert recorder.requests == [], f"{field}={value!r:.40} was sent"
        message = caught.value.message
        assert f"{field}: " in message, message
        assert limit in message, message
        assert field in caught.value.fields
        assert len(message) < 600, "the rejected value is not echoed whole"
    for value in inside:
        await call(client, value)
    assert len(recorder.requests) == len(inside)


async def test_interact_needs_exactly_one_of_code_or_prompt(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(errors.RequestValidationError, match="Either 'code' or 'prompt' must be provided"):
        await client.scrape.interact(JOB_ID)
    with pytest.raises(errors.RequestValidationError, match="exactly one of 'code' or 'prompt'"):
        await client.scrape.interact(JOB_ID, code="1", prompt="click")
    assert recorder.requests == []


async def test_required_argument_missing(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(errors.RequestValidationError, match="question: Field required"):
        await client.support.ask()
    assert recorder.requests == []


@pytest.mark.parametrize("bad", ["", "not-a-uuid", "../../v2/team/activity"])
async def test_job_ids_must_be_uuids(client: WdsClient, recorder: Recorder, bad: str) -> None:
    for call in (
        client.scrape.get,
        client.crawl.get,
        client.batch.get,
        client.extract.get,
        client.scrape.stop_interaction,
    ):
        with pytest.raises(errors.RequestValidationError, match="jobId"):
            await call(bad)
    assert recorder.requests == []


async def test_session_id_is_escaped_in_the_path(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = answer_ok
    await client.browser.execute("a/b?c", code="1")
    assert recorder.last.url.raw_path == b"/v2/browser/a%2Fb%3Fc/execute"
    with pytest.raises(errors.RequestValidationError, match="sessionId"):
        await client.browser.delete("  ")


async def test_a_ready_request_model_is_accepted(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = answer_ok
    await client.browser.create(request=BrowserCreateRequest(ttl=120, activity_ttl=30))
    assert recorder.last_json() == {"ttl": 120, "activityTtl": 30}
    await client.support.ask(request=SupportAskRequest(question="why?", job_id=JOB_ID))
    assert recorder.last_json() == {"question": "why?", "jobId": JOB_ID}


async def test_a_ready_model_changed_after_construction_is_checked_again(client: WdsClient, recorder: Recorder) -> None:
    request = ExecuteRequest(code="1")
    request.timeout = 999  # no validate_assignment: pydantic let this through
    with pytest.raises(errors.RequestValidationError, match="timeout"):
        await client.browser.execute(SESSION_ID, request=request)
    assert recorder.requests == []


async def test_model_and_keywords_together_are_refused(client: WdsClient) -> None:
    with pytest.raises(TypeError, match="either request= or keyword arguments"):
        await client.browser.create(ttl=60, request=BrowserCreateRequest(ttl=60))


async def test_wrong_request_model_is_refused(client: WdsClient) -> None:
    with pytest.raises(TypeError, match="must be an instance of ExecuteRequest"):
        await client.browser.execute(SESSION_ID, request=BrowserCreateRequest(ttl=60))  # type: ignore[arg-type]


async def test_unknown_option_is_refused_not_dropped(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(TypeError, match="'only_main_contnet'"):
        await client.scrape.create("https://a.test", only_main_contnet=True)  # type: ignore[call-arg]  # the typo is the test
    assert recorder.requests == []


async def test_options_in_wire_spelling_are_accepted(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = answer_ok
    # Wire spelling is accepted at run time (pasted from the docs) but not typed: the TypedDicts hold Python names.
    await client.batch.create(
        ["https://a.test"],
        onlyMainContent=False,
        ignoreInvalidURLs=False,
        max_concurrency=2,  # type: ignore[call-arg]
    )
    assert recorder.last_json() == {
        "urls": ["https://a.test"],
        "onlyMainContent": False,
        "ignoreInvalidURLs": False,
        "maxConcurrency": 2,
    }
