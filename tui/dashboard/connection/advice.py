"""What a person can do about a failure to reach or use the service.

Shared by the dashboard's connection screen and `wds-tui check`, so the
advice reads the same in both.
"""

from __future__ import annotations

from pathlib import Path

from tui.api.errors import APIConnectionError, APITimeoutError, AuthenticationError, WdsError


def advice_for(error: WdsError, host: str, embedded_log: Path | None = None) -> str:
    """One or two sentences on what to check next.

    `embedded_log`: the embedded emulator's log, when the service is that
    emulator; nothing the user configured is then to blame for a silence.
    """
    if isinstance(error, AuthenticationError):
        return (
            f"{host} refused the API key. Check WDS_API_KEY (or api_key in the config file, "
            "or --api-key); wds-tui config shows which key is in use, masked."
        )
    if isinstance(error, APITimeoutError):
        return f"{host} did not answer in time. It may be overloaded, or a firewall drops the packets."
    if isinstance(error, APIConnectionError) and embedded_log is not None:
        return (
            "The embedded emulator (a child process of wds-tui) does not answer: it has stopped. "
            f"What it printed is in {embedded_log}. Quit and start wds-tui again."
        )
    if isinstance(error, APIConnectionError):
        return (
            f"Nothing answers at {host}. Check WDS_BASE_URL (or base_url in the config file, or "
            "--base-url), that the service is running, and your network or VPN."
        )
    return f"{host} answered with an error."
