"""`client.crawl.cancel(id)`: `DELETE /v2/crawl/{id}`, outside the contract's tables, and its failures."""

from __future__ import annotations

import httpx
import pytest

from tests.api.mock_service import JOB_ID, Recorder, error_body, json_response
from tui.api import errors
from tui.api.client import WdsClient
from tui.contract.models.common import JobState
from tui.contract.models.crawl import CrawlCancelled


async def test_cancel_sends_delete_and_reads_the_state(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "status": "cancelled"}))
    answer = await client.crawl.cancel(JOB_ID)
    assert (recorder.last.method, recorder.last.url.path) == ("DELETE", f"/v2/crawl/{JOB_ID}")
    assert recorder.last.content == b""
    assert isinstance(answer, CrawlCancelled)
    assert answer.status == JobState.CANCELLED and answer.success


async def test_a_crawl_that_had_already_finished_keeps_its_state(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "status": "completed"}))
    assert (await client.crawl.cancel(JOB_ID)).status == "completed"


async def test_an_answer_without_status_is_still_read(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True}))
    assert (await client.crawl.cancel(JOB_ID)).status is None


async def test_an_unknown_crawl_is_not_found(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(404, error_body("Job not found.", "NOT_FOUND")))
    with pytest.raises(errors.NotFoundError) as caught:
        await client.crawl.cancel(JOB_ID)
    assert caught.value.status == 404 and caught.value.message == "Job not found."


async def test_a_service_without_cancel_answers_405(client: WdsClient, recorder: Recorder) -> None:
    # A service (or proxy) without the route: often not even JSON.
    recorder.queue.append(httpx.Response(405, text="Method Not Allowed", headers={"content-type": "text/plain"}))
    with pytest.raises(errors.APIStatusError) as caught:
        await client.crawl.cancel(JOB_ID)
    assert caught.value.status == 405


async def test_a_server_fault_is_not_retried(client: WdsClient, recorder: Recorder) -> None:
    # DELETE is not retried: the first request may have cancelled the crawl already.
    recorder.queue.append(json_response(503, error_body("Service unavailable.", "SERVICE_UNAVAILABLE")))
    with pytest.raises(errors.ServiceUnavailableError):
        await client.crawl.cancel(JOB_ID)
    assert len(recorder.requests) == 1


async def test_an_id_that_is_not_a_uuid_is_refused_before_sending(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(errors.RequestValidationError):
        await client.crawl.cancel("../active")
    assert recorder.requests == []
