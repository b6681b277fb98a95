"""Receiving the service's webhooks: signatures and typed events.

The service signs a delivery when the account has an HMAC secret:
`X-Service-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`. Verify over
the raw bytes as received (re-serialised JSON would not match) and compare in
constant time. `webhookId` stays the same on every retry of a delivery:
deduplicate on it.

    event = parse_event(await request.body(), request.headers, secret=SECRET)

This module needs neither httpx nor the client. Signing itself
(`SIGNATURE_HEADER`, `sign()`) is the contract's
(`tui.contract.webhook_signature`): the emulator signs its deliveries with it.
"""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Mapping

from pydantic import ValidationError

from tui.api.errors import WebhookPayloadError, WebhookSignatureError
from tui.contract.models.webhook import CrawlStartedEvent, WebhookEvent
from tui.contract.webhook_signature import SIGNATURE_HEADER, Secret, sign

_SIGNATURE = re.compile(r"sha256=([0-9a-fA-F]{64})")

__all__ = [
    "SIGNATURE_HEADER",
    "CrawlStartedEvent",
    "WebhookEvent",
    "check_signature",
    "parse_event",
    "sign",
    "signature_of",
    "verify_signature",
]


def check_signature(raw_body: bytes, header: str | None, secret: Secret) -> None:
    """Raise `WebhookSignatureError` saying why, unless `header` signs `raw_body`."""
    if header is None or not header.strip():
        raise WebhookSignatureError(f"the delivery has no {SIGNATURE_HEADER} header")
    match = _SIGNATURE.fullmatch(header.strip())
    if match is None:
        raise WebhookSignatureError(f"the {SIGNATURE_HEADER} header is not of the form sha256=<64 hex digits>")
    expected = sign(raw_body, secret).removeprefix("sha256=")
    if not hmac.compare_digest(expected, match.group(1).lower()):
        raise WebhookSignatureError(
            f"the {SIGNATURE_HEADER} header does not match the body (wrong secret or altered body)"
        )


def verify_signature(raw_body: bytes, header: str | None, secret: Secret) -> bool:
    """True when `header` is a valid signature of `raw_body` under `secret`."""
    try:
        check_signature(raw_body, header, secret)
    except WebhookSignatureError:
        return False
    return True


def signature_of(headers: Mapping[str, str]) -> str | None:
    """The delivery's `X-Service-Signature` header, whatever its case, or None."""
    return _header(headers, SIGNATURE_HEADER)


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is not None:
        return value
    # a plain dict is case-sensitive; httpx and Starlette headers are not
    lowered = name.lower()
    return next((v for k, v in headers.items() if k.lower() == lowered), None)


def parse_event(
    raw_body: bytes, headers: Mapping[str, str], secret: Secret | None = None
) -> CrawlStartedEvent | WebhookEvent:
    """Check and read one delivery.

    With a `secret`, a missing, malformed or wrong signature raises
    `WebhookSignatureError` (without one, the signature is not checked). A
    body that is not a JSON event raises `WebhookPayloadError`. `crawl.started`
    gives a `CrawlStartedEvent`; other types a `WebhookEvent` with every field kept.
    """
    if secret is not None:
        check_signature(raw_body, signature_of(headers), secret)
    try:
        payload = json.loads(raw_body)
    except (ValueError, UnicodeDecodeError):
        raise WebhookPayloadError("the delivery's body is not JSON") from None
    except RecursionError:
        # json's parser recurses per level: `[[[[...` a few thousand deep ends it, not the caller.
        raise WebhookPayloadError("the delivery's JSON is nested too deeply to read") from None
    if not isinstance(payload, dict):
        raise WebhookPayloadError(f"the delivery's body is a JSON {type(payload).__name__}, not an object")
    model = CrawlStartedEvent if payload.get("type") == "crawl.started" else WebhookEvent
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'body'}: {err['msg']}" for err in exc.errors(include_url=False)
        )
        raise WebhookPayloadError(f"the delivery is not a valid {model.__name__}: {problems}") from None
