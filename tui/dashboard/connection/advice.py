"""What a person can do about a failure to reach or use the service.

Shared by the dashboard's connection screen and `wds-tui check`, so the
advice reads the same in both; a refused key gets the advice of every other
screen (`tui.dashboard.kit.error_words.KEY_ADVICE`).
"""

from __future__ import annotations

from pathlib import Path

from tui.api.errors import APIConnectionError, APITimeoutError, AuthenticationError, PermissionDeniedError, WdsError
from tui.dashboard.kit.error_words import KEY_ADVICE, Say, Words, words_for


def advice_for(error: WdsError, host: str, embedded_log: Path | None = None) -> str:
    """One or two sentences on what to check next.

    `embedded_log`: the embedded emulator's log, when the service is that
    emulator; nothing the user configured is then to blame for a silence.
    """
    if embedded_log is not None:
        silent = (
            "The embedded emulator (a child process of wds-tui) does not answer: it has stopped. "
            f"What it printed is in {embedded_log}. Quit and start wds-tui again."
        )
    else:
        silent = (
            f"Nothing answers at {host}. Check WDS_BASE_URL (or base_url in the config file, or "
            "--base-url), that the service is running, and your network or VPN."
        )
    advice: dict[type[WdsError], Say] = {
        AuthenticationError: lambda e: Words("", f"{host} refused the API key. {KEY_ADVICE}"),
        PermissionDeniedError: lambda e: Words(
            "", f"{host} denied this key the team's data (403): it may belong to another team. {KEY_ADVICE}"
        ),
        APITimeoutError: lambda e: Words(
            "", f"{host} did not answer in time. It may be overloaded, or a firewall drops the packets."
        ),
        APIConnectionError: lambda e: Words("", silent),
        WdsError: lambda e: Words("", f"{host} answered with an error."),
    }
    return words_for(error, advice).text
