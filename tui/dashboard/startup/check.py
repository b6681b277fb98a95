"""`wds-tui check`: one round of calls to the service, reported in plain text.

For a server over SSH where a full-screen app is not what you want first:
it tells whether the URL answers, whether the key is accepted, and what the
team has going on.
"""

from __future__ import annotations

import asyncio
import sys

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.redact import mask_url
from tui.dashboard.connection.advice import advice_for
from tui.dashboard.kit.outside_text import visible
from tui.dashboard.startup.launch import connection_for
from tui.dashboard.startup.settings import Settings


async def run_check(settings: Settings) -> int:
    """Print a summary of the service's answers; exit status 1 on any failure."""
    with connection_for(settings) as connection:
        print(f"service: {mask_url(connection.base_url)}{' (embedded local emulator)' if connection.embedded else ''}")
        print(f"API key: {connection.masked_key}")
        async with WdsClient(connection.base_url, connection.api_key, timeout=settings.timeout) as client:
            try:
                usage, activity, crawls, sessions = await asyncio.gather(
                    client.team.token_usage_historical(),
                    client.team.activity(limit=100),
                    client.crawl.active(),
                    client.browser.list(),
                )
            except WdsError as exc:
                # The service's words go to the terminal: as text, its controls shown, never obeyed.
                print(visible(f"error: {exc.title}: {exc.message}", lines=True), file=sys.stderr)
                print(visible(advice_for(exc, connection.host, connection.emulator_log), lines=True), file=sys.stderr)
                return 1
    latest = usage.periods[-1] if usage.periods else None
    print("status:  connected, key accepted")
    print(f"activity (last 24 h, first page): {len(activity.entries)} entries{', more' if activity.has_more else ''}")
    print(f"active crawls: {len(crawls.crawls)}")
    active = sum(1 for s in sessions.sessions if s.is_active)
    print(f"browser sessions: {active} active, {len(sessions.sessions) - active} ended")
    if latest is not None:
        print(f"token usage {latest.start_date:%Y-%m}: {latest.total_tokens:,} tokens ({latest.credits:,.0f} credits)")
    return 0
