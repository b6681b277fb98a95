"""Each method sends the contract's method, path, query and body, and returns its model."""

from __future__ import annotations

from datetime import timedelta

from tests.api.mock_service import API_KEY, JOB_ID, SESSION_ID, Recorder, json_response
from tui.api.client import WdsClient
from tui.contract import models


async def test_every_call_carries_the_bearer_and_json_accept(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "crawls": []}))
    await client.crawl.active()
    assert recorder.last.headers["authorization"] == f"Bearer {API_KEY}"
    assert recorder.last.headers["accept"] == "application/json"
    assert recorder.last.headers["user-agent"].startswith("wds-tui/")


async def test_token_usage_historical(client: WdsClient, recorder: Recorder) -> None:
    period = {
        "startDate": "2025-01-01T00:00:00Z",
        "endDate": "2025-01-31T23:59:59Z",
        "apiKey": "…cdef",
        "totalTokens": 150,
    }
    recorder.queue.append(json_response(200, {"success": True, "periods": [period]}))
    usage = await client.team.token_usage_historical(by_api_key=True)
    assert (recorder.last.method, recorder.last.url.path) == ("GET", "/v2/team/token-usage/historical")
    assert recorder.last.url.params["byApiKey"] == "true"
    assert isinstance(usage, models.TokenUsageHistory)
    assert usage.periods[0].total_tokens == 150 and usage.periods[0].credits == 10
    assert usage.periods[0].start_date.tzinfo is not None


async def test_token_usage_default_query(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "periods": []}))
    await client.team.token_usage_historical()
    assert recorder.last.url.params["byApiKey"] == "false"


async def test_activity_page(client: WdsClient, recorder: Recorder) -> None:
    entry = {
        "id": JOB_ID,
        "endpoint": "crawl",
        "api_version": "v2",
        "created_at": "2025-05-01T10:00:00Z",
        "target": "https://a.test",
    }
    recorder.queue.append(
        json_response(200, {"success": True, "data": [entry], "cursor": "b64cursor", "has_more": True})
    )
    page = await client.team.activity(endpoint="crawl", limit=10, cursor="prev")
    assert recorder.last.url.path == "/v2/team/activity"
    assert dict(recorder.last.url.params) == {"endpoint": "crawl", "limit": "10", "cursor": "prev"}
    assert isinstance(page, models.ActivityPage)
    assert page.has_more and page.cursor == "b64cursor"
    assert page.entries[0].id == JOB_ID and page.entries[0].api_version == "v2"


async def test_docs_search(client: WdsClient, recorder: Recorder) -> None:
    body = {
        "requestId": "r1",
        "answer": "Use POST /v2/crawl.",
        "evidence": [{"pathOrUrl": "docs/crawl.md", "reason": "describes crawl"}],
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "durationMs": 12,
    }
    recorder.queue.append(json_response(200, body))
    answer = await client.support.docs_search("How do I crawl?")
    assert (recorder.last.method, recorder.last.url.path) == ("POST", "/v2/support/docs-search")
    assert recorder.last_json() == {"question": "How do I crawl?"}
    assert answer.evidence[0].path_or_url == "docs/crawl.md" and answer.usage.total_tokens == 15


async def test_support_ask_answered_and_stuck(client: WdsClient, recorder: Recorder) -> None:
    answered = {
        "requestId": "r2",
        "answer": "The site blocks basic proxies. Use proxy enhanced.",
        "confidence": "high",
        "fixParameters": {"proxy": "enhanced"},
        "validation": {"tested": True, "result": "success", "evidence": "200 OK"},
        "feedback": None,
        "durationMs": 17000,
    }
    recorder.queue.append(json_response(200, answered))
    answer = await client.support.ask("Why 403?", rationale="scrape a shop", job_id=JOB_ID, context={"tab": "jobs"})
    assert recorder.last_json() == {
        "question": "Why 403?",
        "rationale": "scrape a shop",
        "jobId": JOB_ID,
        "context": {"tab": "jobs"},
    }
    assert answer.confidence == models.support.Confidence.HIGH
    assert answer.fix_parameters == {"proxy": "enhanced"} and not answer.is_stuck
    assert answer.validation.result == "success"

    stuck = {
        **answered,
        "fixParameters": None,
        "validation": None,
        "confidence": "low",
        "feedback": {"blockedBy": "no job", "attempted": ["get job"]},
    }
    recorder.queue.append(json_response(200, stuck))
    assert (await client.support.ask("Why?")).is_stuck


