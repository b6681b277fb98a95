"""`wds-tui watch` as a real process on a served emulator: a failed job raises an alert that the log,
a notify command and a webhook receiver on loopback each see once, then repeated, then resolved."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import served_emulator
from tests.support.webhook_receiver import ThreadedReceiver
from tests.watch.watch_process import KEY, NOTIFY_SCRIPT, call, watching, write_config

pytestmark = pytest.mark.socket

HOST = "shop.alerts.test"
"""The only host the test's rule counts: the seeded history's failures elsewhere stay out of it."""
REPEAT_SECONDS = 3
WINDOW_SECONDS = 9


def config(base_url: str, home: Path, hook: str) -> Path:
    script = home / "notify.py"
    script.write_text(NOTIFY_SCRIPT)
    return write_config(
        home,
        f"""current = "emu"

[contexts.emu]
base_url = "{base_url}"

[contexts.emu.alerts.job_failed]
count = 1
window_minutes = {WINDOW_SECONDS / 60}
repeat_minutes = {REPEAT_SECONDS / 60}
hosts = ["{HOST}"]

[contexts.emu.alerts.delivery]
command = [{json.dumps(sys.executable)}, {json.dumps(str(script))}, {json.dumps(str(home / "notified.jsonl"))}]
webhooks = [{{ url = "{hook}", form = "json" }}]
""",
    )


def states(notices: list[dict[str, object]]) -> list[object]:
    """What happened to the test's alert, in order, with the repeats folded into one."""
    seen: list[object] = []
    for notice in notices:
        if notice["rule"] == "job_failed" and notice["subject"] == HOST and (not seen or seen[-1] != notice["state"]):
            seen.append(notice["state"])
    return seen


def test_a_failed_job_fires_repeats_and_resolves_in_the_log_the_command_and_the_webhook(tmp_path: Path) -> None:
    with served_emulator(KEY, 3) as base_url, ThreadedReceiver() as receiver:
        config(base_url, tmp_path, receiver.url)
        with watching(tmp_path, "--refresh", "1") as watch:
            watch.wait_for(lambda line: line["event"] == "watching")
            failed = call(base_url, "POST", "/v2/scrape", json={"url": f"https://{HOST}/gone/1"}).json()
            assert failed["data"]["metadata"]["statusCode"] == 404
            fired = watch.wait_for(lambda line: line["event"] == "alert" and line["subject"] == HOST)
            started = time.monotonic()
            resolved = watch.wait_for(
                lambda line: line["event"] == "alert" and line["subject"] == HOST and line["what"] == "resolved",
                seconds=WINDOW_SECONDS + 20,
            )
            assert time.monotonic() - started >= WINDOW_SECONDS - 2
            watch.wait_for(
                lambda line: (
                    line["event"] == "delivery" and line.get("subject") == HOST and line.get("state") == "resolved"
                )
            )
            assert watch.stop() == 0
        lines = watch.lines()
    assert fired["what"] == "fired" and fired["context"] == "emu" and fired["rule"] == "job_failed"
    assert fired["target"]["kind"] == "job" and "1 job failed" in fired["sentence"]
    assert resolved["target"] == fired["target"]
    logged = [line for line in lines if line["event"] == "alert" and line["subject"] == HOST]
    assert [line["what"] for line in logged][0] == "fired" and logged[-1]["what"] == "resolved"
    assert "repeated" in [line["what"] for line in logged]
    assert states([{**line, "state": line["what"]} for line in logged]) == ["fired", "repeated", "resolved"]

    commanded = [json.loads(line) for line in (tmp_path / "notified.jsonl").read_text().splitlines()]
    posted = [hook.json for hook in receiver.received]
    for notices in (commanded, posted):
        assert states(notices) == ["fired", "repeated", "resolved"]
        ours = [notice for notice in notices if notice["subject"] == HOST]
        assert [notice["state"] for notice in ours].count("fired") == 1
        assert [notice["state"] for notice in ours].count("resolved") == 1
        assert ours[0]["context"] == "emu"
    deliveries = [line for line in lines if line["event"] == "delivery" and line.get("subject") == HOST]
    assert deliveries and all(line["ok"] for line in deliveries)
    assert {line["outlet"].split()[0] for line in deliveries} == {"command", "webhook"}
    assert all(receiver.url not in json.dumps(line) for line in lines)  # the hook's URL is a secret
    assert lines[-1]["event"] == "stop" and lines[-1]["reason"] == "SIGTERM"
