"""The embedded emulator signs webhooks with the dashboard's `WDS_WEBHOOK_SECRET`.

The child inherits the dashboard's environment, so the emulator the dashboard
starts and the dashboard's webhook inbox share one secret with nothing to set twice.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.support.webhook_receiver import ThreadedReceiver
from tui.api.webhooks import verify_signature
from tui.dashboard.startup.embedded_emulator import LocalEmulator
from tui.emulator.jobs.webhooks import SECRET_VARIABLE

pytestmark = pytest.mark.socket
SECRET = "whsec-embedded-9c1f"


def test_the_embedded_emulator_signs_with_the_dashboards_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_VARIABLE, SECRET)
    with ThreadedReceiver() as receiver, LocalEmulator.start(seed=7, log_path=tmp_path / "emulator.log") as running:
        response = httpx.post(
            f"{running.base_url}/v2/crawl",
            timeout=30,
            json={"url": "https://example.com/", "limit": 2, "webhook": receiver.url},
            headers={"Authorization": f"Bearer {running.api_key}"},
        )
        assert response.status_code == 200, response.text
        # The first delivery is the crawl's start; its pages may follow before we look.
        delivery = receiver.wait_for(1)[0]
        environ = Path(f"/proc/{running.process.pid}/environ").read_bytes()
    assert verify_signature(delivery.body, delivery.headers["x-service-signature"], SECRET)
    assert delivery.json["type"] == "crawl.started" and delivery.json["id"] == response.json()["id"]
    assert SECRET.encode() not in environ, "read once, then gone: browser sessions run callers' code"
