"""The journal's size cap in a long run (issue 22): `wds-tui watch` on an emulator whose clock runs fast.

An emulator (`wds-tui emulator --clock-speed N`, live traffic on: its calls come N
times as often, so an emulated day carries a day's traffic) is watched by the real
`wds-tui watch` process, in a throwaway home whose config gives the context a small
journal (`[journal] max_megabytes`, `retention_days`). Every `--every` seconds the
journal file, its WAL and watch's resident memory are sampled; at the end watch is
stopped with SIGTERM and its `stop` line read. Printed: a table of the samples, the
cap and the largest size seen (file, and file + WAL), RSS at the start and the end,
the emulated days the run covered, the jobs watch saw finish, and the rows and the
span the journal holds at the end.

The machine's load average is printed too: on a shared 2-core machine the figures follow it.

Usage: python tests/benchmarks/bench_journal_soak.py [--minutes 10] [--clock-speed 600]
       [--max-megabytes 2] [--retention-days 3] [--refresh 2] [--every 10]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.clean_home import KEY, environment  # noqa: E402

PYTHON = sys.executable
CONTEXT = "soak"
MB = 1024 * 1024


def start_emulator(speed: float) -> tuple[subprocess.Popen[str], str]:
    """The emulator with live traffic on, its clock `speed` times as fast; its base URL, read from its banner."""
    process = subprocess.Popen(
        [PYTHON, "-m", "tui", "emulator", "--port", "0", "--seed", "22", "--clock-speed", f"{speed:g}"],
        env={**os.environ, "WDS_EMULATOR_API_KEYS": KEY},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        start_new_session=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if found := re.search(r"serving (http://\S+)", line):
            break
    else:
        raise SystemExit(f"the emulator did not start (exit {process.wait()})")
    # Its log is read on, so the pipe never fills and blocks it.
    threading.Thread(target=lambda: [None for _ in process.stdout or ()], daemon=True).start()
    return process, found.group(1)


def write_config(home: Path, base_url: str, megabytes: float, days: float) -> None:
    config = home / "config.toml"
    config.write_text(
        f'current = "{CONTEXT}"\n\n[contexts.{CONTEXT}]\nbase_url = "{base_url}"\n\n'
        f"[contexts.{CONTEXT}.journal]\nmax_megabytes = {megabytes:g}\nretention_days = {days:g}\n"
    )
    config.chmod(0o600)


def size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def journal_span(path: Path) -> tuple[int, float, float]:
    """Activity rows the journal holds, and the times of its oldest and newest call."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        rows, oldest, newest = connection.execute(
            "SELECT count(*), min(created_at), max(created_at) FROM activity"
        ).fetchone()
    finally:
        connection.close()
    return int(rows), float(oldest or 0), float(newest or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0, help="how long watch runs (real minutes)")
    parser.add_argument("--clock-speed", type=float, default=600.0, help="the emulator's clock speed")
    parser.add_argument("--max-megabytes", type=float, default=2.0, help="the journal's size cap")
    parser.add_argument("--retention-days", type=float, default=3.0, help="the journal's retention")
    parser.add_argument("--refresh", type=float, default=2.0, help="watch's --refresh (seconds between polls)")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}")
    emulator, base_url = start_emulator(args.clock_speed)
    try:
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            run(args, home, base_url)
    finally:
        os.killpg(emulator.pid, signal.SIGTERM)
        emulator.wait(15)


def run(args: argparse.Namespace, home: Path, base_url: str) -> None:
    write_config(home, base_url, args.max_megabytes, args.retention_days)
    log = home / "watch.jsonl"
    journal = home / "state" / "wds-tui" / "journal" / f"{CONTEXT}.sqlite3"
    wal = journal.with_name(journal.name + "-wal")
    watch = subprocess.Popen(
        [PYTHON, "-m", "tui", "watch", "--refresh", f"{args.refresh:g}", "--log-file", str(log)],
        env=environment(home),
        stdout=subprocess.DEVNULL,
        stderr=(home / "watch.err").open("wb"),
        cwd=ROOT,
        start_new_session=True,
    )
    cap = args.max_megabytes * MB
    print(f"cap {args.max_megabytes:g} MB, retention {args.retention_days:g} days, clock x{args.clock_speed:g}")
    print(f"{'min':>5} {'emu days':>8} {'file MB':>8} {'wal MB':>7} {'both MB':>8} {'rows':>7} {'rss MB':>7}")
    started = time.monotonic()
    samples: list[tuple[float, int, int, float]] = []
    try:
        while (elapsed := time.monotonic() - started) < args.minutes * 60:
            time.sleep(args.every)
            if watch.poll() is not None:
                raise SystemExit(f"watch ended ({watch.returncode}): {(home / 'watch.err').read_text()}")
            file_bytes, wal_bytes, rss = size(journal), size(wal), rss_mb(watch.pid)
            rows = journal_span(journal)[0] if file_bytes else 0
            samples.append((elapsed, file_bytes, wal_bytes, rss))
            days = (time.monotonic() - started) * args.clock_speed / 86400
            print(
                f"{elapsed / 60:5.1f} {days:8.2f} {file_bytes / MB:8.2f} {wal_bytes / MB:7.2f} "
                f"{(file_bytes + wal_bytes) / MB:8.2f} {rows:7d} {rss:7.1f}",
                flush=True,
            )
    finally:
        covered = (time.monotonic() - started) * args.clock_speed / 86400
        watch.send_signal(signal.SIGTERM)
        code = watch.wait(60)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    stop = lines[-1] if lines and lines[-1]["event"] == "stop" else {}
    summary = stop.get("contexts", {}).get(CONTEXT, {})
    rows, oldest, newest = journal_span(journal)
    print(f"watch exit status {code}; emulated days covered {covered:.2f}")
    print(f"jobs watch saw finish: {summary.get('jobs_finished')}, polls {summary.get('polls')}")
    print(
        f"largest file {max(s[1] for s in samples) / MB:.2f} MB, largest file + WAL "
        f"{max(s[1] + s[2] for s in samples) / MB:.2f} MB (cap {cap / MB:g} MB); at the end {size(journal) / MB:.2f} MB"
    )
    print(f"watch RSS: first sample {samples[0][3]:.1f} MB, last {samples[-1][3]:.1f} MB")
    print(f"the journal at the end: {rows} calls over {(newest - oldest) / 86400:.2f} emulated days")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
