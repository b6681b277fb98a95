"""One notice to every configured outlet, each outcome reported; read-only mode sends nothing outside unless allowed."""

from __future__ import annotations

import asyncio
import json
import sys
import tomllib
from pathlib import Path

import httpx
import pytest

from tests.monitor.notices import notice
from tests.support.webhook_receiver import Receiver
from tui.monitor.delivery.deliverer import Deliverer, DeliveryConfig, shown_hooks
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.delivery.outlet_queue import Outcome

pytestmark = pytest.mark.socket


def config(receiver: Receiver, got: Path, **options: object) -> DeliveryConfig:
    script = f"import sys; open({str(got)!r}, 'a').write(sys.stdin.read())"
    return DeliveryConfig.model_validate(
        {
            "command": [sys.executable, "-c", script],
            "webhooks": [
                {"url": receiver.url + "/slack/T01/B02/hookSECRET", "form": "slack"},
                {"url": receiver.url + "/ntfy/topic-9xQ2", "form": "ntfy"},
            ],
            **options,
        }
    )


async def test_a_notice_reaches_the_command_and_every_hook_and_each_outcome_is_told(tmp_path: Path) -> None:
    got = tmp_path / "got.jsonl"
    told: list[tuple[str, str, bool, str]] = []

    def on_outcome(outlet: str, item: AlertNotice, outcome: Outcome) -> None:
        told.append((outlet, item.state, outcome.ok, outcome.message))

    async with Receiver() as receiver, httpx.AsyncClient() as client:
        deliverer = Deliverer(config(receiver, got), client, on_outcome=on_outcome)
        delivery = deliverer.deliver(notice())
        await asyncio.wait_for(deliverer.drain(), 30)
        await deliverer.close()
    port = receiver.url.split(":")[2].split("/")[0]
    assert delivery.queued == (
        f"command {sys.executable}",
        f"webhook http://127.0.0.1:{port}/…CRET",
        f"webhook http://127.0.0.1:{port}/…9xQ2",
    )
    assert not delivery.suppressed and not delivery.dropped
    assert json.loads(got.read_text()) == notice().to_dict()
    assert sorted(r.path for r in receiver.received) == [
        "/hooks/crawl/ntfy/topic-9xQ2",
        "/hooks/crawl/slack/T01/B02/hookSECRET",
    ]
    assert sorted((outlet, state, ok) for outlet, state, ok, _ in told) == sorted(
        (name, "fired", True) for name in delivery.queued
    )
    assert [report.ok for report in deliverer.recent] == [True, True, True]
    assert not [message for *_, message in told if "SECRET" in message or "topic" in message]


async def test_read_only_fires_but_sends_nothing_outside(tmp_path: Path) -> None:
    got = tmp_path / "got.jsonl"
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        deliverer = Deliverer(config(receiver, got), client, read_only=True)
        delivery = deliverer.deliver(notice())
        await asyncio.wait_for(deliverer.drain(), 30)
        await deliverer.close()
    assert delivery.queued == () and delivery.suppressed == (
        "read-only: alerts are not sent outside (send_when_read_only = true sends them)"
    )
    assert receiver.received == [] and not got.exists()


async def test_read_only_sends_when_the_context_allows_it(tmp_path: Path) -> None:
    got = tmp_path / "got.jsonl"
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        deliverer = Deliverer(config(receiver, got, send_when_read_only=True), client, read_only=True)
        delivery = deliverer.deliver(notice(state="resolved"))
        await asyncio.wait_for(deliverer.drain(), 30)
        await deliverer.close()
    assert len(delivery.queued) == 3 and not delivery.suppressed
    assert len(receiver.received) == 2 and json.loads(got.read_text())["state"] == "resolved"


def test_hooks_are_listed_masked_and_a_config_names_no_unknown_key() -> None:
    settings = DeliveryConfig.model_validate(
        {"webhooks": [{"url": "https://hooks.slack.com/services/T01/B02/abcdXYZ1", "form": "slack"}]}
    )
    assert shown_hooks(settings) == ["https://hooks.slack.com/…XYZ1 (slack)"]
    assert "abcd" not in repr(settings)
    with pytest.raises(ValueError, match="send_when_readonly"):
        DeliveryConfig.model_validate({"send_when_readonly": True})


async def test_nothing_configured_is_nothing_sent() -> None:
    async with httpx.AsyncClient() as client:
        deliverer = Deliverer(DeliveryConfig(), client)
        assert deliverer.outlets == [] and deliverer.deliver(notice()).queued == ()


def test_the_readmes_delivery_table_is_read_as_written() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = readme.split("**Delivering alerts.**", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    table = tomllib.loads(block)["contexts"]["prod"]["alerts"]["delivery"]
    settings = DeliveryConfig.model_validate(table)
    assert settings.notification == "auto" and settings.bell and settings.command_timeout == 10
    assert [hook.form for hook in settings.webhooks] == ["slack", "ntfy", "json"]
    assert shown_hooks(settings)[1] == "https://ntfy.sh/…opic (ntfy)"
    assert DeliveryConfig().model_dump() == settings.model_dump() | {"command": [], "webhooks": []}
