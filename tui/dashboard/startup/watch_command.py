"""`wds-tui watch`: the polls, journal and alert rules of one or more contexts, with no screen.

The glue between the command line and `tui.monitor.watch`: each context's settings
are read as the dashboard reads them (`load_settings`), its monitor opened
(`open_monitor`), a read-only client and a `Poller` made for it; then `WatchRun`
runs them until SIGTERM or SIGINT. A context with no service configured runs on
the embedded emulator, as the dashboard does (one emulator for every such context).

Flags are checked before anything starts, each refusal one line and exit status 2:
`--metrics` is loopback unless `--allow-remote`, by `serve`'s own rule and words.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

# Only what the parser needs is imported at the top (every command builds the parser, the emulator's
# included); the settings, the client and the monitor are imported when `watch` runs.
from tui.dashboard.startup.serve import ServeRefused, check_listen_host
from tui.dashboard.startup.serve_address import parse_authority

if TYPE_CHECKING:
    from tui.dashboard.startup.launch import Connection
    from tui.dashboard.startup.settings import Settings
    from tui.monitor.watch.event_log import EventLog

DEFAULT_METRICS_PORT = 9464
"""Prometheus' registered default port for exporters of this kind."""
METRICS_HOST = "127.0.0.1"


class WatchRefused(Exception):
    """The flags cannot be used; the message (one line) says why."""


@dataclass(frozen=True)
class WatchPlan:
    """What to watch and where to say it, all checked."""

    contexts: list[tuple[Settings, list[str]]]
    log_file: Path | None
    metrics: tuple[str, int] | None


def add_watch_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """The `watch` subcommand's flags (the service flags are added by the caller)."""
    watch = commands.add_parser(
        "watch",
        help="record and alert with no screen: polls, journal and alert rules, as JSON lines (several --context a,b)",
        description="Run the polls, the journal and the alert rules of a context (several with --context a,b) with "
        "no screen, writing one JSON line per alert and per notable event to stdout or --log-file. Stops cleanly "
        "on SIGTERM or SIGINT. --metrics HOST:PORT serves Prometheus metrics (loopback unless --allow-remote).",
        argument_default=argparse.SUPPRESS,
        # One line per refusal: a service manager's log keeps the error, not a screen of usage.
        usage=argparse.SUPPRESS,
    )
    watch.add_argument("--log-file", type=Path, metavar="PATH", help="append the JSON lines here (default: stdout)")
    watch.add_argument(
        "--metrics",
        metavar="[HOST:]PORT",
        help=f"serve Prometheus metrics at http://HOST:PORT/metrics (host {METRICS_HOST} unless given; "
        f"Prometheus' usual port is {DEFAULT_METRICS_PORT})",
    )
    watch.add_argument(
        "--allow-remote", action="store_true", default=False, help="allow a --metrics host other than loopback"
    )
    return watch


def metrics_address(text: str, allow_remote: bool) -> tuple[str, int]:
    """`--metrics`'s host and port; WatchRefused with the reason when it is not one or may not be used."""
    given = text.strip()
    if given.isdigit():
        given = f"{METRICS_HOST}:{given}"
    authority = parse_authority(given, 0)
    if authority is None or authority.port == 0:
        raise WatchRefused(f"--metrics {text}: give [HOST:]PORT, e.g. 127.0.0.1:{DEFAULT_METRICS_PORT}")
    try:
        check_listen_host("--metrics", authority.host, allow_remote, "read the team's usage and alerts")
    except ServeRefused as exc:
        raise WatchRefused(str(exc)) from None
    return authority.host, authority.port


def plan_watch(args: argparse.Namespace) -> WatchPlan:
    """Every context's settings and the outputs, checked; WatchRefused (or SettingsError) says what is wrong."""
    from tui.dashboard.startup.settings import load_settings

    names = [name.strip() for name in (args.context or "").split(",")] if args.context else [None]
    if any(name == "" for name in names):
        raise WatchRefused(f"--context {args.context}: give context names separated by commas, e.g. prod,staging")
    if len(set(names)) < len(names):
        raise WatchRefused(f"--context {args.context}: a context is named twice")
    several = len(names) > 1
    if several and (args.base_url is not None or args.api_key is not None):
        raise WatchRefused(
            "--base-url and --api-key name one service: with several contexts, each context's table names its own"
        )
    metrics = metrics_address(args.metrics, args.allow_remote) if getattr(args, "metrics", None) else None
    contexts = [
        load_settings(
            config_path=args.config,
            context=name,
            switching=several,  # several contexts: each one's table alone names its service, as a switch in the app
            read_only=args.read_only,
            base_url=args.base_url,
            api_key=args.api_key,
            timeout=args.timeout,
            refresh=args.refresh,
        )
        for name in names
    ]
    return WatchPlan(contexts, getattr(args, "log_file", None), metrics)


