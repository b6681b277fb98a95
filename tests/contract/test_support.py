"""Support: `POST /v2/support/docs-search` and `POST /v2/support/ask` (200, 400, 401, 504).

The support endpoints answer errors as `{"error": ...}` only, so their raw 400s
are checked in that shape (`assert_support_bad_request`).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from tests.contract.refusals import Limit, assert_limit, kwargs_of, limit_params
from tests.contract.service import SITE, Service
from tests.support.emulator_teams import ALPHA_KEY, UNKNOWN_KEY
from tui.api.client import WdsClient
from tui.api.errors import AuthenticationError, GatewayTimeoutError
from tui.contract.models import DocsSearchAnswer, SupportAnswer, SupportAskPartial
from tui.contract.requests import DocsSearchRequest, SupportAskRequest
from tui.emulator.jobs.scrape_engine import FailureKind

# --- docs-search --------------------------------------------------------------------------------


async def test_docs_search_happy_path(alpha: WdsClient) -> None:
    found = await alpha.support.docs_search("How do I verify webhook signatures?")
    assert isinstance(found, DocsSearchAnswer) and found.request_id
    assert "X-Service-Signature" in found.answer
    assert found.evidence and all(e.path_or_url and e.reason for e in found.evidence)
    usage = found.usage
    assert usage is not None and usage.input_tokens and usage.output_tokens
    assert usage.total_tokens == usage.input_tokens + usage.output_tokens
    assert isinstance(found.duration_ms, int) and found.duration_ms >= 0


QUESTION_LIMITS = [
    Limit("question-min", "question", {"question": "x"}, {"question": ""}),
    Limit("question-max", "question", {"question": "crawl " * 1333 + "ok"}, {"question": "q" * 8001}),
]


@pytest.mark.parametrize("limit", limit_params(QUESTION_LIMITS))
async def test_docs_search_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    assert len(limit.inside["question"]) in (1, 8000)

    def call(body: dict[str, Any]) -> Awaitable[DocsSearchAnswer]:
        return alpha.support.docs_search(**kwargs_of(DocsSearchRequest, body))

    answer = await assert_limit(service, limit, call, "POST", "/v2/support/docs-search", support=True)
    assert isinstance(answer, DocsSearchAnswer)


# --- ask ----------------------------------------------------------------------------------------


def failed_scrape(service: Service, key: str = ALPHA_KEY) -> str:
    """A scrape of the key's team that the synthetic site's anti-bot wall made fail."""
    job = service.emulator.jobs.failing_scrape(service.caller(key), FailureKind.ANTI_BOT, "acme-outdoor.com")
    return str(job.id)


async def test_ask_happy_path_diagnoses_the_job_and_tests_the_fix(service: Service, alpha: WdsClient) -> None:
    job_id = failed_scrape(service)
    answer = await alpha.support.ask(
        "Why did my scrape fail?",
        rationale="scrape the enterprise pricing page",
        job_id=job_id,
        context={"pane": "jobs"},
    )
    assert isinstance(answer, SupportAnswer) and answer.request_id and not answer.is_stuck
    assert f"{SITE}/pricing/enterprise" in answer.answer
    assert answer.confidence == "high"
    assert answer.fix_parameters == {"proxy": "auto"}
    assert answer.validation is not None
    assert (answer.validation.tested, answer.validation.result) == (True, "success")
    assert answer.validation.evidence and answer.feedback is None
    assert isinstance(answer.duration_ms, int)


async def test_ask_stuck_is_200_with_feedback(alpha: WdsClient) -> None:
    answer = await alpha.support.ask("Why did my crawl fail?")  # nothing failed: nothing to diagnose
    assert answer.is_stuck and answer.feedback is not None
    assert answer.feedback.blocked_by and answer.feedback.attempted
    assert answer.fix_parameters is None and answer.confidence == "low"


async def test_ask_is_scoped_to_the_callers_team(service: Service, beta: WdsClient) -> None:
    job_id = failed_scrape(service)  # alpha's job
    answer = await beta.support.ask("Why did this scrape fail?", job_id=job_id)
    assert answer.is_stuck and answer.feedback is not None and "not found" in (answer.feedback.blocked_by or "")
    assert "pricing/enterprise" not in answer.model_dump_json(), "nothing of alpha's job may leak to beta"


ASK_LIMITS = [
    *QUESTION_LIMITS,
    Limit("rationale-min", "rationale", {"question": "q", "rationale": "r"}, {"question": "q", "rationale": ""}),
    Limit(
        "rationale-max",
        "rationale",
        {"question": "q", "rationale": "r" * 2000},
        {"question": "q", "rationale": "r" * 2001},
    ),
    Limit("jobId-string", "jobId", {"question": "q", "jobId": "job-7"}, {"question": "q", "jobId": 7}),
    Limit(
        "context-object",
        "context",
        {"question": "q", "context": {"pane": "jobs"}},
        {"question": "q", "context": "jobs"},
    ),
]


@pytest.mark.parametrize("limit", limit_params(ASK_LIMITS))
async def test_ask_limits(service: Service, alpha: WdsClient, limit: Limit) -> None:
    def call(body: dict[str, Any]) -> Awaitable[SupportAnswer]:
        return alpha.support.ask(**kwargs_of(SupportAskRequest, body))

    answer = await assert_limit(service, limit, call, "POST", "/v2/support/ask", support=True)
    assert isinstance(answer, SupportAnswer)


async def test_ask_malformed_json_is_400_in_the_support_shape(service: Service) -> None:
    response = await service.http.post(
        "/v2/support/ask", content=b"{question", headers={"Authorization": f"Bearer {ALPHA_KEY}"}
    )
    assert response.status_code == 400 and set(response.json()) == {"error"}


async def test_ask_budget_hit_is_504_with_the_partial_envelope(service: Service, alpha: WdsClient) -> None:
    service.emulator.support.budget_seconds = 0
    job_id = failed_scrape(service)
    before = service.sent
    with pytest.raises(GatewayTimeoutError) as info:
        await alpha.support.ask("Why did my scrape fail?", job_id=job_id)
    assert info.value.status == 504
    assert service.sent == before + 1, "a POST that ran out of budget is not sent again"
    partial = info.value.partial
    assert isinstance(partial, SupportAskPartial) and partial.request_id
    assert partial.feedback is not None and "budget" in (partial.feedback.blocked_by or "")


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda c: c.support.docs_search("how do I crawl?"), id="docs-search"),
        pytest.param(lambda c: c.support.ask("why?"), id="ask"),
    ],
)
async def test_support_401_with_a_bad_key_in_the_support_shape(service: Service, call: Any) -> None:
    with pytest.raises(AuthenticationError) as info:
        await call(service.client(UNKNOWN_KEY))
    assert (info.value.status, info.value.code) == (401, None)
    assert info.value.body == {"error": "Unauthorized: Invalid token"}
    response = await service.raw("POST", "/v2/support/ask", json={"question": "why?"}, key=None)
    assert (response.status_code, response.json()) == (401, {"error": "Unauthorized"})
