"""`wds-tui serve`: the same dashboard as a web page, for operators who cannot open a terminal.

textual-serve runs one dashboard process per browser tab and streams its
screen to xterm.js in the page. This process only decides what those
children run against:

* The service, key and config reach the children through their environment
  (`WDS_BASE_URL`, `WDS_API_KEY`, `WDS_CONFIG`), never their arguments: other
  users can read the process list.
* With no service configured, one embedded emulator is started here and every
  tab uses it, so two tabs show the same team rather than two seeded worlds.
* Loopback unless `--allow-remote`: whoever reaches the page drives the
  dashboard with the operator's key.
* Even on loopback, other web pages the operator visits can reach it: every
  request is checked (Host, Origin, a token made at each start) by
  `tui.dashboard.startup.serve_guard`, installed into textual-serve by `tui.dashboard.startup.serve_web`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import ipaddress
import os
import shlex
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tui.dashboard.startup.serve_address import read_page_address

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
SERVE_PACKAGES = ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2")
"""What `pip install 'wds-tui[serve]'` adds; nothing else imports them, so the dashboard alone goes without."""
SERVE_INSTALL_HINT = (
    "pip install 'wds-tui[serve]' (with pipx: pipx inject wds-tui textual-serve, "
    "or pipx install --force 'wds-tui[serve]')"
)


class ServeRefused(Exception):
    """The options would serve the dashboard where it should not be; the message says why and what to do."""


@dataclass(frozen=True)
class ServePlan:
    """Where the page is served and how each tab's dashboard is started."""

    host: str
    port: int
    public_url: str
    command: str  # what textual-serve runs for each tab (a shell command line)
    environment: dict[str, str]  # added to each tab's environment


def missing_serve_message() -> str | None:
    """One line saying what to install when the `serve` extra's packages are absent, else None."""
    missing = [name for name in SERVE_PACKAGES if _absent(name)]
    if not missing:
        return None
    return f"serve needs the serve extra (missing: {', '.join(missing)}): run {SERVE_INSTALL_HINT}"


def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ValueError:  # in sys.modules without a spec: there, but not as an import finds it
        return False


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only (names other than localhost count as remote)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_listen_host(flag: str, host: str, allow_remote: bool, exposes: str) -> None:
    """Refuse (`ServeRefused`) to listen on a host other than loopback without `--allow-remote`.

    `wds-tui serve` and `wds-tui watch --metrics` share the rule and its words; `exposes`
    says what anyone who reaches the address could do ("drive the dashboard with your API key").
    """
    if not is_loopback(host) and not allow_remote:
        raise ServeRefused(
            f"{flag} {host} would let anyone who reaches it {exposes}; "
            "add --allow-remote if that is what you want (or forward a loopback port over SSH instead)"
        )


def plan_serve(
    *,
    host: str,
    port: int,
    allow_remote: bool,
    public_url: str | None,
    dashboard_flags: list[str],
    service_environment: Mapping[str, str],
    python: str = sys.executable,
) -> ServePlan:
    """Check the options and say what to run; raises `ServeRefused` with the reason."""
    if not 1 <= port <= 65535:
        raise ServeRefused(f"--port {port} is not a port: give a number from 1 to 65535")
    check_listen_host("--host", host, allow_remote, "drive the dashboard with your API key")
    if public_url is None:
        if host in WILDCARD_HOSTS:
            raise ServeRefused(
                f"--host {host or '(all)'} listens everywhere, so the page cannot know the address browsers "
                "use: give it with --public-url, e.g. --public-url http://myserver:8000"
            )
        bare = host.strip("[]")
        shown = f"[{bare}]" if ":" in bare else bare
        public_url = f"http://{shown}:{port}"
        given = f"--host {host}"
    else:
        given = "--public-url"
    try:  # the guard answers to this address only: it must be one
        read_page_address(public_url.rstrip("/"))
    except ValueError as exc:
        raise ServeRefused(f"{given}: {exc}") from None
    command = shlex.join([python, "-m", "tui", *dashboard_flags])
    return ServePlan(host, port, public_url.rstrip("/"), command, dict(service_environment))


def service_environment(*, base_url: str | None, api_key: str | None, config: Path | None) -> dict[str, str]:
    """The flags naming the service, as the variables the tabs' dashboards read instead."""
    environment: dict[str, str] = {}
    if base_url is not None:
        environment["WDS_BASE_URL"] = base_url
    if api_key is not None:
        environment["WDS_API_KEY"] = api_key
    if config is not None:
        environment["WDS_CONFIG"] = str(config.expanduser().resolve())
    return environment


@contextlib.contextmanager
def embedded_service(needed: bool) -> Iterator[dict[str, str]]:
    """One embedded emulator for every tab when no service is configured; its address and key."""
    if not needed:
        yield {}
        return
    from tui.dashboard.startup.embedded_emulator import LocalEmulator

    with LocalEmulator.start() as emulator:
        yield {"WDS_BASE_URL": emulator.base_url, "WDS_API_KEY": emulator.api_key}


def page_address(public_url: str, token: str) -> str:
    """The address the operator opens: the page with this start's token, as Jupyter prints it."""
    return f"{public_url}/?token={token}"


def run_server(plan: ServePlan, *, title: str = "wds-tui") -> int:
    """Serve until Ctrl+C; the exit status."""
    from tui.dashboard.startup.serve_guard import ServeGuard, new_token
    from tui.dashboard.startup.serve_web import GuardedServer

    os.environ.update(plan.environment)  # textual-serve hands its own environment to each tab
    token = new_token()  # in this process's memory only: not in the tabs' environment nor any command line
    guard = ServeGuard.for_address(public_url=plan.public_url, host=plan.host, port=plan.port, token=token)
    server = GuardedServer(
        plan.command, host=plan.host, port=plan.port, title=title, public_url=plan.public_url, guard=guard
    )

    def announce() -> None:
        print(
            f"wds-tui serve: open this address in a browser (one dashboard per tab):\n\n"
            f"    {page_address(plan.public_url, token)}\n\n"
            "The token is new at each start: whoever has it drives the dashboard with your key.\n"
            "Ctrl+C stops.",
            flush=True,
        )

    try:
        server.run(announce)
    except OSError as exc:  # the port is taken, or the host is not an address of this machine
        print(f"wds-tui: cannot serve on {plan.host}:{plan.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
