"""Response models tolerate the real service's drift and keep what they do not know."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.api.mock_service import JOB_ID, Recorder, json_response
from tui.api import errors
from tui.api.client import WdsClient
from tui.contract import models


async def test_tokens_used_is_read_as_total_tokens(client: WdsClient, recorder: Recorder) -> None:
    period = {"startDate": "2025-01-01T00:00:00Z", "endDate": "2025-01-31T23:59:59Z", "tokensUsed": 45}
    recorder.queue.append(json_response(200, {"success": True, "periods": [period]}))
    usage = await client.team.token_usage_historical()
    assert usage.periods[0].total_tokens == 45
    assert usage.periods[0].api_key is None


async def test_created_at_on_active_crawls(client: WdsClient, recorder: Recorder) -> None:
    crawl = {
        "id": JOB_ID,
        "teamId": "t",
        "url": "https://a.test",
        "options": {},
        "created_at": "2025-05-01T10:00:00.123Z",
    }
    recorder.queue.append(json_response(200, {"success": True, "crawls": [crawl]}))
    active = await client.crawl.active()
    assert active.crawls[0].created_at.microsecond == 123000
    assert active.crawls[0].created_at.utcoffset() == timedelta(0)


@pytest.mark.parametrize(("wire", "known"), [("active", True), ("destroyed", True), ("error", True), ("paused", False)])
async def test_session_status_is_open(client: WdsClient, recorder: Recorder, wire: str, known: bool) -> None:
    recorder.queue.append(json_response(200, {"success": True, "sessions": [{"id": "s", "status": wire}]}))
    status = (await client.browser.list()).sessions[0].status
    assert status == wire
    assert isinstance(status, models.SessionStatus) is known


async def test_unknown_fields_are_kept(client: WdsClient, recorder: Recorder) -> None:
    crawl = {
        "id": JOB_ID,
        "url": "https://a.test",
        "zeroDataRetention": True,
        "options": {"scrapeOptions": {"blockAds": False}, "maxDepth": 3, "crawlerVersion": "v7"},
    }
    recorder.queue.append(json_response(200, {"success": True, "crawls": [crawl], "serverVersion": "2.9"}))
    active = await client.crawl.active()
    assert active.model_extra == {"serverVersion": "2.9"}
    record = active.crawls[0]
    assert record.model_extra == {"zeroDataRetention": True}
    assert record.options.model_extra == {"crawlerVersion": "v7"}
    assert record.options.max_depth == 3  # a crawl option the model declares is typed, not extra
    assert record.options.scrape_options.model_extra == {"blockAds": False}


async def test_naive_timestamps_are_read_as_utc(client: WdsClient, recorder: Recorder) -> None:
    entry = {"id": JOB_ID, "endpoint": "scrape", "created_at": "2025-05-01T10:00:00"}
    recorder.queue.append(json_response(200, {"success": True, "data": [entry], "cursor": None, "has_more": False}))
    page = await client.team.activity()
    assert page.entries[0].created_at.utcoffset() == timedelta(0)


async def test_unknown_activity_kind_is_kept(client: WdsClient, recorder: Recorder) -> None:
    entry = {"id": JOB_ID, "endpoint": "parse", "created_at": "2025-05-01T10:00:00Z"}
    recorder.queue.append(json_response(200, {"success": True, "data": [entry], "cursor": None, "has_more": False}))
    assert (await client.team.activity()).entries[0].endpoint == "parse"


async def test_has_more_missing_is_derived_from_the_cursor(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "data": [], "cursor": "next"}))
    assert (await client.team.activity()).has_more


async def test_a_bad_timestamp_is_a_shape_error(client: WdsClient, recorder: Recorder) -> None:
    entry = {"id": JOB_ID, "endpoint": "scrape", "created_at": "last tuesday"}
    recorder.queue.append(json_response(200, {"success": True, "data": [entry], "cursor": None, "has_more": False}))
    with pytest.raises(errors.ResponseShapeError, match=r"data\[0\]\.created_at.*'last tuesday'"):
        await client.team.activity()


async def test_map_links_as_bare_strings(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(200, {"success": True, "links": ["https://a.test/", {"url": "https://a.test/b", "title": "B"}]})
    )
    mapped = await client.map("https://a.test")
    assert [link.url for link in mapped.links] == ["https://a.test/", "https://a.test/b"]
    assert mapped.links[0].title is None


async def test_unknown_job_state_is_kept(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "status": "queued", "completed": 0, "total": 0}))
    status = await client.crawl.get(JOB_ID)
    assert status.status == "queued" and not status.is_finished and status.progress is None


@pytest.mark.parametrize(
    ("extra", "name"),
    [({}, None), ({"profile": {"name": "shop"}}, "shop"), ({"profileName": "shop"}, "shop"), ({"profile": 3}, None)],
)
async def test_a_session_profile_is_read_when_a_service_lists_it(
    client: WdsClient, recorder: Recorder, extra: dict[str, object], name: str | None
) -> None:
    session = {"id": "s", "status": "active", **extra}
    recorder.queue.append(json_response(200, {"success": True, "sessions": [session]}))
    assert (await client.browser.list()).sessions[0].profile_name == name
