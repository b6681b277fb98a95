"""Whether a host name means this machine: one rule for the client, the settings and the emulator."""

from __future__ import annotations

import ipaddress


def is_loopback(host: str) -> bool:
    """True for `localhost` and any loopback IP (127.0.0.0/8, ::1, with or without brackets)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
