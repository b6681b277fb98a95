"""The README's "Job states under your control" does what it says: each curl example, run through the routes.

Every `curl` line of its shell block is read (method, body, path), `$JOB` becomes a
crawl of team `default` started for it, and the answer must be a success of the
shape the section describes.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from tests.emulator.job_control_service import ADMIN_TOKEN, SITE
from tests.support.emulator_teams import START, auth, client_for
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

README = Path(__file__).resolve().parents[2] / "README.md"
KEY = "wds-" + "de" * 16
JOB_FIELDS = {"id", "kind", "team", "state", "steerable", "completed", "total", "mode", "polls", "heldSince"}


def section() -> str:
    text = README.read_text()
    return text.split("\n### Job states under your control\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def curl_commands() -> list[tuple[str, str, Any]]:
    """(method, path, JSON body or None) of each curl example, in order."""
    block = section().split("```sh\n", 1)[1].split("```", 1)[0].replace("\\\n", " ")
    commands = []
    for line in block.splitlines():
        if not line.startswith("curl "):
            continue
        words = shlex.split(line)
        method = words[words.index("-X") + 1] if "-X" in words else "GET"
        body = json.loads(words[words.index("-d") + 1]) if "-d" in words else None
        url = next(word for word in words if word.startswith("$E/"))
        commands.append((method, url.removeprefix("$E"), body))
    return commands


def test_the_section_shows_every_route_and_documents_the_job_view() -> None:
    shown = {(method, re.sub(r"\$JOB", "{id}", path)) for method, path, _ in curl_commands()}
    assert shown == {
        ("PUT", "/_emulator/teams/default/progression"),
        ("PUT", "/_emulator/jobs/{id}/progression"),
        ("POST", "/_emulator/jobs/{id}/transition"),
        ("GET", "/_emulator/jobs/{id}"),
        ("GET", "/_emulator/progression"),
    }
    assert all(f'"{name}"' in section() for name in JOB_FIELDS)


async def test_every_curl_example_succeeds_through_the_routes() -> None:
    emulator = Emulator.from_keys(
        {"default": [KEY]}, seed=3, clock=ManualClock(START), history=False, admin_token=ADMIN_TOKEN
    )
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    async with client_for(emulator) as http:
        for method, path, body in curl_commands():
            started = await http.post("/v2/crawl", json={"url": SITE, "limit": 3}, headers=auth(KEY))
            job = started.json()["id"]
            answer = await http.request(method, path.replace("$JOB", job), json=body, headers=admin)
            assert answer.status_code == 200 and answer.json()["success"] is True, (method, path, answer.text)
            if "job" in answer.json():
                assert set(answer.json()["job"]) == JOB_FIELDS
        # The examples' effects: the team holds its new crawls; the failed move carries its error.
        assert (await http.get(f"/v2/crawl/{job}", headers=auth(KEY))).json()["status"] == "scraping"
        moved = next(body for method, _, body in curl_commands() if method == "POST")
        await http.post(f"/_emulator/jobs/{job}/transition", json=moved, headers=admin)
        errors = (await http.get(f"/v2/crawl/{job}/errors", headers=auth(KEY))).json()["errors"]
    await emulator.aclose()
    assert [error["error"] for error in errors] == [moved["error"]]
