"""Host and Origin headers, and the page's own address, read strictly (for `tui.dashboard.startup.serve_guard`).

A name and an IP are told apart and IPs compared in their canonical spelling
(`[0:0::1]` is `[::1]`); anything that is not plainly `host[:port]` is None,
so the guard refuses it.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

_NAME = re.compile(r"[a-z0-9._-]+")  # a DNS name as a Host header may spell it (after lowercasing)
DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class Authority:
    """A host (a lowercased name, or an IP in its canonical spelling) and a port."""

    host: str
    port: int


def parse_authority(text: str, default_port: int) -> Authority | None:
    """`host[:port]` as in a Host header or a URL (IPv6 in brackets); None when it is not one."""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        host, rest = text[1:end], text[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else ""
        if ":" not in host:  # brackets are for IPv6 only
            return None
    else:
        if text.count(":") > 1:  # an IPv6 address must be bracketed
            return None
        host, colon, port_text = text.partition(":")
        if colon and not port_text:
            return None
    if port_text:
        if not port_text.isascii() or not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            return None
        port = int(port_text)
    else:
        port = default_port
    try:
        return Authority(str(ipaddress.ip_address(host)), port)
    except ValueError:
        name = host.lower()
        return Authority(name, port) if _NAME.fullmatch(name) else None


def parse_origin(text: str) -> tuple[str, Authority] | None:
    """An `Origin` header (`scheme://host[:port]`) as scheme and authority; None for `null` or anything else."""
    scheme, separator, rest = text.partition("://")
    scheme = scheme.lower()
    if not separator or scheme not in DEFAULT_PORTS:
        return None
    authority = parse_authority(rest, DEFAULT_PORTS[scheme])
    return None if authority is None else (scheme, authority)


def read_page_address(public_url: str) -> tuple[str, Authority]:
    """The scheme and authority of the page's address (`--public-url`); ValueError with the reason if it is none."""
    parts = urlsplit(public_url)
    scheme = parts.scheme.lower()
    authority = parse_authority(parts.netloc, DEFAULT_PORTS.get(scheme, 80))
    if scheme not in DEFAULT_PORTS or authority is None or parts.query or parts.fragment:
        raise ValueError(f"{public_url} is not a page address: give http(s)://host[:port], e.g. http://ops-box:8000")
    return scheme, authority
