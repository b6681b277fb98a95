"""Speed of the dashboard as a terminal sees it (issue 4's targets).

Every program runs in a real pseudo-terminal of 120x40; the benchmark reads
what it writes, as a terminal emulator would, and times it.

1. Start-up: process start to the first frame with data ("connected" in the
   header, drawn with the first pane's data), on the embedded emulator and
   against an emulator in another process (a remote service), against a
   bare Textual app (header, footer, one table) in the same run, the same
   bare app after importing the rest of the stack (pydantic,
   pydantic-settings, httpx): the floor any program on this stack starts
   from, and after importing our own modules too (the breakdown).
2. Idle: against an emulator with no live traffic and every pane polling
   each 5 s, the bytes written and CPU seconds used in one minute.
3. One changed row: bytes per tick of a 100-row table whose one cell changes
   every second, LiveTable against DataTable.update_cell.
4. Key latency: with every request taking 400 ms and panes polling each
   0.5 s (so fetches are always in flight), time from a key press to the
   first bytes of the redraw: zoom (a whole-screen relayout) and cursor down
   (the commonest key).

Usage: python tests/benchmarks/bench_dashboard.py [--runs 5] [--idle-seconds 60]
"""

from __future__ import annotations

import argparse
import compileall
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
COLS, ROWS = 120, 40
CLK_TCK = os.sysconf("SC_CLK_TCK")


class PtyProcess:
    """A program on a pseudo-terminal, with everything it writes kept with timestamps."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        full_env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLS), "LINES": str(ROWS)}
        full_env.update(env or {})
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=full_env, start_new_session=True, cwd=HERE.parents[1]
        )
        os.close(slave)
        self.master = master
        self.chunks: list[tuple[float, bytes]] = []

    def pump(self, seconds: float) -> None:
        """Read whatever arrives for `seconds`."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.05))
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                self.chunks.append((time.monotonic(), data))

    def text(self) -> str:
        return b"".join(data for _, data in self.chunks).decode("utf-8", "replace")

    def wait_for(self, marker: str, timeout: float = 30.0) -> float:
        """Seconds from process start until `marker` appeared in the output."""
        deadline = time.monotonic() + timeout
        pattern = marker.encode()
        seen = b""
        index = 0
        while time.monotonic() < deadline:
            self.pump(0.02)
            for stamp, data in self.chunks[index:]:
                seen += data
                if pattern in seen:
                    return stamp - self.started
            index = len(self.chunks)
        raise TimeoutError(f"{marker!r} did not appear within {timeout} s")

    def bytes_between(self, start: float, end: float) -> int:
        return sum(len(data) for stamp, data in self.chunks if start <= stamp < end)

    def send(self, keys: bytes) -> float:
        sent = time.monotonic()
        os.write(self.master, keys)
        return sent

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.master)


