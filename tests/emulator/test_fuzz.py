"""Property-based fuzzing of every endpoint, generated from the emulator's own `/openapi.json`.

Issue 9, part 2: one request could break a team's listings for good. Here
schemathesis (on hypothesis) sends valid and invalid requests to every
operation of the published document, and after each one asserts:
- no 5xx but those the contract documents for the operation (interact's 502
  "AI agent execution failed", the support endpoints' 502/503/504);
- every 4xx carries the service's error body (`{"error"}` alone for support);
- `GET /v2/team/activity` and `GET /v2/crawl/active` still answer 200 for the
  fuzzed team.

The emulator is served by a real uvicorn server in a thread (`ServerThread`):
one event loop owns its state, as when it is deployed, and every request
travels over a keep-alive connection, so a 500 that closed it would show too.
Browser sessions use the recording backend (no Chromium); webhooks go to a mock
transport, so nothing leaves the machine. Deterministic (`derandomize`) and
bounded (`MAX_EXAMPLES` per operation), to stay well under a minute on 2 cores.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, START, auth
from tests.support.recording_backend import RecordingBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.openapi import openapi_document
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

MAX_EXAMPLES = 25
SITE = "https://lumen-labs.io/"

schema = schemathesis.openapi.from_dict(openapi_document())
schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=MAX_EXAMPLES,
    deterministic=True,
    with_security_parameters=False,  # the session sends the team's key
)
# The coverage phase sends hundreds of boundary cases per operation (500 for POST /v2/crawl
# alone), minutes on 2 cores; the explicit examples and the bounded fuzzing phase stay.
schema.config.phases.update(phases=["examples", "fuzzing"])


@dataclass
class Served:
    """The fuzzed emulator: where it listens, a keep-alive session with the team's key, real ids."""

    base_url: str
    session: requests.Session
    ids: dict[str, str]


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    emulator = Emulator.from_keys(
        {"alpha": [ALPHA_KEY], "beta": [BETA_KEY]},
        seed=7,
        clock=ManualClock(START),
        history=False,
        browser_backend=RecordingBackend(),
    )
    emulator.webhooks.use_transport(httpx.MockTransport(lambda request: httpx.Response(200)))
    with ServerThread(emulator) as base_url, requests.Session() as session:
        session.headers.update(auth(ALPHA_KEY))
        yield Served(base_url, session, _real_ids(base_url))


def _real_ids(base_url: str) -> dict[str, str]:
    """Jobs and a session of the fuzzed team, so id-taking operations reach real objects too."""
    with httpx.Client(base_url=base_url, headers=auth(ALPHA_KEY)) as c:
        ids = {
            "/v2/scrape/": c.post("/v2/scrape", json={"url": SITE}).json()["data"]["metadata"]["scrapeId"],
            "/v2/crawl/": c.post("/v2/crawl", json={"url": SITE, "limit": 5}).json()["id"],
            "/v2/batch/scrape/": c.post("/v2/batch/scrape", json={"urls": [SITE]}).json()["id"],
            "/v2/browser/": c.post("/v2/browser", json={"ttl": 3600}).json()["id"],
        }
    return ids


def _use_real_ids(case: schemathesis.Case, ids: dict[str, str]) -> None:
    """For about half the cases (chosen by a hash, so runs repeat), put a real id in the path."""
    params = case.path_parameters or {}
    if not params or zlib.crc32(repr(sorted(params.items())).encode()) % 2:
        return
    prefix = case.operation.path.split("{")[0]
    real = ids.get(prefix)
    if real is not None:
        for name in params:
            params[name] = real


def _assert_error_shape(case: schemathesis.Case, response: requests.Response) -> None:
    if not 400 <= response.status_code < 500:
        return
    body = response.json()
    if case.operation.path.startswith("/v2/support/"):
        assert set(body) == {"error"} and isinstance(body["error"], str), body
    else:
        assert body["success"] is False and isinstance(body["error"], str) and isinstance(body["code"], str), body


def _assert_listings_answer(served: Served) -> None:
    for path in ("/v2/team/activity", "/v2/crawl/active"):
        r = served.session.get(served.base_url + path, timeout=10)
        assert r.status_code == 200, f"{path} answers {r.status_code} after the case above: {r.text}"


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
def test_no_request_gets_a_server_error_or_breaks_the_listings(case: schemathesis.Case, served: Served) -> None:
    _use_real_ids(case, served.ids)
    response = case.call(base_url=served.base_url, session=served.session, timeout=30)
    documented = case.operation.definition.raw["responses"]
    assert response.status_code < 500 or str(response.status_code) in documented, (
        f"{response.status_code} {response.text}\nReproduce with: {case.as_curl_command(base_url=served.base_url)}"
    )
    case.validate_response(response, checks=[response_schema_conformance])
    _assert_error_shape(case, response)
    if case.method.upper() != "GET":  # only what may store something can break the listings
        _assert_listings_answer(served)
