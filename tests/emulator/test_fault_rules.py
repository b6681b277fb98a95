"""Fault rules as a tester writes them: the admin routes, the one-line spec, and what a request meets in-process.

Over a real socket (resets, cut and slow bodies as a client's socket sees them): test_faults_served.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth, client_for
from tui.emulator.admin.routes import ADMIN_INDEX
from tui.emulator.http.fault_rules import FaultRuleError, rule_from_fields
from tui.emulator.http.fault_spec import fields_of_spec, rule_from_spec, spec_of_rule, specs_of_variable
from tui.emulator.service import Emulator

ADMIN = "emu-" + "0f" * 16
TEAMS = ("alpha", "beta")


@pytest.fixture
async def emulator(make_emulator: Callable[..., Emulator]) -> Emulator:
    return make_emulator(admin_token=ADMIN)


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(emulator) as c:
        yield c


async def add(client: httpx.AsyncClient, **rule: Any) -> dict[str, Any]:
    answer = await client.post("/_emulator/faults", json=rule, headers=auth(ADMIN))
    assert answer.status_code == 201, answer.text
    return answer.json()["rule"]


async def test_a_rule_is_added_listed_with_its_firings_removed_and_cleared(client: httpx.AsyncClient) -> None:
    first = await add(client, method="get", path="/v2/team/*", status=503, retry_after=4)
    second = await add(client, path="/v2/crawl", latency=[0, 1])
    assert (first["id"], second["id"]) == (1, 2)
    assert first["method"] == "GET" and first["retry_after"] == 4 and first["fired"] == 0
    refused = await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "4"
    assert refused.json() == {"success": False, "error": refused.json()["error"], "code": "SERVICE_UNAVAILABLE"}
    assert refused.headers["X-Emulator-Fault"] == "1"
    listed = (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"]
    assert [(rule["id"], rule["fired"]) for rule in listed] == [(1, 1), (2, 0)]
    assert (await client.delete("/_emulator/faults/1", headers=auth(ADMIN))).json()["removed"]["id"] == 1
    gone = await client.delete("/_emulator/faults/1", headers=auth(ADMIN))
    assert gone.status_code == 404 and gone.json()["code"] == "FAULT_RULE_NOT_FOUND"
    assert (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).status_code == 200
    assert (await client.delete("/_emulator/faults", headers=auth(ADMIN))).json()["removed"] == 1
    assert (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"] == []


def test_the_routes_are_in_the_admin_index() -> None:
    assert {"GET /_emulator/faults", "POST /_emulator/faults", "DELETE /_emulator/faults/{id}"} <= set(ADMIN_INDEX)


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ({"path": "/v2/x", "status": 418}, "status 418 is not one a rule answers: use one of 429, 500, 502, 503, 504"),
        ({"path": "/v2/x", "status": 500, "p": 0}, "p must be above 0 and at most 1"),
        ({"path": "/v2/x", "status": 500, "p": 1.5}, "p must be above 0 and at most 1"),
        ({"path": "v2/x", "status": 500}, "path 'v2/x' must start with /"),
        ({"path": "/v2/a b", "status": 500}, "without spaces"),
        ({"path": "/_emulator/*", "status": 500}, "faults never touch the admin prefix"),
        (
            {"path": "/v2/x", "status": 500, "team": "gamma"},
            "team 'gamma' is not a team of this emulator (its teams: alpha, beta)",
        ),
        ({"path": "/v2/x"}, "no effect given"),
        ({"path": "/v2/x", "method": "FETCH", "status": 500}, "method 'FETCH' is not a method"),
        ({"path": "/v2/x", "status": 500, "times": 0}, "times must be a whole number from 1"),
        ({"path": "/v2/x", "status": 500, "retry_after": 3}, "retry_after goes with status 429 or 503"),
        ({"path": "/v2/x", "latency": [800, 200]}, "the smaller end first"),
        ({"path": "/v2/x", "latency": "soon"}, "latency 'soon' must be milliseconds"),
        ({"path": "/v2/x", "cut": "100%"}, "must keep less than 100% of the body"),
        ({"path": "/v2/x", "slow": 0}, "slow 0 must be bytes per second"),
        ({"path": "/v2/x", "reset": True, "status": 503}, "reset ends the connection before any answer"),
        ({"path": "/v2/x", "stauts": 503}, "unknown field 'stauts'"),
    ],
)
async def test_each_bad_field_is_a_400_that_says_what_is_accepted(
    client: httpx.AsyncClient, rule: dict[str, Any], said: str
) -> None:
    answer = await client.post("/_emulator/faults", json=rule, headers=auth(ADMIN))
    assert answer.status_code == 400 and answer.json()["code"] == "BAD_REQUEST"
    assert said in answer.json()["error"] and answer.json()["error"].startswith("Invalid fault rule: ")


async def test_the_admin_prefix_is_never_faulted_even_by_a_rule_for_every_path(client: httpx.AsyncClient) -> None:
    await add(client, method="*", path="*", status=500)
    for _ in range(3):
        assert (await client.get("/_emulator/faults", headers=auth(ADMIN))).status_code == 200
        assert (await client.get("/_emulator/", headers=auth(ADMIN))).status_code == 200
    assert (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).status_code == 500
    assert (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"][0]["fired"] == 1


async def test_a_rule_for_a_team_leaves_other_teams_and_methods_alone(client: httpx.AsyncClient) -> None:
    await add(client, method="GET", path="/v2/team/activity", team="beta", status=502)
    assert (await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).status_code == 200
    assert (await client.get("/v2/team/activity", headers=auth(BETA_KEY))).status_code == 502
    assert (await client.post("/v2/team/activity", headers=auth(BETA_KEY))).status_code == 405


async def test_times_spends_a_rule_fail_twice_then_succeed(client: httpx.AsyncClient) -> None:
    await add(client, path="/v2/team/activity", status=429, times=2)
    statuses = [(await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).status_code for _ in range(4)]
    assert statuses == [429, 429, 200, 200]
    rule = (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"][0]
    assert (rule["fired"], rule["spent"], rule["retry_after"]) == (2, True, 1)


async def probability_run(make_emulator: Callable[..., Emulator], seed: int) -> list[int]:
    emulator = make_emulator(admin_token=ADMIN, seed=seed)
    async with client_for(emulator) as client:
        await add(client, path="/v2/team/*", status=503, p=0.5)
        return [(await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).status_code for _ in range(40)]


async def test_the_probability_is_rolled_with_the_emulators_seed(make_emulator: Callable[..., Emulator]) -> None:
    first, again = await probability_run(make_emulator, 7), await probability_run(make_emulator, 7)
    assert first == again  # the same seed, the same faults
    assert 10 <= first.count(503) <= 30 and set(first) == {200, 503}
    assert await probability_run(make_emulator, 8) != first


async def test_in_process_a_reset_and_a_cut_raise_what_httpx_raises_on_a_socket(client: httpx.AsyncClient) -> None:
    await add(client, method="GET", path="/v2/crawl/active", reset=True)
    await add(client, method="GET", path="/v2/team/activity", cut=10)
    with pytest.raises(httpx.ReadError, match="Connection reset by peer"):
        await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))
    with pytest.raises(httpx.RemoteProtocolError, match="received 10 bytes"):
        await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))


async def test_the_support_endpoints_answer_a_fault_in_their_own_shape(client: httpx.AsyncClient) -> None:
    await add(client, path="/v2/support/*", status=504)
    answer = await client.post("/v2/support/ask", json={"question": "why?"}, headers=auth(ALPHA_KEY))
    assert answer.status_code == 504 and set(answer.json()) == {"error"}


@pytest.mark.parametrize(
    "spec",
    [
        "POST /v2/crawl status=429 retry_after=2 p=0.5 team=alpha times=3",
        "GET /v2/team/* latency=200-800",
        "* /v2/scrape reset",
        "/v2/map cut=50%",
        "GET /v2/crawl/* slow=64B/s latency=100",
        "* status=503 retry_after=5",
    ],
)
def test_a_spec_reads_back_as_the_same_rule_and_maps_to_the_json_fields(spec: str) -> None:
    rule = rule_from_spec(spec, TEAMS)
    assert rule_from_spec(spec_of_rule(rule), TEAMS) == rule
    assert rule_from_fields(_fields(rule), TEAMS) == rule


def _fields(rule: Any) -> dict[str, Any]:
    """A rule's listing as a JSON body again (without what the emulator adds)."""
    return {k: v for k, v in rule.as_json().items() if k not in ("id", "fired", "spent")}


