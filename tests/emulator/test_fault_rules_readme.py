"""The README's "Fault rules" examples work as written: each curl through the real admin routes, each spec read."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import httpx

from tui.emulator.cli import add_arguments
from tui.emulator.http.app import create_app
from tui.emulator.http.fault_spec import fault_rules_of, specs_of_variable
from tui.emulator.service import Emulator

README = Path(__file__).resolve().parents[2] / "README.md"
ADMIN = "emu-" + "0f" * 16
TEAMS = ["acme", "local"]


def section() -> str:
    text = README.read_text()
    emulator = text.split("\n## The emulator\n", 1)[1].split("\n## ", 1)[0]
    return emulator.split("\n### Fault rules\n", 1)[1].split("\n### ", 1)[0]


def commands(start: str) -> list[list[str]]:
    """The shell commands of the section's code blocks that start with `start`, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", section(), re.DOTALL)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    return [shlex.split(line, comments=True) for line in lines if line.strip().startswith(start)]


def curl_request(words: list[str]) -> tuple[str, str, str | None]:
    """(method, path, body) of a README curl, as curl would send it."""
    method, body, url = None, None, ""
    rest = iter(words[1:])
    for word in rest:
        if word == "-X":
            method = next(rest)
        elif word == "-d":
            body = next(rest)
        elif word == "-H":
            assert next(rest) == "Authorization: Bearer $ADMIN"
        else:
            url = word
    assert url.startswith("$E/_emulator/"), url
    return method or ("POST" if body is not None else "GET"), url.removeprefix("$E"), body


async def test_every_curl_of_the_section_works_against_the_routes_in_order() -> None:
    emulator = Emulator.from_keys({"acme": ["wds-" + "ac" * 16], "local": ["wds-" + "1c" * 16]}, admin_token=ADMIN)
    transport = httpx.ASGITransport(app=create_app(emulator))
    curls = commands("curl ")
    assert len(curls) >= 12
    added: list[dict[str, object]] = []
    async with httpx.AsyncClient(transport=transport, base_url="http://e") as client:
        for words in curls:
            method, path, body = curl_request(words)
            answer = await client.request(method, path, content=body, headers={"Authorization": f"Bearer {ADMIN}"})
            assert answer.status_code in (200, 201), (words, answer.text)
            if body is not None:
                added.append(answer.json()["rule"])
            if method == "GET":
                assert len(answer.json()["rules"]) == len(added)
    effects = {name for rule in added for name in ("status", "latency", "reset", "cut", "slow") if name in rule}
    assert effects == {"status", "latency", "reset", "cut", "slow"}
    assert {rule["status"] for rule in added if "status" in rule} == {429, 503, 500, 504}
    assert len(emulator.faults) == 0  # the last curl cleared them


def test_the_command_line_and_the_variable_examples_are_read() -> None:
    (emulator_command,) = commands(".venv/bin/wds-tui emulator")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(emulator_command[2:])
    assert len(fault_rules_of(args.fault, None, TEAMS)) == len(args.fault) == 5
    (dashboard_command,) = commands("WDS_EMULATOR_FAULTS=")
    value = dashboard_command[0].partition("=")[2]
    assert len(specs_of_variable(value)) == 2
    assert len(fault_rules_of([], value, TEAMS)) == 2