def emulator_from_banner(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """The base URL and key an emulator process prints in its banner.

    Its output (logs) is read on after the banner, so the pipe never fills and blocks it.
    """
    url = key = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        if m := re.search(r"serving (http://\S+)", line):
            url = m.group(1)
        if m := re.search(r"\b(wds-[0-9a-f]{32})\b", line):
            key = m.group(1)
        if url and key:
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
            return url, key
    raise RuntimeError("the emulator did not print its URL and key")


def start_emulator(*extra: str) -> tuple[subprocess.Popen[str], str, str]:
    """A separate emulator process; its base URL and key, read from its banner."""
    proc = subprocess.Popen(
        [PYTHON, "-m", "tui", "emulator", "--port", "0", "--seed", "1", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=HERE.parents[1],
        start_new_session=True,
    )
    url, key = emulator_from_banner(proc)
    return proc, url, key


def stop(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(10)


def no_config_env(tmp: Path) -> dict[str, str]:
    return {"HOME": str(tmp), "WDS_CONFIG": str(tmp / "none.toml"), "WDS_BASE_URL": "", "WDS_API_KEY": ""}


def compile_our_modules() -> None:
    """Byte-compile wds-tui's modules first, as installing it does (pip compiles what it installs).

    The bare app's libraries in site-packages have their bytecode. A checkout
    run with PYTHONDONTWRITEBYTECODE set (as on the project's machines) would
    otherwise compile our ~120 modules from source at every start of the
    dashboard, and the emulator's at every start of its child: a cost that no
    installed copy pays, and that would be counted against our start-up.
    """
    compileall.compile_dir(HERE.parents[1] / "tui", quiet=1)


def bench_startup(runs: int, tmp: Path) -> dict[str, float]:
    """Medians of each program, started in turn so that noise hits them alike.

    Five programs: the bare app; the floor (the bare app after importing the
    stack the dashboard's own process needs); the bare app after importing
    all of wds-tui's modules that its first frame needs (our import cost);
    wds-tui on the embedded emulator
    (nothing configured); wds-tui against an emulator already running in
    another process (a remote service, as far as the dashboard can tell).
    """
    emulator, url, key = start_emulator()
    times: dict[str, list[float]] = {"bare": [], "floor": [], "our_imports": [], "embedded": [], "remote": []}
    remote_env = {**no_config_env(tmp), "WDS_BASE_URL": url, "WDS_API_KEY": key}
    programs = {
        "bare": ([PYTHON, str(HERE / "bare_app.py")], None, "bare-row-1"),
        "floor": ([PYTHON, str(HERE / "stack_floor_app.py")], None, "bare-row-1"),
        "our_imports": ([PYTHON, str(HERE / "our_imports_app.py")], None, "bare-row-1"),
        "embedded": ([PYTHON, "-m", "tui"], no_config_env(tmp), "connected"),
        "remote": ([PYTHON, "-m", "tui"], remote_env, "connected"),
    }
    try:
        for _ in range(runs):
            for name, (argv, env, marker) in programs.items():
                app = PtyProcess(argv, env=env)
                times[name].append(app.wait_for(marker))
                app.stop()
    finally:
        stop(emulator)
    medians = {name: statistics.median(values) for name, values in times.items()}
    bare = medians["bare"]
    return {
        **{f"{name}_median_s": round(value, 3) for name, value in medians.items()},
        **{f"{name}_ratio": round(value / bare, 2) for name, value in medians.items() if name != "bare"},
    }


def bench_idle(seconds: float, tmp: Path) -> dict[str, float]:
    emulator, url, key = start_emulator("--no-traffic")
    try:
        env = {**no_config_env(tmp), "WDS_BASE_URL": url, "WDS_API_KEY": key, "WDS_REFRESH": "5"}
        app = PtyProcess([PYTHON, "-m", "tui"], env=env)
        app.wait_for("connected")
        app.pump(12)  # every pane has fetched at least twice; nothing is loading any more
        cpu0, t0 = app.cpu_seconds(), time.monotonic()
        app.pump(seconds)
        cpu1, t1 = app.cpu_seconds(), time.monotonic()
        written = app.bytes_between(t0, t1)
        app.stop()
    finally:
        stop(emulator)
    minutes = (t1 - t0) / 60
    return {"seconds": t1 - t0, "bytes_written": written, "cpu_seconds_per_minute": (cpu1 - cpu0) / minutes}


def bench_row_change(ticks: int) -> dict[str, float]:
    results = {}
    for mode in ("live", "datatable"):
        app = PtyProcess([PYTHON, str(HERE / "table_repaint_app.py"), mode])
        app.wait_for("row-1")
        app.pump(2.5)
        start = time.monotonic()
        app.pump(ticks)
        results[f"{mode}_bytes_per_tick"] = app.bytes_between(start, time.monotonic()) / ticks
        app.stop()
    return results


def bench_key_latency(presses: int, tmp: Path, key_bytes: bytes = b"z") -> dict[str, float]:
    emulator, url, key = start_emulator("--no-traffic", "--latency", "400")
    try:
        env = {**no_config_env(tmp), "WDS_BASE_URL": url, "WDS_API_KEY": key, "WDS_REFRESH": "0.5"}
        app = PtyProcess([PYTHON, "-m", "tui"], env=env)
        app.wait_for("connected")
        app.pump(3)
        app.send(b"2")  # the activity table: 25 rows to move through
        app.pump(1)
        delays = []
        for _ in range(presses):
            app.pump(0.35)
            before = len(app.chunks)
            sent = app.send(key_bytes)
            deadline = sent + 2
            while time.monotonic() < deadline and len(app.chunks) == before:
                app.pump(0.005)
            if len(app.chunks) > before:
                delays.append(app.chunks[before][0] - sent)
        app.stop()
    finally:
        stop(emulator)
    if not delays:
        return {"presses": presses, "answered": 0}
    return {
        "presses": presses,
        "answered": len(delays),
        "median_ms": statistics.median(delays) * 1000,
        "p90_ms": sorted(delays)[int(len(delays) * 0.9) - 1] * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="start-up runs of each program (default 5)")
    parser.add_argument("--idle-seconds", type=float, default=60.0, help="length of the idle window (default 60)")
    parser.add_argument("--ticks", type=int, default=10, help="ticks of the row-change test (default 10)")
    parser.add_argument("--presses", type=int, default=20, help="key presses of the latency test (default 20)")
    parser.add_argument("--startup-only", action="store_true", help="measure start-up alone")
    args = parser.parse_args()
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"wds-bench-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    compile_our_modules()
    print("start-up:", bench_startup(args.runs, tmp), flush=True)
    if args.startup_only:
        return 0
    print("idle:", bench_idle(args.idle_seconds, tmp), flush=True)
    print("one changed row:", bench_row_change(args.ticks), flush=True)
    print("key latency with fetches in flight, zoom (z):", bench_key_latency(args.presses, tmp), flush=True)
    print(
        "key latency with fetches in flight, cursor down:", bench_key_latency(args.presses, tmp, b"\x1b[B"), flush=True
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
