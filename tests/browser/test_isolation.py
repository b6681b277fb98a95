"""The cross-team attack of issue 9, run from one team's execute against a real `wds-tui emulator`.

The emulator runs as its own process with every team's key on its command line
(the worst case: what `--api-key` does), two teams each open a session on real
Chromium, team beta opens a page with a secret title, and team alpha's code
looks for beta's key and page everywhere it can: every `/proc/*/cmdline` and
`environ` it can see, `DevToolsActivePort` files under `/tmp/wds-browser-*`,
and every listening TCP port in `/proc/net/tcp*` asked without a token for
`/json/list` and `/json/version` and, when something answers like DevTools,
for its pages' text. It must find neither.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.processes import emulator_with_banner
from tui.emulator.browser.sandbox import find_bwrap

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        find_bwrap() is None,
        reason="bubblewrap (bwrap) is not installed: sessions are not "
        "isolated here (the emulator says so), so there is no isolation to prove",
    ),
]

ALPHA_KEY = "wds-" + secrets.token_hex(16)
BETA_KEY = "wds-" + secrets.token_hex(16)

ATTACK = r"""
import glob, json, os, re, socket, urllib.request

found = {"cmdlines": [], "environ": [], "devtools_files": [], "ports": {}, "pages": []}
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    for name, key in (("cmdline", "cmdlines"), ("environ", "environ")):
        try:
            found[key].append(open(f"/proc/{pid}/{name}", "rb").read().decode(errors="replace"))
        except OSError:
            pass
for pattern in ("/tmp/wds-browser-*/sessions/*/DevToolsActivePort", "/tmp/**/DevToolsActivePort"):
    for path in glob.glob(pattern, recursive=True):
        found["devtools_files"].append(open(path).read())

ports = set()
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    for line in open(table).read().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A":
            ports.add(int(fields[1].rsplit(":", 1)[1], 16))

def get(url):
    try:
        with urllib.request.urlopen(url, timeout=1) as answer:
            return answer.status, answer.read(200_000).decode(errors="replace")
    except Exception as exc:
        return None, repr(exc)[:200]

for port in sorted(ports):
    answers = {path: get(f"http://127.0.0.1:{port}{path}") for path in ("/json/list", "/json/version")}
    found["ports"][port] = answers
    status, body = answers["/json/list"]
    if status == 200 and "webSocketDebuggerUrl" in body:
        # something that speaks DevTools without a token: read every page it offers
        for target in json.loads(body):
            if target.get("type") == "page":
                found["pages"].append(target.get("title", "") + " " + target.get("url", ""))
found["seen"] = {"pids": len(found["cmdlines"]), "ports": len(ports)}
print(json.dumps(found))
"""


@pytest.fixture
def emulator_url(chromium: Path) -> Iterator[str]:
    with emulator_with_banner("--no-traffic", "--api-key", f"alpha={ALPHA_KEY}", "--api-key", f"beta={BETA_KEY}") as (
        url,
        _,
        _,
    ):
        yield url


def test_one_teams_code_finds_neither_the_other_teams_key_nor_its_page(emulator_url: str) -> None:
    secret_title = "beta-secret-" + secrets.token_hex(8)
    with httpx.Client(base_url=emulator_url, timeout=120) as http:
        beta = {"Authorization": f"Bearer {BETA_KEY}"}
        alpha = {"Authorization": f"Bearer {ALPHA_KEY}"}
        beta_session = http.post("/v2/browser", json={"ttl": 300}, headers=beta).json()
        opened = http.post(
            f"/v2/browser/{beta_session['id']}/execute",
            headers=beta,
            json={
                "code": f"await page.set_content('<title>{secret_title}</title>')\nawait page.title()",
                "language": "python",
            },
        ).json()
        assert opened["result"] == secret_title, opened
        alpha_session = http.post("/v2/browser", json={"ttl": 300}, headers=alpha).json()
        attacked = http.post(
            f"/v2/browser/{alpha_session['id']}/execute",
            headers=alpha,
            json={"code": ATTACK, "language": "python", "timeout": 120},
        ).json()
        assert attacked["error"] is None, attacked
        loot = attacked["stdout"]
        found = json.loads(loot)
        # The attack ran: it read processes (its own sandbox's) and probed ports (in its own network
        # namespace: its forwarder to the browser at least; the emulator's are not there to find).
        assert found["seen"]["pids"] >= 1 and found["seen"]["ports"] >= 1, found["seen"]
        assert BETA_KEY not in loot and ALPHA_KEY not in loot
        assert secret_title not in loot
        assert found["devtools_files"] == []
        # found["pages"] may list pages of browsers that are not the emulator's (a developer's own
        # Chrome with a debugging port, other test runs on the machine): beta's is not among them.
        assert not any(secret_title in page for page in found["pages"])
        # and beta's page is still there for beta
        again = http.post(
            f"/v2/browser/{beta_session['id']}/execute",
            headers=beta,
            json={"code": "await page.title()", "language": "python"},
        ).json()
        assert again["result"] == secret_title
