"""`python -m tui.emulator.child`: the embedded emulator, run as the dashboard's child process.

Started by `tui.dashboard.startup.embedded_emulator` (read it for the why). It serves a live
emulator with one team ("local") on the listening socket the dashboard hands
over, takes its key from the environment (and fault rules from `$WDS_EMULATOR_FAULTS`, for a
demo of the dashboard under trouble), and ends when the dashboard does:
SIGTERM from the kernel when the parent dies (Linux), or end of file on stdin.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
import sys
import threading
from collections.abc import Sequence

KEY_VARIABLE = "WDS_EMBEDDED_EMULATOR_KEY"
"""Where the child finds its API key (not in its arguments: the process list is public)."""
TEAM = "local"


def die_with_parent(parent: int) -> None:
    """Get SIGTERM when `parent` dies (Linux), and end now if it already has."""
    # Imported here, not at the top: the dashboard imports this module for
    # KEY_VARIABLE just before it starts the child, and asyncio would delay that.
    from tui.emulator.browser.process import signal_when_parent_dies

    signal_when_parent_dies(signal.SIGTERM)  # SIGTERM, not SIGKILL: the browsers are closed on the way out
    if os.getppid() != parent:  # the parent ended before the request took effect
        raise SystemExit(0)


def stop_at_end_of_stdin() -> None:
    """SIGTERM this process when stdin (a pipe from the parent) closes: the parent ended."""

    def watch() -> None:
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.emulator.child", description=__doc__)
    parser.add_argument("--fd", type=int, required=True, help="the listening socket's file descriptor")
    parser.add_argument("--parent", type=int, required=True, help="the dashboard's process id")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    from tui.emulator.key_sources import take_from_environment  # here: the dashboard imports this module

    key = take_from_environment(KEY_VARIABLE) or ""  # also gone from /proc/<pid>/environ
    if not key:
        print(f"{parser.prog}: {KEY_VARIABLE} is not set", file=sys.stderr)
        return 2
    from tui.emulator.http.fault_rules import FaultRuleError
    from tui.emulator.http.fault_spec import FAULTS_VARIABLE, fault_rules_of

    try:
        # A demo of the dashboard under trouble; a bad rule ends the child, which the dashboard's
        # connection screen reports with this log's path (what runs here prints only to that log).
        faults = fault_rules_of([], os.environ.get(FAULTS_VARIABLE), [TEAM])
    except FaultRuleError as exc:
        print(f"{parser.prog}: {exc}", file=sys.stderr, flush=True)
        return 2
    die_with_parent(args.parent)
    stop_at_end_of_stdin()
    sock = socket.socket(fileno=args.fd)

    # As in the dashboard (tui.dashboard.startup.cli.main): no cyclic collection while the long-lived
    # state is built, then that state is kept out of later collections.
    gc.disable()
    from tui.emulator.browser.chromium import browser_backend_from_environment
    from tui.emulator.jobs.webhooks import SECRET_VARIABLE
    from tui.emulator.server import serve
    from tui.emulator.service import Emulator

    # Inherited from the dashboard: its webhook inbox verifies with the same secret.
    webhook_secret = take_from_environment(SECRET_VARIABLE)
    if webhook_secret is not None and not webhook_secret.strip():
        webhook_secret = None  # a blank secret signs nothing: deliveries go unsigned
    emulator = Emulator.from_keys(
        {TEAM: [key]},
        seed=args.seed,
        live=True,
        browser_backend=browser_backend_from_environment(),
        webhook_secret=webhook_secret,
    )
    for rule in faults:
        emulator.faults.add(rule)
    gc.freeze()
    gc.enable()
    serve(emulator, sock=sock, on_ready=lambda url: print(f"embedded emulator serving {url}", flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
