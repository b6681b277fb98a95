"""2xx answers the client cannot read become InvalidResponseError, never a raw traceback."""

from __future__ import annotations

import gc

import httpx
import pytest

from tests.api.mock_service import Recorder, json_response
from tui.api import errors
from tui.api.client import WdsClient


async def test_html_instead_of_json(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        httpx.Response(200, text="<html><body>Welcome to nginx!</body></html>", headers={"content-type": "text/html"})
    )
    with pytest.raises(errors.ResponseNotJSONError) as caught:
        await client.crawl.active()
    error = caught.value
    assert isinstance(error, errors.InvalidResponseError)
    assert error.status == 200 and error.content_type == "text/html"
    assert "Welcome to nginx!" in error.excerpt
    assert error.message.startswith("the server sent a text/html body")
    assert "(status 200) where JSON was expected" in error.message


async def test_truncated_json(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        httpx.Response(200, content=b'{"success": true, "crawls": [', headers={"content-type": "application/json"})
    )
    with pytest.raises(errors.ResponseNotJSONError, match="application/json body"):
        await client.crawl.active()


async def test_empty_body(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(httpx.Response(200))
    with pytest.raises(errors.ResponseNotJSONError, match="an empty body"):
        await client.crawl.active()


async def test_long_body_is_cut_in_the_message(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(httpx.Response(200, text="x" * 5000, headers={"content-type": "text/plain"}))
    with pytest.raises(errors.ResponseNotJSONError) as caught:
        await client.crawl.active()
    assert len(caught.value.excerpt) <= 200
    assert len(caught.value.message) < 400


async def test_json_sent_as_text_plain_is_still_read(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        httpx.Response(200, text='{"success": true, "crawls": []}', headers={"content-type": "text/plain"})
    )
    assert (await client.crawl.active()).crawls == []


async def test_missing_required_field(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "cdpUrl": "wss://x/cdp/1"}))
    with pytest.raises(errors.ResponseShapeError) as caught:
        await client.browser.create(ttl=60)
    assert "not a valid BrowserSessionCreated" in caught.value.message
    assert "id: Field required" in caught.value.message


async def test_wrong_type_names_the_path_and_the_value(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(
        json_response(200, {"success": True, "sessions": [{"id": "s1", "status": "active", "createdAt": "yesterday"}]})
    )
    with pytest.raises(errors.ResponseShapeError) as caught:
        await client.browser.list()
    message = caught.value.message
    assert "sessions[0].createdAt" in message
    assert "'yesterday'" in message


async def test_json_array_instead_of_object(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, [1, 2, 3]))
    with pytest.raises(errors.ResponseShapeError, match="not a valid ActiveCrawlList"):
        await client.crawl.active()


async def test_success_false_on_200_quotes_the_server(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": False, "error": "Crawl could not start"}))
    with pytest.raises(errors.ResponseShapeError, match="the server said: 'Crawl could not start'"):
        await client.crawl.start("https://example.com")


async def test_many_issues_are_summarised(client: WdsClient, recorder: Recorder) -> None:
    bad = {"success": True, "periods": [{"startDate": "x", "endDate": "y"}, {"startDate": "z", "endDate": "w"}]}
    recorder.queue.append(json_response(200, bad))
    with pytest.raises(errors.ResponseShapeError, match=r"and \d+ more"):
        await client.team.token_usage_historical()


async def test_a_union_field_is_reported_once(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "sessions": [{"id": "s1", "status": 5}]}))
    with pytest.raises(errors.ResponseShapeError) as caught:
        await client.browser.list()
    message = caught.value.message
    assert message.count("sessions[0].status:") == 1
    assert "str-enum" not in message and "(got 5)" in message


async def test_garbage_collection_is_back_on_after_reading_an_answer(client: WdsClient, recorder: Recorder) -> None:
    # Parsing pauses the cyclic collector (a map's 100,000 links set off dozens of useless
    # collections): a refused answer must not leave it off for the rest of the process.
    assert gc.isenabled()
    recorder.queue.append(json_response(200, {"success": True, "crawls": []}))
    assert (await client.crawl.active()).crawls == []
    assert gc.isenabled()
    recorder.queue.append(httpx.Response(200, text="<html>nginx</html>", headers={"content-type": "text/html"}))
    with pytest.raises(errors.ResponseNotJSONError):
        await client.crawl.active()
    assert gc.isenabled()
    recorder.queue.append(json_response(200, {"success": True, "crawls": 7}))
    with pytest.raises(errors.ResponseShapeError):
        await client.crawl.active()
    assert gc.isenabled()