async def test_browser_create(client: WdsClient, recorder: Recorder) -> None:
    created = {
        "success": True,
        "id": SESSION_ID,
        "cdpUrl": f"wss://b.test/cdp/{SESSION_ID}?token=secret-token",
        "liveViewUrl": "https://b.test/live",
        "interactiveLiveViewUrl": "https://b.test/live?interactive=1",
        "expiresAt": "2025-05-01T10:10:00Z",
    }
    recorder.queue.append(json_response(200, created))
    session = await client.browser.create(
        ttl=600, activity_ttl=60, stream_web_view=False, profile={"name": "shop", "save_changes": False}
    )
    assert (recorder.last.method, recorder.last.url.path) == ("POST", "/v2/browser")
    assert recorder.last_json() == {
        "ttl": 600,
        "activityTtl": 60,
        "streamWebView": False,
        "profile": {"name": "shop", "saveChanges": False},
    }
    assert isinstance(session, models.BrowserSessionCreated) and session.id == SESSION_ID
    assert session.expires_at.utcoffset() == timedelta(0)
    assert "secret-token" not in repr(session), "the CDP token stays out of repr"


async def test_browser_list(client: WdsClient, recorder: Recorder) -> None:
    listed = {
        "id": SESSION_ID,
        "status": "active",
        "cdpUrl": "wss://x",
        "streamWebView": True,
        "createdAt": "2025-05-01T10:00:00Z",
        "lastActivity": "2025-05-01T10:01:00Z",
    }
    recorder.queue.append(json_response(200, {"success": True, "sessions": [listed]}))
    sessions = await client.browser.list(status="active")
    assert recorder.last.url.params["status"] == "active"
    assert sessions.sessions[0].is_active and sessions.sessions[0].status == models.SessionStatus.ACTIVE
    recorder.queue.append(json_response(200, {"success": True, "sessions": []}))
    await client.browser.list()
    assert "status" not in recorder.last.url.params


async def test_browser_delete(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(200, {"success": True, "status": "stopped", "sessionDurationMs": 1200, "creditsBilled": 1})
    )
    deleted = await client.browser.delete(SESSION_ID)
    assert (recorder.last.method, recorder.last.url.path) == ("DELETE", f"/v2/browser/{SESSION_ID}")
    assert deleted.status == "stopped" and deleted.session_duration_ms == 1200


async def test_browser_execute(client: WdsClient, recorder: Recorder) -> None:
    result = {
        "success": True,
        "stdout": None,
        "result": "Example Domain",
        "stderr": "",
        "exitCode": 0,
        "killed": False,
        "error": None,
    }
    recorder.queue.append(json_response(200, result))
    executed = await client.browser.execute(SESSION_ID, "await page.title()", language="node", timeout=20)
    assert (recorder.last.method, recorder.last.url.path) == ("POST", f"/v2/browser/{SESSION_ID}/execute")
    assert recorder.last_json() == {"code": "await page.title()", "language": "node", "timeout": 20}
    assert executed.output == "Example Domain" and not executed.failed
    # the HTTP read timeout covers the code's own timeout
    assert recorder.last.extensions["timeout"]["read"] >= 20


