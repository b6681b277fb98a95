"""`wds-tui emulator`: serve the local emulator and print how to reach it.

This is the one place an API key is printed in full: the person starting the
emulator needs a generated key, or one given with `--api-key`, for curl and
for the dashboard. Keys from a key file or the environment
(`tui.emulator.key_sources`) were kept off the command line to stay secret,
so they are shown masked.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tui.contract.redact import mask_key
from tui.emulator.admin.guard import ADMIN_PREFIX, ADMIN_TOKEN_VARIABLE
from tui.emulator.browser.chromium import browser_backend_from_environment
from tui.emulator.browser.limits import LimitsError, SandboxLimits
from tui.emulator.core.clock import ScaledClock
from tui.emulator.http.fault_rules import FaultRuleError
from tui.emulator.http.fault_spec import FAULTS_VARIABLE, fault_rules_of, spec_of_rule
from tui.emulator.jobs.webhooks import SECRET_VARIABLE
from tui.emulator.key_sources import (
    KEYS_VARIABLE,
    KeySpecError,
    specs_from_file,
    take_from_environment,
    take_specs_from_environment,
)
from tui.emulator.server import RemoteBindRefused, check_host, serve
from tui.emulator.service import Emulator
from tui.emulator.state.on_start import keep_state
from tui.emulator.state.state_file import StateFileError, hold_lock
from tui.emulator.state.state_file import load as load_state

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 3002


def generate_key() -> str:
    """A fresh key in the service's format: `wds-` and 32 hex characters."""
    return "wds-" + secrets.token_hex(16)


def teams_from_specs(specs: Sequence[str]) -> dict[str, list[str]]:
    """Team name -> keys from `[TEAM=]KEY` specs (`--api-key`, a key file, the environment).

    `KEY` makes a team of its own (`team-1`, `team-2`, ...); `TEAM=KEY` puts the key
    in TEAM, and keys with the same TEAM share one team. No specs: one team
    `default` with a freshly generated key.
    """
    if not specs:
        return {"default": [generate_key()]}
    teams: dict[str, list[str]] = {}
    seen: set[str] = set()
    unnamed = 0
    for spec in specs:
        if "=" in spec:
            team, _, key = spec.partition("=")
            team, key = team.strip(), key.strip()
            if not team:
                raise KeySpecError(f"key {_shown(spec)!r}: the team name before '=' is empty (write TEAM=KEY)")
        else:
            unnamed += 1
            team, key = f"team-{unnamed}", spec.strip()
        if not key:
            raise KeySpecError(f"key {_shown(spec)!r}: the key is empty")
        if any(ch.isspace() for ch in key):
            raise KeySpecError(f"key {_shown(spec)!r}: a key cannot contain whitespace")
        if key in seen:
            raise KeySpecError(f"the key ending in {key[-4:]!r} is given more than once")
        seen.add(key)
        teams.setdefault(team, []).append(key)
    return teams


