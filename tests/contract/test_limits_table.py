"""Every numeric and length limit of `service-api.md`, checked on the emulator over raw HTTP.

The table below is copied by hand from the contract's tables (the endpoint
tables and the "Limits" table). It deliberately imports neither
`tui.contract.limits` nor `tui.contract.requests`: the emulator validates bodies with the
client's request models, so a limit wrong in that shared code would pass every
test that goes through it. Here the numbers come from the contract alone.

For each row, with every other field valid:
- the smallest and the largest accepted value are not refused with a 400 (the
  call may still fail later for another reason, e.g. no AI model for an
  interact `prompt`, which is a 502);
- the first value past each end is refused with 400 and the service's error
  body: `{success: false, error, code: "BAD_REQUEST", details: [{path, message}]}`
  naming the field, or `{error}` naming it for the support endpoints
  (observed-behaviour.md, "Errors, all endpoints").
A side the contract leaves open ("max length 10000", "maximum 100000") has no case.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.contract.service import SITE, Service

# Calls that start something (a session, a batch) may be refused later for another
# reason; these statuses would mean the boundary value itself was refused or broke the service.
REFUSALS = (400, 422, 500)


@dataclass(frozen=True)
class Row:
    """One limit of the contract: `field` of `endpoint` accepts `lowest`..`highest`.

    `length`: the limit is on a string's length (the value sent is that many
    characters), else on the number itself. `step` is how far past a boundary
    the first refused value lies (1 for integers; 0.5 for a `number` field, so
    a fractional value is tried). None for `lowest`/`highest`: the contract
    states no bound on that side. `body` holds the other fields the request needs.
    """

    endpoint: str
    field: str
    lowest: float | None
    highest: float | None
    length: bool = False
    step: float = 1
    body: dict[str, Any] = field(default_factory=dict)
    xfail: str = ""


# endpoint,                             field,                  lowest, highest,   ...   (contract wording)
TABLE: list[Row] = [
    # POST /v2/support/docs-search | question | string | yes | length 1 to 8000 |
    Row("POST /v2/support/docs-search", "question", 1, 8000, length=True),
    # POST /v2/support/ask | question | length 1 to 8000 | rationale | length 1 to 2000 |
    Row("POST /v2/support/ask", "question", 1, 8000, length=True),
    Row("POST /v2/support/ask", "rationale", 1, 2000, length=True, body={"question": "Why did my crawl fail?"}),
    # POST /v2/browser | ttl 30 to 3600 | activityTtl 10 to 3600 | profile.name 1 to 128 chars |
    Row("POST /v2/browser", "ttl", 30, 3600),
    Row("POST /v2/browser", "activityTtl", 10, 3600, body={"ttl": 600}),
    Row("POST /v2/browser", "profile.name", 1, 128, length=True, body={"ttl": 600}),
    # POST /v2/browser/{sessionId}/execute | code 1 to 100000 characters | timeout integer, seconds, 1 to 300 |
    Row("POST /v2/browser/{sessionId}/execute", "code", 1, 100_000, length=True),
    Row("POST /v2/browser/{sessionId}/execute", "timeout", 1, 300, body={"code": "1 + 1"}),
    # POST /v2/scrape/{jobId}/interact | code 1 to 100000 | prompt 1 to 10000 | timeout number, 1 to 300 |
    Row("POST /v2/scrape/{jobId}/interact", "code", 1, 100_000, length=True),
    Row("POST /v2/scrape/{jobId}/interact", "prompt", 1, 10_000, length=True),
    Row("POST /v2/scrape/{jobId}/interact", "timeout", 1, 300, step=0.5, body={"code": "1 + 1"}),
    # POST /v2/batch/scrape | timeout | integer (ms) | 60000 | 1000 to 300000 |
    Row("POST /v2/batch/scrape", "timeout", 1000, 300_000, body={"urls": [f"{SITE}/about"]}),
    # The same scrape option inside a crawl ("shared shape in batch scrape and crawl options").
    Row("POST /v2/crawl", "scrapeOptions.timeout", 1000, 300_000, body={"url": f"{SITE}/", "limit": 1}),
    # POST /v2/map | limit | integer | 5000 | maximum 100000 |
    Row("POST /v2/map", "limit", None, 100_000, body={"url": f"{SITE}/"}),
    # GET /v2/team/activity | limit | integer | 50 | 1 to 100 |
    Row("GET /v2/team/activity", "limit", 1, 100),
    # POST /v2/crawl/params-preview | prompt | string | yes | max length 10000 |
    Row("POST /v2/crawl/params-preview", "prompt", None, 10_000, length=True, body={"url": f"{SITE}/"}),
]


@dataclass(frozen=True)
class Case:
    row: Row
    value: float
    accepted: bool


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def cases() -> list[Any]:
    """Each row's boundaries (accepted) and the first values past them (refused), as named params."""
    params = []
    for row in TABLE:
        edges = []
        if row.lowest is not None:
            edges += [(row.lowest, True), (row.lowest - row.step, False)]
        if row.highest is not None:
            edges += [(row.highest, True), (row.highest + row.step, False)]
        for value, accepted in edges:
            if row.length and value < 0:
                continue
            shown = f"len {_number(value)}" if row.length else _number(value)
            label = f"{row.endpoint} {row.field}={shown} {'ok' if accepted else '400'}"
            marks = [pytest.mark.xfail(reason=row.xfail, strict=True)] if row.xfail else []
            params.append(pytest.param(Case(row, value, accepted), id=label, marks=marks))
    return params


