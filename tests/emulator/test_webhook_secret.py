"""Where `wds-tui emulator` takes its webhook signing secret from, and what it says about it.

The secret comes from `--webhook-secret` or `WDS_WEBHOOK_SECRET` (the variable
the dashboard's inbox verifies with). It is never printed, and the variable is
gone from the process's environment once read (browser sessions run callers' code).
"""

from __future__ import annotations

import os

import httpx
import pytest

from tests.emulator.test_cli import proc_text, run_module, start_emulator, stop
from tests.support.webhook_receiver import ThreadedReceiver
from tui.api.webhooks import verify_signature
from tui.emulator.cli import banner
from tui.emulator.jobs.webhooks import SECRET_VARIABLE
from tui.emulator.service import Emulator

SECRET = "whsec-from-the-environment-5e3a"
KEY = "wds-" + "7" * 32


def test_the_banner_says_whether_webhooks_are_signed_but_never_the_secret() -> None:
    unsigned = banner("http://127.0.0.1:4000", Emulator.from_keys({"ops": [KEY]}, history=False), live=False)
    assert f"Webhooks: unsigned; set ${SECRET_VARIABLE}" in unsigned
    signed_emulator = Emulator.from_keys({"ops": [KEY]}, history=False, webhook_secret=SECRET)
    signed = banner("http://127.0.0.1:4000", signed_emulator, live=False)
    assert "Webhooks: signed (X-Service-Signature)" in signed and SECRET not in signed


def test_a_blank_secret_in_the_environment_exits_2() -> None:
    result = run_module("--port", "0", env={**os.environ, SECRET_VARIABLE: "  "})
    assert result.returncode == 2 and f"{SECRET_VARIABLE} is empty" in result.stderr


@pytest.mark.socket
def test_the_secret_from_the_environment_signs_batch_events_and_leaves_the_environment() -> None:
    env = {**os.environ, SECRET_VARIABLE: SECRET}
    with ThreadedReceiver() as receiver:
        process, base_url, text = start_emulator("--api-key", KEY, env=env)
        try:
            assert SECRET not in text and "Webhooks: signed" in text
            assert SECRET not in proc_text(process.pid, "environ") + proc_text(process.pid, "cmdline")
            body = {"urls": ["https://example.com/"], "webhook": {"url": receiver.url, "metadata": {"a": 1}}}
            response = httpx.post(
                f"{base_url}/v2/batch/scrape", json=body, timeout=10, headers={"Authorization": f"Bearer {KEY}"}
            )
            assert response.status_code == 200, response.text
            [delivery] = receiver.wait_for(1)
        finally:
            stop(process)
    assert verify_signature(delivery.body, delivery.headers["x-service-signature"], SECRET)
    event = delivery.json
    assert event["type"] == "batch_scrape.started" and event["id"] == response.json()["id"]
    assert event["metadata"] == {"a": 1}