def _shown(spec: str) -> str:
    """A `[TEAM=]KEY` spec for an error message: the team, and the key masked."""
    team, equals, key = spec.partition("=") if "=" in spec else ("", "", spec)
    return f"{team}{equals}{mask_key(key.strip()) if key.strip() else ''}"


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535; 0 picks a free port)")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The emulator's options, for `wds-tui emulator` and `python -m tui.emulator`."""
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"port to listen on; 0 picks a free one (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--api-key",
        action="append",
        default=[],
        metavar="[TEAM=]KEY",
        help="accept this key; repeat for more. Each key is its own team unless written TEAM=KEY "
        "(the same TEAM puts keys in one team). Default: one generated key. Visible to every user "
        f"in the process list: prefer --api-key-file or ${KEYS_VARIABLE}.",
    )
    parser.add_argument(
        "--api-key-file",
        type=Path,
        metavar="PATH",
        help="accept the keys in this file, one [TEAM=]KEY a line (# starts a comment); chmod 600 it",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the seeded history and live traffic (default 0)")
    parser.add_argument(
        "--webhook-secret",
        metavar="SECRET",
        help="HMAC secret of every team: webhook deliveries carry X-Service-Signature only when one is set. "
        f"Default: ${SECRET_VARIABLE}, the variable the dashboard's webhook inbox verifies with "
        "(prefer it: the command line is visible to every user)",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a non-loopback --host (the emulator runs code in browsers: only on networks you trust)",
    )
    parser.add_argument("--no-traffic", action="store_true", help="do not generate live demo traffic")
    parser.add_argument(
        "--no-spares",
        action="store_true",
        help="keep no pre-started python/node runner waiting for the next execute (saves about 100 MB "
        "for python and 50 MB for node; each execute then starts its runner, about 0.5 s slower)",
    )
    parser.add_argument(
        "--latency",
        type=_latency_ms,
        default=0.0,
        metavar="MS",
        help="answer every API request after this many milliseconds, to see how a client copes with a slow service",
    )
    parser.add_argument(
        "--state-file",
        type=Path,
        metavar="PATH",
        help="keep the emulator's state (teams, keys, activity, usage, jobs, cache, webhooks pending, sessions) "
        "in this SQLite file, saved about every second and on stop, and load it on start instead of the "
        "seeded history. Keys given as well are added to the file's teams",
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="SPEC",
        help="a fault rule from the start; repeat for more. SPEC is '[METHOD] PATH effect... [p=P] [team=NAME] "
        "[times=N]', effects status=429|500|502|503|504 [retry_after=S], latency=MS or MIN-MAX, reset, "
        "cut=BYTES or N%%, slow=BYTES/s; e.g. 'POST /v2/crawl status=429 retry_after=2 times=3'. "
        f"Also read from ${FAULTS_VARIABLE} (specs separated by ';'). Managed at runtime under /_emulator/faults",
    )
    parser.add_argument(
        "--clock-speed",
        type=_clock_speed,
        default=1.0,
        metavar="N",
        help="run the emulator's clock N times faster than real time (live traffic too), for soak tests",
    )


def _latency_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--latency takes milliseconds, got {text!r}") from None
    if not 0 <= value <= 60_000:
        raise argparse.ArgumentTypeError("--latency must be between 0 and 60000 ms")
    return value / 1000


def _clock_speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--clock-speed takes a number, got {text!r}") from None
    if not 0 < value <= 10_000:
        raise argparse.ArgumentTypeError("--clock-speed must be above 0 and at most 10000")
    return value


def webhook_line(emulator: Emulator) -> str:
    """Whether deliveries are signed, and how to change it; never the secret itself."""
    if any(team.webhook_secret for team in emulator.teams.values()):
        return f"Webhooks: signed (X-Service-Signature); verify with the same secret, e.g. in ${SECRET_VARIABLE}"
    return f"Webhooks: unsigned; set ${SECRET_VARIABLE} (or --webhook-secret) to sign them"


def banner(
    base_url: str, emulator: Emulator, live: bool, masked: frozenset[str] = frozenset(), state: str | None = None
) -> str:
    """What the person who started the emulator needs: the URL, the keys, a curl to try.

    Keys in `masked` (from a file or the environment) are shown as `…` and their last four characters.
    """
    backend = emulator.browser.backend
    browser = "Chromium" if backend.available else f"off: {backend.unavailable_reason}"
    sandbox = getattr(backend, "sandbox", None) if backend.available else None
    limits: list[str] = []
    if sandbox is not None:
        # Said where the operator looks first: sessions run code callers send.
        browser += (
            ", each session in its own sandbox (bubblewrap)"
            if sandbox.isolated
            else ", sessions NOT isolated (install bubblewrap)"
        )
        held, missing = sandbox.guarantees()
        limits = [f"  holds: {item}" for item in held] + [f"  NOT held here: {item}" for item in missing]
        prewarm = getattr(backend, "prewarm", False)
        limits.append(
            "  spare runners: "
            + ("one pre-started per used language (--no-spares turns them off)" if prewarm else "off (--no-spares)")
        )
    lines = [
        f"wds-tui emulator serving {base_url}  (seed {emulator.seed}, live traffic {'on' if live else 'off'})",
        f"Browser sessions: {browser}",
        *limits,
        webhook_line(emulator),
        *([state] if state is not None else []),
        "",
    ]
    lines.append("Teams and API keys (full keys are shown only here):")
    for team in emulator.teams.values():
        for key in team.api_keys:
            lines.append(f"  {team.name}: {mask_key(key) if key in masked else key}")
    first_key = next(iter(emulator.teams.values())).api_keys[0]
    if first_key in masked:  # the reader has the key, and this banner may end up in a log
        lines += [
            "",
            f"Set WDS_API_KEY to your key ending in {first_key[-4:]!r}, then try:",
            f'  curl -H "Authorization: Bearer $WDS_API_KEY" "{base_url}/v2/team/activity?limit=5"',
            f"  WDS_BASE_URL={base_url} wds-tui",
        ]
    else:
        lines += [
            "",
            "Try:",
            f'  curl -H "Authorization: Bearer {first_key}" "{base_url}/v2/team/activity?limit=5"',
            f"  WDS_BASE_URL={base_url} WDS_API_KEY={first_key} wds-tui",
        ]
    rules = list(emulator.faults)
    if rules:
        lines += ["", "Fault rules (GET /_emulator/faults lists them with their firings):"]
        lines += [f"  {rule.id}: {spec_of_rule(rule)}" for rule in rules]
    token = mask_key(emulator.admin_token) if emulator.admin_token in masked else emulator.admin_token
    lines += [
        "",
        f"Admin (fault rules, job states, state snapshots; never a team key): {base_url}{ADMIN_PREFIX}/",
        f'  curl -H "Authorization: Bearer {token}" "{base_url}{ADMIN_PREFIX}/"',
    ]
    lines += ["", "Press Ctrl+C to stop."]
    return "\n".join(lines)


def resumed_at(stored: dict[str, Any] | None) -> datetime | None:
    """Where a fast clock starts: where the state file's left off when that is ahead of now (a run at
    `--clock-speed` gets ahead of real time), so its jobs and activity are not in the future."""
    if stored is None:
        return None
    try:
        saved_at = datetime.fromisoformat(stored.get("saved_at") or "")
    except ValueError:
        return None
    now = datetime.now(UTC)
    return saved_at if saved_at.tzinfo is not None and saved_at > now else None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 for unusable options, 1 when the port cannot be bound."""
    try:
        secret_specs = take_specs_from_environment()  # first: gone from the environment whatever follows
        if args.api_key_file is not None:
            file_specs, warnings = specs_from_file(args.api_key_file)
            secret_specs += file_specs
            for warning in warnings:
                print(f"wds-tui emulator: warning: {warning}", file=sys.stderr)
        specs_given = bool(args.api_key or secret_specs)
        teams = teams_from_specs([*args.api_key, *secret_specs])
        check_host(args.host, args.allow_remote)
        limits = SandboxLimits.from_environment()
    except (KeySpecError, RemoteBindRefused, LimitsError) as exc:
        print(f"wds-tui emulator: {exc}", file=sys.stderr)
        return 2
    masked = frozenset(spec.partition("=")[2].strip() if "=" in spec else spec.strip() for spec in secret_specs)
    # Taken out of the environment either way: browser sessions run callers' code in child processes.
    secret_from_environment = take_from_environment(SECRET_VARIABLE)
    admin_token = take_from_environment(ADMIN_TOKEN_VARIABLE)
    if admin_token is not None and not admin_token.strip():
        print(f"wds-tui emulator: {ADMIN_TOKEN_VARIABLE} is empty", file=sys.stderr)
        return 2
    if admin_token is not None and any(admin_token.strip() in keys for keys in teams.values()):
        print(f"wds-tui emulator: {ADMIN_TOKEN_VARIABLE} is also a team's API key: it must differ", file=sys.stderr)
        return 2
    if admin_token is not None:
        masked |= {admin_token.strip()}  # the reader set it; the banner may end up in a log
    webhook_secret = args.webhook_secret if args.webhook_secret is not None else secret_from_environment
    if webhook_secret is not None and not webhook_secret.strip():
        given = "--webhook-secret" if args.webhook_secret is not None else SECRET_VARIABLE
        print(f"wds-tui emulator: {given} is empty", file=sys.stderr)
        return 2
    live = not args.no_traffic
    # The key file is the emulator's secret: sandboxed session code must not read it.
    hidden = (args.api_key_file.resolve(),) if args.api_key_file is not None else ()
    backend = browser_backend_from_environment(hidden_paths=hidden, limits=limits, prewarm=not args.no_spares)
    try:
        if args.state_file is not None:
            hold_lock(args.state_file)  # until the process ends: one emulator per state file
        stored = load_state(args.state_file) if args.state_file is not None else None
    except StateFileError as exc:
        print(f"wds-tui emulator: {exc}", file=sys.stderr)
        return 2
    emulator = Emulator.from_keys(
        teams,
        history=stored is None,  # a restored emulator has its own past: no seeded one on top
        seed=args.seed,
        webhook_secret=webhook_secret,
        live=live,
        browser_backend=backend,
        latency=args.latency,
        clock=ScaledClock(args.clock_speed, start=resumed_at(stored)) if args.clock_speed != 1.0 else None,
        admin_token=admin_token.strip() if admin_token is not None else None,
    )

    saver, state = None, None
    if args.state_file is not None:
        try:
            saver, state = keep_state(emulator, args.state_file, stored, given=teams if specs_given else {})
        except (StateFileError, OSError) as exc:
            print(f"wds-tui emulator: {exc}", file=sys.stderr)
            return 2
        if webhook_secret is not None:
            for team in emulator.teams.values():
                team.webhook_secret = team.webhook_secret or webhook_secret
        if stored is not None:  # kept in a file, maybe given in secret once: not printed in full now
            plain = {spec.partition("=")[2].strip() if "=" in spec else spec.strip() for spec in args.api_key}
            masked |= {key for team in emulator.teams.values() for key in team.api_keys} - plain

    try:  # after the state is loaded: a rule's team is one of the file's teams
        names = [team.name for team in emulator.teams.values()]
        faults = fault_rules_of(args.fault, os.environ.get(FAULTS_VARIABLE), names)
    except FaultRuleError as exc:
        if saver is not None:
            saver.close()
        print(f"wds-tui emulator: {exc}", file=sys.stderr)
        return 2
    for rule in faults:
        emulator.faults.add(rule)

    def ready(base_url: str) -> None:
        print(banner(base_url, emulator, live, masked, state), flush=True)

    try:
        serve(emulator, args.host, args.port, allow_remote=args.allow_remote, on_ready=ready)
    except OSError as exc:
        print(f"wds-tui emulator: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        if saver is not None:
            saver.save_now()  # a clean stop loses nothing
            saver.close()
    return 0


SITES_HELP = (
    "Synthetic sites: any host name gets a site, the same for the same name and --seed. Sizes: "
    "acme-outdoor.com, northwind.dev, lumen-labs.io, fernwood.co, example.com and names under .test, "
    ".example, .invalid, .localhost have about 60 URLs; corner-bakery.com is a handful of pages; "
    "trailhead-journal.com 1,500-3,000, harbour-books.com 20,000-30,000, openshelf-library.org 105,000-115,000 "
    "and bigbox-supply.com (the biggest) 140,000-160,000 URLs, more than 100,000 for every seed. Other "
    "hosts draw a size from their name, from a handful of pages to 50,000 URLs. Big sites are derived "
    "on demand: nothing is built until they are mapped, crawled or scraped."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wds-tui emulator", description="Serve a local emulator of the web-data API service.", epilog=SITES_HELP
    )
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m tui.emulator`: the same as `wds-tui emulator`."""
    return run(build_parser().parse_args(argv))
