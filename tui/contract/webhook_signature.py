"""How the service signs a webhook delivery: `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`.

The emulator signs its deliveries with `sign()`; the client checks them
(`tui.api.webhooks`).
"""

from __future__ import annotations

import hashlib
import hmac

from pydantic import SecretStr

SIGNATURE_HEADER = "X-Service-Signature"

Secret = str | bytes | SecretStr


def secret_bytes(secret: Secret) -> bytes:
    """The secret as bytes; an empty one is refused (it would sign nothing)."""
    value = secret.get_secret_value() if isinstance(secret, SecretStr) else secret
    raw = value.encode() if isinstance(value, str) else value
    if not raw:
        raise ValueError("the webhook secret is empty")
    return raw


def sign(raw_body: bytes, secret: Secret) -> str:
    """The `X-Service-Signature` value for `raw_body`: `sha256=<hex>`."""
    digest = hmac.new(secret_bytes(secret), raw_body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"
