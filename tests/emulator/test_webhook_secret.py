"""Where `wds-tui emulator` takes its webhook signing secret from, and what it says about it.

The secret comes from `--webhook-secret` or `WDS_WEBHOOK_SECRET` (the variable
the dashboard's inbox verifies with). It is never printed, and the variable is
gone from the process's environment once read (browser sessions run callers' code).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from tests.emulator.test_cli import proc_text, run_module, start_emulator, stop
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


class _Recorder(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[tuple[dict[str, str], bytes]]]]:
    received: list[tuple[dict[str, str], bytes]] = []
    handler = type("Recorder", (_Recorder,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks", received
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.socket
def test_the_secret_from_the_environment_signs_batch_events_and_leaves_the_environment(
    receiver: tuple[str, list[tuple[dict[str, str], bytes]]],
) -> None:
    url, received = receiver
    env = {**os.environ, SECRET_VARIABLE: SECRET}
    process, base_url, text = start_emulator("--api-key", KEY, env=env)
    try:
        assert SECRET not in text and "Webhooks: signed" in text
        assert SECRET not in proc_text(process.pid, "environ") and SECRET not in proc_text(process.pid, "cmdline")
        response = httpx.post(f"{base_url}/v2/batch/scrape", timeout=10,
                              json={"urls": ["https://example.com/"], "webhook": {"url": url, "metadata": {"a": 1}}},
                              headers={"Authorization": f"Bearer {KEY}"})
        assert response.status_code == 200, response.text
        for _ in range(100):
            if received:
                break
            threading.Event().wait(0.05)
    finally:
        stop(process)
    headers, body = received[0]
    assert verify_signature(body, headers["x-service-signature"], SECRET)
    event = json.loads(body)
    assert event["type"] == "batch_scrape.started" and event["id"] == response.json()["id"]
    assert event["metadata"] == {"a": 1}