async def test_execute_error_with_success_true_is_a_failure(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(
            200,
            {
                "success": True,
                "stderr": "TimeoutError",
                "exitCode": 1,
                "killed": False,
                "error": "TimeoutError: navigation",
            },
        )
    )
    executed = await client.browser.execute(SESSION_ID, "await page.goto('x')")
    assert executed.success and executed.failed


async def test_scrape_create_and_get(client: WdsClient, recorder: Recorder) -> None:
    document = {
        "markdown": "# Hi",
        "metadata": {"sourceURL": "https://a.test", "statusCode": 200, "scrapeId": JOB_ID, "title": "Hi"},
    }
    recorder.queue.append(json_response(200, {"success": True, "data": document}))
    scraped = await client.scrape.create("https://a.test", formats=["markdown"], only_main_content=True, timeout=90_000)
    assert (recorder.last.method, recorder.last.url.path) == ("POST", "/v2/scrape")
    assert recorder.last_json() == {
        "url": "https://a.test",
        "formats": ["markdown"],
        "onlyMainContent": True,
        "timeout": 90000,
    }
    assert scraped.job_id == JOB_ID and scraped.data.metadata.status_code == 200
    assert recorder.last.extensions["timeout"]["read"] >= 90

    recorder.queue.append(json_response(200, {"success": True, "data": document}))
    fetched = await client.scrape.get(JOB_ID)
    assert (recorder.last.method, recorder.last.url.path) == ("GET", f"/v2/scrape/{JOB_ID}")
    assert fetched.data.markdown == "# Hi"


async def test_scrape_interact_and_stop(client: WdsClient, recorder: Recorder) -> None:
    result = {
        "success": True,
        "sessionId": SESSION_ID,
        "liveViewUrl": "https://b.test/l",
        "stdout": "",
        "result": "3",
        "exitCode": 0,
        "killed": False,
    }
    recorder.queue.append(json_response(200, result))
    interacted = await client.scrape.interact(JOB_ID, code="1 + 2", language="node", timeout=45, origin="wds-tui")
    assert (recorder.last.method, recorder.last.url.path) == ("POST", f"/v2/scrape/{JOB_ID}/interact")
    assert recorder.last_json() == {"code": "1 + 2", "language": "node", "timeout": 45, "origin": "wds-tui"}
    assert interacted.result == "3" and interacted.session_id == SESSION_ID

    recorder.queue.append(json_response(200, {"success": True, "output": "Clicked.", "result": "<snapshot>"}))
    prompted = await client.scrape.interact(JOB_ID, prompt="click the second tab")
    assert recorder.last_json() == {"prompt": "click the second tab"}
    assert prompted.output == "Clicked."

    recorder.queue.append(json_response(200, {"success": True, "sessionDurationMs": 5000, "creditsBilled": 2}))
    stopped = await client.scrape.stop_interaction(JOB_ID)
    assert (recorder.last.method, recorder.last.url.path) == ("DELETE", f"/v2/scrape/{JOB_ID}/interact")
    assert stopped.credits_billed == 2


async def test_batch_create_and_get(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(
            200,
            {
                "success": True,
                "id": JOB_ID,
                "url": f"http://wds.test/v2/batch/scrape/{JOB_ID}",
                "invalidURLs": ["nope"],
            },
        )
    )
    webhook = {"url": "https://hooks.test/wds", "metadata": {"run": 1}, "events": ["started"]}
    started = await client.batch.create(
        ["https://a.test", "nope"], webhook=webhook, max_concurrency=3, formats=["markdown"]
    )
    assert (recorder.last.method, recorder.last.url.path) == ("POST", "/v2/batch/scrape")
    assert recorder.last_json() == {
        "urls": ["https://a.test", "nope"],
        "webhook": webhook,
        "maxConcurrency": 3,
        "formats": ["markdown"],
    }
    assert started.id == JOB_ID and started.invalid_urls == ["nope"]

    status = {
        "success": True,
        "status": "scraping",
        "completed": 1,
        "total": 4,
        "creditsUsed": 1,
        "expiresAt": "2025-05-02T00:00:00Z",
        "next": "http://x?skip=1",
        "data": [{"markdown": "a"}],
    }
    recorder.queue.append(json_response(200, status))
    progress = await client.batch.get(JOB_ID, skip=0, limit=1)
    assert (recorder.last.method, recorder.last.url.path) == ("GET", f"/v2/batch/scrape/{JOB_ID}")
    assert dict(recorder.last.url.params) == {"skip": "0", "limit": "1"}
    assert progress.progress == 0.25 and not progress.is_finished and progress.next


