"""Webhook signatures (HMAC-SHA256 over the raw body) and typed events."""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from tui.api import errors
from tui.api.webhooks import SIGNATURE_HEADER, CrawlStartedEvent, WebhookEvent, parse_event, sign, verify_signature

SECRET = "whsec-test-secret"
EVENT = {
    "success": True,
    "type": "crawl.started",
    "id": "7f3e4b2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
    "webhookId": "0b9f5a4c-3d2e-4f1a-9b8c-7d6e5f4a3b2c",
    "data": [],
    "metadata": {"run": "nightly"},
}
BODY = json.dumps(EVENT).encode()


def test_sign_is_hmac_sha256_hex() -> None:
    expected = hmac.new(SECRET.encode(), BODY, hashlib.sha256).hexdigest()
    assert sign(BODY, SECRET) == f"sha256={expected}"
    assert sign(BODY, SecretStr(SECRET)) == sign(BODY, SECRET.encode())


def test_valid_signature() -> None:
    assert verify_signature(BODY, sign(BODY, SECRET), SECRET)
    assert verify_signature(BODY, sign(BODY, SECRET).upper().replace("SHA256=", "sha256="), SECRET)


def test_tampered_body() -> None:
    tampered = BODY.replace(b"nightly", b"hourly")
    assert not verify_signature(tampered, sign(BODY, SECRET), SECRET)


def test_reserialised_body_does_not_verify() -> None:
    # the signature is over the raw bytes: a receiver must not re-encode the JSON
    assert not verify_signature(json.dumps(EVENT, indent=2).encode(), sign(BODY, SECRET), SECRET)


def test_wrong_secret() -> None:
    assert not verify_signature(BODY, sign(BODY, "another-secret"), SECRET)


@pytest.mark.parametrize("header", [None, "", "   "])
def test_missing_header(header: str | None) -> None:
    assert not verify_signature(BODY, header, SECRET)


@pytest.mark.parametrize(
    "header",
    ["abc", "sha1=" + "0" * 64, "sha256=" + "0" * 63, "sha256=" + "g" * 64, "sha256=", "sha256=" + "0" * 64 + "00"],
)
def test_malformed_header(header: str) -> None:
    assert not verify_signature(BODY, header, SECRET)


def test_empty_secret_is_a_configuration_error() -> None:
    with pytest.raises(ValueError, match="secret is empty"):
        sign(BODY, "")


def test_parse_crawl_started() -> None:
    event = parse_event(BODY, {SIGNATURE_HEADER: sign(BODY, SECRET)}, secret=SECRET)
    assert isinstance(event, CrawlStartedEvent)
    assert event.id == EVENT["id"] and event.webhook_id == EVENT["webhookId"]
    assert event.data == [] and event.metadata == {"run": "nightly"}


def test_header_lookup_ignores_case() -> None:
    event = parse_event(BODY, {"x-service-signature": sign(BODY, SECRET)}, secret=SECRET)
    assert isinstance(event, CrawlStartedEvent)


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({}, "has no X-Service-Signature header"),
        ({SIGNATURE_HEADER: "sha256=nothex"}, "not of the form sha256=<64 hex digits>"),
        ({SIGNATURE_HEADER: sign(BODY, "wrong")}, "does not match the body"),
    ],
)
def test_parse_rejects_bad_signatures(headers: dict[str, str], reason: str) -> None:
    with pytest.raises(errors.WebhookSignatureError, match=reason):
        parse_event(BODY, headers, secret=SECRET)


def test_parse_rejects_tampered_body() -> None:
    with pytest.raises(errors.WebhookSignatureError):
        parse_event(BODY.replace(b"nightly", b"hourly"), {SIGNATURE_HEADER: sign(BODY, SECRET)}, secret=SECRET)


def test_without_a_secret_the_signature_is_not_checked() -> None:
    assert isinstance(parse_event(BODY, {}), CrawlStartedEvent)


def test_other_event_types_are_generic_and_keep_their_fields() -> None:
    page = {
        "success": True,
        "type": "crawl.page",
        "id": EVENT["id"],
        "webhookId": "w2",
        "data": [{"markdown": "# A"}],
        "pageNumber": 3,
    }
    event = parse_event(json.dumps(page).encode(), {})
    assert type(event) is WebhookEvent
    assert event.type == "crawl.page" and event.data == [{"markdown": "# A"}]
    assert event.model_extra == {"pageNumber": 3}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "JSON list, not an object"),
        (json.dumps({"type": "crawl.started", "id": "x"}).encode(), "webhookId: Field required"),
        (json.dumps({**EVENT, "data": {"not": "a list"}}).encode(), "data"),
    ],
)
def test_bad_payloads(body: bytes, reason: str) -> None:
    with pytest.raises(errors.WebhookPayloadError, match=reason):
        parse_event(body, {})


def test_webhooks_import_without_httpx() -> None:
    # the emulator signs deliveries with sign(); it must not drag in the HTTP client
    code = "import sys, tui.api.webhooks; sys.exit(1 if 'httpx' in sys.modules else 0)"
    repo_root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], check=False, cwd=repo_root).returncode == 0