def run_watch(args: argparse.Namespace, extra: list[str]) -> int:
    """`wds-tui watch ...`: the exit status (0 after a clean stop, 2 for flags that cannot be used)."""
    from tui.dashboard.startup.settings import SettingsError

    if extra:
        return _refuse(f"watch: unrecognized arguments: {' '.join(extra)}")
    try:
        plan = plan_watch(args)
    except (WatchRefused, SettingsError) as exc:
        return _refuse(str(exc))
    if args.webhook_listen is not None:
        print("wds-tui: warning: --webhook-listen is ignored by watch: it receives no webhooks", file=sys.stderr)
    for settings, warnings in plan.contexts:
        for warning in warnings:
            where = f" [{settings.context}]" if settings.context else ""
            print(f"wds-tui: warning{where}: {warning}", file=sys.stderr)
    if any(settings.uses_embedded_emulator for settings, _ in plan.contexts):
        from tui.dashboard.startup.embedded_emulator import missing_emulator_message

        missing = missing_emulator_message()
        if missing is not None:
            return _refuse(missing)
    from tui.monitor.watch.event_log import EventLog

    try:
        log = EventLog.to_file(plan.log_file) if plan.log_file is not None else EventLog(sys.stdout)
    except OSError as exc:
        return _refuse(f"--log-file {plan.log_file}: {exc.strerror or exc}")
    try:
        with ExitStack() as stack:
            connections = _connections(plan, stack)
            return asyncio.run(_watch(plan, connections, log))
    finally:
        log.close()


def _refuse(message: str) -> int:
    print(f"wds-tui: {message}", file=sys.stderr)
    return 2


def _connections(plan: WatchPlan, stack: ExitStack) -> list[Connection]:
    """Each context's service; one embedded emulator for all the contexts that name none."""
    from tui.dashboard.startup.launch import connection_for

    embedded = None
    connections = []
    for settings, _ in plan.contexts:
        if settings.uses_embedded_emulator and embedded is None:
            from tui.dashboard.startup.embedded_emulator import LocalEmulator

            embedded = stack.enter_context(LocalEmulator.start())
        started = embedded if settings.uses_embedded_emulator else None
        connections.append(stack.enter_context(connection_for(settings, started)))
    return connections


async def _watch(plan: WatchPlan, connections: list[Connection], log: EventLog) -> int:
    from tui.api.client import WdsClient
    from tui.monitor.build import open_monitor
    from tui.monitor.watch.poller import Intervals, Poller
    from tui.monitor.watch.run import WatchRun
    from tui.monitor.watch.watched import Watched

    watched: list[Watched] = []
    clients: list[WdsClient] = []
    try:
        for (settings, _), connection in zip(plan.contexts, connections, strict=True):
            # watch only reads: its client refuses, before sending, anything that would change the service.
            client = WdsClient(connection.base_url, connection.api_key, timeout=settings.timeout, read_only=True)
            clients.append(client)
            monitor = await open_monitor(settings.context, settings.monitoring, read_only=settings.read_only)
            label = settings.context or "default"
            intervals = Intervals.every(settings.refresh) if settings.refresh else Intervals()
            poller = Poller(
                client, monitor, intervals=intervals, on_change=lambda *change, at=label: log.poll_change(at, *change)
            )
            watched.append(Watched(settings.context, monitor, poller))
        server = None
        if plan.metrics is not None:
            from tui.monitor.watch.metrics import registry_for
            from tui.monitor.watch.metrics_server import MetricsServer

            server = MetricsServer(registry_for(watched), *plan.metrics)
            try:
                host, port = await server.start()
            except OSError as exc:
                print(
                    f"wds-tui: --metrics {plan.metrics[0]}:{plan.metrics[1]}: cannot listen: {exc.strerror or exc}",
                    file=sys.stderr,
                )
                for each in watched:
                    await each.monitor.aclose()
                return 1
        run = WatchRun(watched, log, on_stopped=server.close if server is not None else None)
        services = {
            each.label: connection.host + (" (embedded emulator)" if connection.embedded else "")
            for each, connection in zip(watched, connections, strict=True)
        }
        start = {"services": services, "metrics": f"http://{host}:{port}/metrics" if server is not None else None}
        return await run.run(**start)
    finally:
        for client in clients:
            await client.aclose()
