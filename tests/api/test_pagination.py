"""Activity paging: one page at a time, and an async iterator over them all."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.mock_service import Recorder, json_response
from tui.api import errors
from tui.api.client import WdsClient


def entry(n: int) -> dict[str, Any]:
    return {
        "id": f"00000000-0000-4000-8000-{n:012d}",
        "endpoint": "scrape",
        "api_version": "v2",
        "created_at": "2025-05-01T10:00:00Z",
        "target": f"https://a.test/{n}",
    }


def paged(total: int) -> Any:
    """A handler serving `total` entries in pages of `limit`, with the offset as the cursor."""

    def handler(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params.get("cursor", "0"))
        limit = int(request.url.params["limit"])
        end = min(total, start + limit)
        more = end < total
        return json_response(
            200,
            {
                "success": True,
                "data": [entry(n) for n in range(start, end)],
                "cursor": str(end) if more else None,
                "has_more": more,
            },
        )

    return handler


async def test_iterates_every_entry_once(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = paged(250)
    ids = [item.id async for item in client.team.iter_activity(endpoint="scrape")]
    assert len(ids) == 250 and len(set(ids)) == 250
    assert [r.url.params.get("cursor") for r in recorder.requests] == [None, "100", "200"]
    assert all(r.url.params["endpoint"] == "scrape" and r.url.params["limit"] == "100" for r in recorder.requests)


async def test_pages_and_page_size(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = paged(5)
    pages = [page async for page in client.team.iter_activity(page_size=2).pages()]
    assert [len(page.entries) for page in pages] == [2, 2, 1]
    assert [page.has_more for page in pages] == [True, True, False]


async def test_empty_history(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = paged(0)
    assert await client.team.iter_activity().to_list() == []
    assert len(recorder.requests) == 1


async def test_each_iteration_starts_again(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = paged(3)
    pager = client.team.iter_activity(page_size=2)
    assert len(await pager.to_list()) == 3
    assert len(await pager.to_list()) == 3


async def test_bad_page_size_fails_before_any_request(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(errors.RequestValidationError, match=r"limit: .*less than or equal to 100"):
        client.team.iter_activity(page_size=101)
    assert recorder.requests == []


async def test_a_repeated_cursor_stops_with_an_error(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = lambda request: json_response(
        200, {"success": True, "data": [entry(1)], "cursor": "same", "has_more": True}
    )
    with pytest.raises(errors.InvalidResponseError, match="cursor 'same' a second time"):
        await client.team.iter_activity().to_list()
    assert len(recorder.requests) == 2


async def test_has_more_without_a_cursor_ends(client: WdsClient, recorder: Recorder) -> None:
    recorder.handler = lambda request: json_response(
        200, {"success": True, "data": [entry(1)], "cursor": None, "has_more": True}
    )
    assert len(await client.team.iter_activity().to_list()) == 1


async def test_an_error_mid_way_surfaces(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue += [
        json_response(200, {"success": True, "data": [entry(1)], "cursor": "c1", "has_more": True}),
        json_response(400, {"success": False, "error": "Invalid cursor", "code": "BAD_REQUEST"}),
    ]
    seen = []
    with pytest.raises(errors.BadRequestError, match="Invalid cursor"):
        async for item in client.team.iter_activity():
            seen.append(item)
    assert len(seen) == 1
