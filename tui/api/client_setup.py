"""What a client is made from: its base URL and key checked, its timeout, its connection pool.

Shared by `BaseClient` and the settings (`tui.dashboard.startup.settings`), so a value the
settings accept is never refused when the client is built.
"""

from __future__ import annotations

import ssl
from urllib.parse import urlsplit

import httpx
from pydantic import SecretStr

from tui.contract.loopback import is_loopback
from tui.contract.redact import mask_url

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)
# Idle connections are kept this long. A dashboard polls every 5-60 s; with
# httpx's 5 s default nearly every poll opened a new connection (0.6-1 ms of
# CPU each here). A connection the server closed meanwhile is noticed and
# replaced before use, and a GET that meets a close mid-flight is retried.
KEEPALIVE_SECONDS = 75.0


def check_base_url(base_url: str) -> str:
    """The base URL as the client uses it; ValueError with the reason when it cannot be one.

    Credentials in the URL (`http://KEY@host`, `https://user:password@host`) are
    refused: httpx would send them as basic auth, and a URL is printed freely
    (`wds-tui config`, `check`, error messages), which a key must never be.
    No message quotes what stands before the `@`, nor a query or fragment
    (`?key=...`): they are masked as a key is (`tui.contract.redact.mask_url`).
    """
    text = base_url.strip()
    shown = mask_url(text)
    try:
        parts = urlsplit(text)
    except ValueError:  # an unclosed `[` of an IPv6 address
        raise ValueError(f"base_url is not a URL: {shown!r}") from None
    if "@" in parts.netloc or (not parts.netloc and "@" in text.split("/", 1)[0]):
        raise ValueError(
            f"base_url must not carry credentials before the host (got {shown!r}): give the API key "
            "as WDS_API_KEY, --api-key or api_key in the config file instead"
        )
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url must be an http:// or https:// URL with a host, not {shown!r}")
    if "?" in text or "#" in text:  # an empty one too (`https://host/?`): paths are appended to this
        raise ValueError(f"base_url must not carry a query or fragment: {shown!r}")
    return text.rstrip("/")


def check_api_key(api_key: str | SecretStr) -> SecretStr:
    """The key as the client sends it; ValueError (never quoting the key) when it cannot be one."""
    raw = api_key.get_secret_value() if isinstance(api_key, SecretStr) else api_key
    value = raw.strip()  # a trailing newline from a key file is not part of the key
    if not value:
        raise ValueError("api_key is empty")
    if any(ch.isspace() or not ch.isprintable() for ch in value):
        # the key itself is not quoted: the message may end up on screen
        raise ValueError("api_key contains whitespace or control characters; check how it was copied")
    return SecretStr(value)


def as_timeout(timeout: float | httpx.Timeout | None) -> httpx.Timeout:
    """A client's `timeout` argument as an `httpx.Timeout` (None: no bound)."""
    if isinstance(timeout, httpx.Timeout):
        return timeout
    if timeout is None:
        return httpx.Timeout(None)
    # A number is the answer budget; connecting keeps its own short limit, so an
    # unreachable host is reported in seconds, not after the whole budget.
    return httpx.Timeout(timeout, connect=min(timeout, DEFAULT_TIMEOUT.connect or timeout))


def connection_pool(base_url: str, timeout: httpx.Timeout) -> httpx.AsyncClient:
    """The `httpx.AsyncClient` made when none is passed in.

    A service on this machine over plain HTTP (the embedded emulator, a local
    one) is reached directly: proxies from the environment are not consulted,
    since NO_PROXY rarely lists 127.0.0.1, and no CA bundle is loaded, since no
    TLS is ever spoken there (the context given has no CAs, so it would fail
    closed if it were). Loading the bundle is 25-40 ms of every start.
    """
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=KEEPALIVE_SECONDS)
    parts = urlsplit(base_url)
    if parts.scheme == "http" and is_loopback(parts.hostname or ""):
        no_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        return httpx.AsyncClient(timeout=timeout, limits=limits, trust_env=False, verify=no_tls)
    return httpx.AsyncClient(timeout=timeout, limits=limits)
