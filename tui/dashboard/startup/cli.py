"""The `wds-tui` command: the dashboard by default, plus `emulator`, `serve`, `config` and `check`."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from tui import __version__

if TYPE_CHECKING:
    from tui.dashboard.startup.embedded_emulator import LocalEmulator
    from tui.dashboard.startup.settings import Settings


def _add_service_flags(parser: argparse.ArgumentParser) -> None:
    from tui.dashboard.startup.config_path import default_config_path

    parser.add_argument("--base-url", help="service base URL (default: $WDS_BASE_URL or the config file)")
    parser.add_argument(
        "--api-key",
        help="API key (default: $WDS_API_KEY or the config file; prefer those: "
        "a flag is visible to other users in the process list)",
    )
    parser.add_argument("--config", type=Path, help=f"config file (default: $WDS_CONFIG or {default_config_path()})")
    parser.add_argument(
        "--context", help="the config file's context to use (default: $WDS_CONTEXT, else its current = ...)"
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        default=None,
        help="refuse every action that changes something on the service (default: $WDS_READ_ONLY or the context)",
    )
    parser.add_argument("--timeout", type=float, help="seconds a call may take in all, retries included (default 30)")
    parser.add_argument(
        "--refresh", type=float, metavar="SECONDS", help="seconds between polls of every pane (default: per pane)"
    )
    parser.add_argument(
        "--webhook-listen",
        metavar="[HOST:]PORT",
        help="receive the service's webhooks in the inbox (w) on this address, loopback unless a host is given "
        "(default: $WDS_WEBHOOK_LISTEN or the config file; signatures checked with $WDS_WEBHOOK_SECRET)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wds-tui",
        description="A terminal dashboard for a web-data API service. With no service "
        "configured it runs on an embedded local emulator.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_service_flags(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    # The emulator's options belong to the emulator's own parser, built only when
    # that command runs: declaring them here would import the emulator (uvicorn,
    # Starlette, its state) for every command, the dashboard's start-up included.
    commands.add_parser(
        "emulator", help="serve the local emulator of the service over HTTP (wds-tui emulator --help)", add_help=False
    )
    _add_serve_parser(commands)
    commands.add_parser("config", help="show the resolved configuration (the key masked)")
    commands.add_parser("keys", help="list every key binding by its name, for the config file's [keys] table")
    commands.add_parser("check", help="call the configured service once and report what it says")
    return parser


def _add_serve_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tui.dashboard.startup.serve import DEFAULT_HOST, DEFAULT_PORT

    # SUPPRESS: a flag not given after "serve" must not hide the same flag given before it.
    serve = commands.add_parser(
        "serve",
        help="serve the dashboard as a web page (one dashboard per browser tab)",
        description="Serve the dashboard as a web page with textual-serve: each browser tab runs its own "
        "dashboard, with the same keys as in a terminal. Open the address it prints: it carries a token "
        "made at each start, without which nothing is served (nor to another host name, nor to a "
        "WebSocket from another page). Loopback only unless --allow-remote: whoever uses the page drives "
        "the dashboard with your API key.",
        argument_default=argparse.SUPPRESS,
    )
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")
    serve.add_argument("--allow-remote", action="store_true", default=False, help="allow a --host other than loopback")
    serve.add_argument(
        "--public-url",
        default=None,
        help="the address browsers use to reach the page, e.g. a reverse proxy's; the only host name "
        "it answers to (needed with --host 0.0.0.0; default http://HOST:PORT)",
    )
    _add_service_flags(serve)


def _settings_from(args: argparse.Namespace) -> tuple[Settings, list[str]]:
    from tui.dashboard.startup.settings import load_settings

    return load_settings(
        config_path=args.config,
        context=args.context,
        read_only=args.read_only,
        base_url=args.base_url,
        api_key=args.api_key,
        timeout=args.timeout,
        refresh=args.refresh,
        webhook_listen=args.webhook_listen,
    )


def main(argv: list[str] | None = None) -> int:
    # Start-up makes a great many objects that live as long as the process
    # (modules, models, the embedded emulator's history). The cyclic collector
    # would walk them over and over while they are being made, about 150 ms of
    # a start, so it waits until they are all made: the dashboard freezes them
    # out of later collections and turns it back on (`tui.dashboard.startup.launch`), every
    # other command turns it back on before it does its work.
    gc.disable()
    try:
        return _main(argv)
    finally:
        gc.enable()


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if args.command == "emulator":
        gc.enable()
        return _run_emulator(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "serve":
        gc.enable()
        return _run_serve(args)
    with contextlib.ExitStack() as stack:
        early = stack.enter_context(_emulator_started_early(args)) if args.command is None else None
        return _run_configured(args, early)


@contextlib.contextmanager
def _emulator_started_early(args: argparse.Namespace) -> Iterator[LocalEmulator | None]:
    """The embedded emulator, started before the settings when nothing names a service.

    The dashboard would start it anyway once its settings say so; started now,
    it builds on the other core while this process imports pydantic, the
    settings and the UI (about a quarter of a second sooner).
    """
    from tui.dashboard.startup.config_path import names_no_service

    if not names_no_service(args.base_url, args.config, os.environ):
        yield None
        return
    from tui.dashboard.startup.embedded_emulator import LocalEmulator, missing_emulator_message

    if missing_emulator_message() is not None:
        yield None  # said after the settings are read, as when it is not started early
        return
    with LocalEmulator.start() as emulator:
        yield emulator


def _run_configured(args: argparse.Namespace, early: LocalEmulator | None) -> int:
    """The commands that read the settings: the dashboard, config and check."""
    from tui.dashboard.startup.settings import SettingsError

    try:
        settings, warnings = _settings_from(args)
    except SettingsError as exc:
        print(f"wds-tui: {exc}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"wds-tui: warning: {warning}", file=sys.stderr)
    if args.command == "keys":
        from tui.dashboard.keys.overrides import describe_bindings

        print(describe_bindings(settings.keys))
        return 0
    if args.command == "config":
        print(settings.describe())
        print(settings.monitoring.describe(settings.context))
        print(f"contexts (T switches in the app):\n{settings.describe_contexts()}")
        return 0
    if settings.uses_embedded_emulator and _emulator_missing():
        return 2
    if args.command == "check":
        import asyncio

        from tui.dashboard.startup.check import run_check

        gc.enable()
        return asyncio.run(run_check(settings))
    from functools import partial

    from tui.dashboard.startup.launch import run_dashboard

    return run_dashboard(settings, early, load_context=partial(_load_context, args))


def _load_context(args: argparse.Namespace, name: str) -> tuple[Settings, list[str]]:
    """Another context, chosen in the app: its table alone names the service (flags and the
    environment named the first one); the flags that are not about the service still apply."""
    from tui.dashboard.startup.settings import load_settings

    return load_settings(
        config_path=args.config,
        context=name,
        switching=True,
        timeout=args.timeout,
        refresh=args.refresh,
        read_only=args.read_only,
    )


def _run_serve(args: argparse.Namespace) -> int:
    """`wds-tui serve`: the dashboard in a browser, one process per tab (`tui.dashboard.startup.serve`)."""
    from tui.dashboard.startup.serve import (
        ServeRefused,
        embedded_service,
        missing_serve_message,
        plan_serve,
        run_server,
        service_environment,
    )
    from tui.dashboard.startup.settings import SettingsError

    # First: nothing else the command could say is of use before the extra is installed.
    missing = missing_serve_message()
    if missing is not None:
        print(f"wds-tui: {missing}", file=sys.stderr)
        return 2
    try:
        settings, warnings = _settings_from(args)
    except SettingsError as exc:
        print(f"wds-tui: {exc}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"wds-tui: warning: {warning}", file=sys.stderr)
    if args.webhook_listen is not None:
        print(
            "wds-tui: warning: --webhook-listen is ignored by serve: every tab would listen on the same port",
            file=sys.stderr,
        )
    # Each tab resolves its settings again, so the flags that choose them go along (no secrets among them).
    flags = [
        *(["--context", args.context] if args.context is not None else []),
        *(["--read-only"] if args.read_only else []),
        *(["--timeout", str(args.timeout)] if args.timeout is not None else []),
        *(["--refresh", str(args.refresh)] if args.refresh is not None else []),
    ]
    try:
        plan = plan_serve(
            host=args.host,
            port=args.port,
            allow_remote=args.allow_remote,
            public_url=args.public_url,
            dashboard_flags=flags,
            service_environment=service_environment(base_url=args.base_url, api_key=args.api_key, config=args.config),
        )
    except ServeRefused as exc:
        print(f"wds-tui: {exc}", file=sys.stderr)
        return 2
    if settings.uses_embedded_emulator and _emulator_missing():
        return 2
    with embedded_service(settings.uses_embedded_emulator) as embedded:
        plan.environment.update(embedded)
        return run_server(plan)


def _emulator_missing() -> bool:
    """Say in one line what to install when the emulator's packages are absent."""
    from tui.dashboard.startup.embedded_emulator import missing_emulator_message

    missing = missing_emulator_message()
    if missing is not None:
        print(f"wds-tui: {missing}", file=sys.stderr)
    return missing is not None


def _run_emulator(argv: list[str]) -> int:
    """`wds-tui emulator ...`: the emulator parses its own options."""
    if _emulator_missing():
        return 2
    from tui.emulator import cli as emulator_cli

    return emulator_cli.main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
