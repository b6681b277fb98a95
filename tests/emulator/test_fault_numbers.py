"""Numbers a fault rule refuses with one line (a spec) or a 400 (the admin route), never a traceback.

inf, nan, numbers too large for a float, and digit strings too long for int() once raised
OverflowError or ValueError out of `rule_from_fields`: a traceback from `--fault`, a 500 from
`POST /_emulator/faults`. Each is now a `FaultRuleError` that says what the field accepts.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest

from tests.support.emulator_teams import auth, client_for
from tui.emulator.http.fault_rules import FaultRuleError
from tui.emulator.http.fault_spec import fault_rules_of
from tui.emulator.service import Emulator

ADMIN = "emu-" + "0f" * 16
REPO = Path(__file__).resolve().parents[2]
LONG_DIGITS = "9" * 5000  # past the 4300 digits int() converts
TIMES = "times must be a whole number from 1 to 1000000"
RETRY_AFTER = "retry_after must be a whole number from 0 to 3600"
LATENCY = "latency must be milliseconds from 0 to 120000"
STATUS = "status must be one of 429, 500, 502, 503, 504"
P = "p must be above 0 and at most 1"


def _short(value: object) -> str:
    """A test id that does not repeat a 5000-digit value."""
    return str(value) if len(str(value)) <= 60 else str(value)[:60] + "..."


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("GET /v2/* status=503 times=inf", TIMES + " (the rule applies to that many matching requests, then is spent)"),
        ("GET /v2/* status=503 times=nan", TIMES),
        ("GET /v2/* status=503 times=1e400", TIMES),
        (f"GET /v2/* status=503 times={LONG_DIGITS}", TIMES),
        ("GET /v2/* status=503 times=1e7", TIMES),
        ("POST /v2/scrape status=429 retry_after=1e400", RETRY_AFTER),
        ("POST /v2/scrape status=503 retry_after=nan", RETRY_AFTER),
        ("POST /v2/scrape status=503 retry_after=-inf", RETRY_AFTER),
        ("GET /v2/* status=nan", STATUS),
        ("GET /v2/* status=inf", STATUS),
        ("GET /v2/* status=503 p=nan", P),
        ("GET /v2/* status=503 p=inf", P),
        (f"GET /v2/* slow={LONG_DIGITS}", "must be bytes per second from 1 to 10000000"),
        (f"GET /v2/* cut={LONG_DIGITS}", "must be the bytes of the body to send, from 0 to 1000000000"),
        ("GET /v2/* cut=2000000000", "from 0 to 1000000000"),
    ],
    ids=_short,
)
def test_a_spec_with_a_bad_number_is_one_line_that_says_what_is_accepted(spec: str, said: str) -> None:
    with pytest.raises(FaultRuleError) as refused:
        fault_rules_of([spec], None, ["alpha"])
    message = str(refused.value)
    assert message.startswith("--fault ") and said in message and "\n" not in message


def test_the_command_line_answers_a_bad_number_with_one_line_and_exit_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui.emulator", "--fault", "GET /v2/* times=inf status=503"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=REPO,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert TIMES in result.stderr and result.stderr.count("\n") == 1


@pytest.fixture
async def client(make_emulator: Callable[..., Emulator]) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(make_emulator(admin_token=ADMIN)) as c:
        yield c


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('{"path": "/v2/x", "status": 503, "times": "inf"}', TIMES),
        ('{"path": "/v2/x", "status": 503, "times": "nan"}', TIMES),
        ('{"path": "/v2/x", "status": 503, "times": 1e400}', TIMES),
        ('{"path": "/v2/x", "status": 503, "times": 1' + "0" * 400 + "}", TIMES + " (the rule applies"),
        ('{"path": "/v2/x", "status": "503", "retry_after": "nan"}', RETRY_AFTER),
        ('{"path": "/v2/x", "status": 429, "retry_after": 1e400}', RETRY_AFTER),
        ('{"path": "/v2/x", "status": 1e400}', STATUS),
        ('{"path": "/v2/x", "status": 503, "p": "nan"}', P),
        ('{"path": "/v2/x", "latency": [1e400, 1e400]}', LATENCY),
        ('{"path": "/v2/x", "latency": ["nan", 5]}', LATENCY),
        ('{"path": "/v2/x", "slow": 1' + "0" * 400 + "}", "slow a 1329-bit number must be bytes per second"),
        ('{"path": "/v2/x", "cut": "' + LONG_DIGITS + '"}', "must be the bytes of the body to send"),
    ],
    ids=_short,
)
async def test_a_posted_bad_number_is_a_400_that_says_what_is_accepted(
    client: httpx.AsyncClient, body: str, said: str
) -> None:
    answer = await client.post(
        "/_emulator/faults", content=body, headers={**auth(ADMIN), "Content-Type": "application/json"}
    )
    assert answer.status_code == 400, answer.text[:300]
    assert answer.json()["code"] == "BAD_REQUEST" and said in answer.json()["error"]
    assert len(answer.json()["error"]) < 400  # a 5000-digit value is not echoed whole
    assert (await client.get("/_emulator/faults", headers=auth(ADMIN))).json()["rules"] == []