async def test_map(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(
            200, {"success": True, "links": [{"url": "https://a.test/", "title": "Home", "description": "d"}]}
        )
    )
    mapped = await client.map(
        "https://a.test", search="docs", sitemap="include", limit=10, location={"country": "DE", "languages": ["de"]}
    )
    assert (recorder.last.method, recorder.last.url.path) == ("POST", "/v2/map")
    assert recorder.last_json() == {
        "url": "https://a.test",
        "search": "docs",
        "sitemap": "include",
        "limit": 10,
        "location": {"country": "DE", "languages": ["de"]},
    }
    assert isinstance(mapped, models.MapResult) and mapped.links[0].title == "Home"


async def test_crawl_params_preview(client: WdsClient, recorder: Recorder) -> None:
    params = {
        "url": "https://a.test",
        "includePaths": ["/blog/.*"],
        "maxDepth": 2,
        "sitemap": "skip",
        "deduplicateSimilarURLs": True,
        "delay": 0.5,
        "limit": 50,
    }
    recorder.queue.append(json_response(200, {"success": True, "data": params}))
    preview = await client.crawl.params_preview("https://a.test", "only the blog")
    assert recorder.last_json() == {"url": "https://a.test", "prompt": "only the blog"}
    assert preview.data.include_paths == ["/blog/.*"] and preview.data.deduplicate_similar_urls is True


async def test_crawl_active_start_get(client: WdsClient, recorder: Recorder) -> None:
    crawl = {
        "id": JOB_ID,
        "teamId": "team-1",
        "url": "https://a.test",
        "options": {"scrapeOptions": {"formats": ["markdown"], "profile": {"name": "p", "saveChanges": True}}},
    }
    recorder.queue.append(json_response(200, {"success": True, "crawls": [crawl]}))
    active = await client.crawl.active()
    assert recorder.last.url.path == "/v2/crawl/active"
    assert active.crawls[0].options.scrape_options.profile.save_changes is True

    recorder.queue.append(
        json_response(200, {"success": True, "id": JOB_ID, "url": f"http://wds.test/v2/crawl/{JOB_ID}"})
    )
    started = await client.crawl.start(
        "https://a.test", limit=10, scrape_options={"formats": ["markdown"]}, webhook="https://hooks.test/x"
    )
    assert (recorder.last.method, recorder.last.url.path) == ("POST", "/v2/crawl")
    assert recorder.last_json() == {
        "url": "https://a.test",
        "limit": 10,
        "scrapeOptions": {"formats": ["markdown"]},
        "webhook": "https://hooks.test/x",
    }
    assert started.id == JOB_ID

    recorder.queue.append(
        json_response(200, {"success": True, "status": "completed", "completed": 2, "total": 2, "data": []})
    )
    status = await client.crawl.get(JOB_ID)
    assert recorder.last.url.path == f"/v2/crawl/{JOB_ID}" and not recorder.last.url.params
    assert status.is_finished and status.progress == 1.0


async def test_extract_get(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(200, {"success": True, "status": "completed", "data": {"price": 3}, "tokensUsed": 120})
    )
    extracted = await client.extract.get(JOB_ID)
    assert (recorder.last.method, recorder.last.url.path) == ("GET", f"/v2/extract/{JOB_ID}")
    assert extracted.data == {"price": 3} and extracted.tokens_used == 120