def test_the_spec_words() -> None:
    assert fields_of_spec("/v2/map cut") == {"path": "/v2/map", "cut": True}
    assert rule_from_spec("/v2/map cut").cut == "50%"
    assert fields_of_spec("* reset") == {"path": "*", "reset": True}
    assert fields_of_spec("* * latency=5") == {"method": "*", "path": "*", "latency": "5"}
    assert specs_of_variable("GET /v2/* status=503;\n POST /v2/crawl reset ;;") == [
        "GET /v2/* status=503",
        "POST /v2/crawl reset",
    ]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("", "the rule is empty"),
        ("GET status=503", "the path is missing"),
        ("GET /v2/x statis=503", "unknown key 'statis'"),
        ("GET /v2/x 503", "'503' is not key=value"),
        ("GET /v2/x status=503 status=500", "status is given twice"),
        ("GET /v2/x path=/v2/y status=503", "path is written first"),
        ("GET /v2/x status=503 team=gamma", "team 'gamma' is not a team"),
    ],
)
def test_a_bad_spec_says_what_is_wrong(spec: str, said: str) -> None:
    with pytest.raises(FaultRuleError, match=said):
        rule_from_spec(spec, TEAMS)


async def test_a_body_sent_during_a_latency_still_reaches_the_route(client: httpx.AsyncClient) -> None:
    await add(client, method="POST", path="/v2/map", latency=50)
    answer = await client.post("/v2/map", json={"url": "https://example.com", "limit": 3}, headers=auth(ALPHA_KEY))
    assert answer.status_code == 200 and len(answer.json()["links"]) == 3
    assert answer.headers["X-Emulator-Fault"] == "1"


async def test_rules_apply_in_the_order_they_were_added_and_the_first_that_fires_wins(
    client: httpx.AsyncClient,
) -> None:
    first = await add(client, method="GET", path="/v2/team/activity", status=503, times=1)
    second = await add(client, path="/v2/team/*", status=500)
    statuses = [(await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))).status_code for _ in range(3)]
    assert statuses == [503, 500, 500]
    listed = (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"]
    assert [(rule["id"], rule["fired"]) for rule in listed] == [(first["id"], 1), (second["id"], 2)]
