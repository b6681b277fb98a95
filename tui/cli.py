"""The `wds-tui` command: the dashboard by default, plus `emulator`, `config` and `check`."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from tui import __version__
from tui.settings import Settings, SettingsError, default_config_path, load_settings


def _add_service_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", help="service base URL (default: $WDS_BASE_URL or the config file)")
    parser.add_argument(
        "--api-key",
        help="API key (default: $WDS_API_KEY or the config file; prefer those: "
        "a flag is visible to other users in the process list)",
    )
    parser.add_argument(
        "--config", type=Path, help=f"config file (default: $WDS_CONFIG or {default_config_path()})"
    )
    parser.add_argument("--timeout", type=float, help="seconds before a request gives up (default 30)")
    parser.add_argument(
        "--refresh", type=float, metavar="SECONDS", help="seconds between polls of every pane (default: per pane)"
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

    from tui.emulator import cli as emulator_cli

    emulator = commands.add_parser(
        "emulator", help="serve the local emulator of the service over HTTP"
    )
    emulator_cli.add_arguments(emulator)
    commands.add_parser("config", help="show the resolved configuration (the key masked)")
    commands.add_parser("check", help="call the configured service once and report what it says")
    return parser


def _settings_from(args: argparse.Namespace) -> tuple[Settings, list[str]]:
    return load_settings(
        config_path=args.config,
        base_url=args.base_url,
        api_key=args.api_key,
        timeout=args.timeout,
        refresh=args.refresh,
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "emulator":
        from tui.emulator import cli as emulator_cli

        return emulator_cli.run(args)
    try:
        settings, warnings = _settings_from(args)
    except SettingsError as exc:
        print(f"wds-tui: {exc}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"wds-tui: warning: {warning}", file=sys.stderr)
    if args.command == "config":
        print(settings.describe())
        return 0
    if args.command == "check":
        from tui.check import run_check

        return asyncio.run(run_check(settings))
    from tui.dashboard import run_dashboard

    return run_dashboard(settings)


if __name__ == "__main__":
    raise SystemExit(main())