def with_value(body: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """`body` with `value` set at the wire path `dotted` (`profile.name`, `scrapeOptions.timeout`)."""
    out = {**body}
    *parents, last = dotted.split(".")
    node = out
    for name in parents:
        node[name] = {**node.get(name, {})}
        node = node[name]
    node[last] = value
    return out


async def scrape_job_id(service: Service) -> str:
    """A scrape job of the caller's team, made over HTTP; its id is at `data.metadata.scrapeId`."""
    response = await service.raw("POST", "/v2/scrape", json={"url": f"{SITE}/about"})
    assert response.status_code == 200, response.text
    return str(response.json()["data"]["metadata"]["scrapeId"])


async def browser_session_id(service: Service) -> str:
    response = await service.raw("POST", "/v2/browser", json={"ttl": 600})
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


PATH_IDS: dict[str, Callable[[Service], Awaitable[str]]] = {"{jobId}": scrape_job_id, "{sessionId}": browser_session_id}


async def send(service: Service, row: Row, value: Any) -> httpx.Response:
    method, path = row.endpoint.split(" ", 1)
    for placeholder, make in PATH_IDS.items():
        if placeholder in path:
            path = path.replace(placeholder, await make(service))
    payload = with_value(row.body, row.field, value)
    if method == "GET":
        return await service.raw(method, path, params=payload)
    return await service.raw(method, path, json=payload)


def dotted_path(path: list[Any]) -> str:
    return ".".join(str(part) for part in path)


def assert_refused(response: httpx.Response, row: Row) -> None:
    """A 400 with the service's error body, naming the field."""
    assert response.status_code == 400, response.text
    body = response.json()
    if row.endpoint.startswith("POST /v2/support/"):
        # The support endpoints answer `{"error": ...}` alone (observed-behaviour.md).
        assert set(body) == {"error"} and isinstance(body["error"], str), body
        assert row.field in body["error"], body
        return
    assert body["success"] is False and isinstance(body["error"], str) and body["code"] == "BAD_REQUEST", body
    details = body["details"]
    assert isinstance(details, list) and details, body
    assert all(isinstance(item, dict) and {"path", "message"} <= set(item) for item in details), body
    assert row.field in [dotted_path(item["path"]) for item in details], body


@pytest.mark.parametrize("case", cases())
async def test_limit(service: Service, case: Case) -> None:
    row = case.row
    value: Any = "x" * int(case.value) if row.length else _number(case.value)
    response = await send(service, row, value)
    if case.accepted:
        assert response.status_code not in REFUSALS, response.text[:500]
    else:
        assert_refused(response, row)


def test_the_table_covers_every_limit_of_the_contract() -> None:
    """The "Limits" table's request limits, each found in TABLE (a row added to the contract lands here)."""
    limits = {
        ("POST /v2/support/docs-search", "question"),
        ("POST /v2/support/ask", "question"),
        ("POST /v2/support/ask", "rationale"),
        ("POST /v2/crawl/params-preview", "prompt"),
        ("POST /v2/browser", "ttl"),
        ("POST /v2/browser", "activityTtl"),
        ("POST /v2/browser", "profile.name"),
        ("POST /v2/browser/{sessionId}/execute", "code"),
        ("POST /v2/scrape/{jobId}/interact", "code"),
        ("POST /v2/scrape/{jobId}/interact", "prompt"),
        ("POST /v2/browser/{sessionId}/execute", "timeout"),
        ("POST /v2/scrape/{jobId}/interact", "timeout"),
        ("POST /v2/batch/scrape", "timeout"),
        ("POST /v2/map", "limit"),
        ("GET /v2/team/activity", "limit"),
    }
    assert limits <= {(row.endpoint, row.field) for row in TABLE}


# --- defaults of the tables that can be seen from outside ----------------------------------------


async def test_interact_timeout_defaults_to_30_seconds(service: Service) -> None:
    """| timeout | number | no | 30 | seconds, 1 to 300 | (interact)."""
    job_id = await scrape_job_id(service)
    response = await service.raw("POST", f"/v2/scrape/{job_id}/interact", json={"code": "1 + 1"})
    assert response.status_code == 200, response.text
    assert service.backend.executions[-1].timeout == 30


async def test_activity_limit_defaults_to_50(service: Service) -> None:
    """| limit | integer | 50 | 1 to 100 | (activity): 51 calls, a page of 50 and more to come."""
    for _ in range(51):
        assert (await service.raw("POST", "/v2/map", json={"url": f"{SITE}/", "limit": 1})).status_code == 200
    page = (await service.raw("GET", "/v2/team/activity")).json()
    assert len(page["data"]) == 50 and page["has_more"] is True
