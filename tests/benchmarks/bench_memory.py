"""Memory over days (issue 9, part 6): RSS over time of the dashboard and of the emulator.

1. dashboard: the real dashboard (`python -m tui`) in a pseudo-terminal of
   120x40, against an emulator in another process with live traffic, or with
   `--embedded` on its embedded emulator (the default with no service set). After a
   warm-up (default 5 minutes) its RSS is sampled for `--minutes` and the
   growth and the slope (least squares, MB/hour) are printed. Target: at most
   5 MB of growth over an hour.
2. emulator: the standalone emulator (`wds-tui emulator`) with its clock run
   `--clock-speed` times faster than real time, so its live traffic (paced in
   emulator time) and the 24-hour windows of the contract pass quickly, plus a
   steady soak of outside requests (`--soak-rps`, per real second: activity
   pages, crawl lists, scrapes, maps). It runs until `--sim-hours` of emulator
   time have passed. Target: under 250 MB after 24 hours of traffic.

`--tracemalloc` runs the program under tracemalloc (12 frames) and prints the
allocation sites that grew most from the end of the warm-up to the end (a
snapshot diff), with tracebacks. Its bookkeeping inflates RSS: it is for
finding what grows; the figures come from runs without it.

Usage:
  python tests/benchmarks/bench_memory.py dashboard [--embedded] [--warmup-minutes 5] [--minutes 60]
  python tests/benchmarks/bench_memory.py emulator [--clock-speed 96] [--sim-hours 26] [--soak-rps 10]
  add --tracemalloc to either to print the growing allocation sites.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYTHON = sys.executable
sys.path.insert(0, str(HERE))

from bench_dashboard import PtyProcess, emulator_from_banner, no_config_env  # noqa: E402 - found through the sys.path line above

TRACE_FRAMES = 12
SNAPSHOT_FILTERS = (
    tracemalloc.Filter(False, tracemalloc.__file__),
    tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
    tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"),
    tracemalloc.Filter(False, "<unknown>"),
)


# --- measuring -------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    """Resident set size of `pid` in MB (VmRSS, what `ps -o rss` shows)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def children_rss_mb(pid: int) -> float:
    """RSS of `pid`'s children (the embedded emulator is one), in MB; 0 when it has none."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                total += rss_mb(int(child))
            except (FileNotFoundError, RuntimeError):
                pass  # gone between the listing and the read
    return total


def slope_mb_per_hour(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) samples, in MB per hour."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_m = sum(m for _, m in samples) / n
    var = sum((t - mean_t) ** 2 for t, _ in samples)
    if var == 0:
        return 0.0
    cov = sum((t - mean_t) * (m - mean_m) for t, m in samples)
    return cov / var * 3600


def summary(samples: list[tuple[float, float]]) -> dict[str, float]:
    first, last = samples[0][1], samples[-1][1]
    return {
        "minutes": round((samples[-1][0] - samples[0][0]) / 60, 1),
        "start_mb": round(first, 1),
        "end_mb": round(last, 1),
        "max_mb": round(max(m for _, m in samples), 1),
        "growth_mb": round(last - first, 1),
        "slope_mb_per_hour": round(slope_mb_per_hour(samples), 2),
    }


# --- the traced child: runs a program with tracemalloc, dumps snapshots on demand ---------


def traced_main(program: str, snapshot_dir: str, argv: list[str]) -> int:
    """Run `program` ("dashboard" or "emulator") under tracemalloc.

    The first SIGUSR2 takes the baseline snapshot; each later one writes the
    diff against it as text (`diff-N.txt`). Done in a thread of its own, and
    here rather than in the parent: pickling a snapshot of a big heap takes
    minutes, diffing it in place seconds.
    """
    tracemalloc.start(TRACE_FRAMES)
    wanted = threading.Event()

    def dumper() -> None:
        baseline = None
        taken = 0
        while True:
            wanted.wait()
            wanted.clear()
            taken += 1
            snapshot = tracemalloc.take_snapshot().filter_traces(SNAPSHOT_FILTERS)
            path = Path(snapshot_dir) / f"diff-{taken}.txt"
            text = "baseline taken\n" if baseline is None else diff_text(baseline, snapshot)
            if baseline is None:
                baseline = snapshot
            path.with_suffix(".tmp").write_text(text)
            os.replace(path.with_suffix(".tmp"), path)

    threading.Thread(target=dumper, daemon=True).start()
    signal.signal(signal.SIGUSR2, lambda *_: wanted.set())
    if program == "dashboard":
        from tui.dashboard.startup.cli import main as dashboard_main

        return dashboard_main(argv)
    from tui.emulator.cli import main as emulator_main

    return emulator_main(argv)


def diff_text(old: tracemalloc.Snapshot, new: tracemalloc.Snapshot, top: int = 25) -> str:
    """The allocation sites that grew most from `old` to `new`, by line and by traceback."""
    lines = [f"top {top} growing allocation sites (tracemalloc, by line):"]
    # Growth first (compare_to sorts by size either way: shrinking is not what is looked for).
    by_line = sorted(new.compare_to(old, "lineno"), key=lambda stat: stat.size_diff, reverse=True)
    lines += [f"   {stat}" for stat in by_line[:top]]
    lines.append("largest growth by traceback (innermost last):")
    by_traceback = sorted(new.compare_to(old, "traceback"), key=lambda stat: stat.size_diff, reverse=True)
    for stat in by_traceback[:6]:
        lines.append(f"  +{stat.size_diff / 1024:.1f} KiB in {stat.count_diff:+d} blocks")
        lines += [f"      {line}" for line in stat.traceback.format(limit=TRACE_FRAMES)[-16:]]
    return "\n".join(lines) + "\n"


class Snapshots:
    """Asks a traced child for its baseline snapshot, then for diffs against it."""

    def __init__(self, pid: int, directory: Path) -> None:
        self.pid = pid
        self.directory = directory
        self.taken = 0

    def take(self, timeout: float = 900.0) -> str:
        """Signal the child and wait for what it wrote: "baseline taken", or a diff."""
        self.taken += 1
        path = self.directory / f"diff-{self.taken}.txt"
        os.kill(self.pid, signal.SIGUSR2)
        deadline = time.monotonic() + timeout
        while not path.exists():
            if time.monotonic() > deadline:
                raise TimeoutError("the traced program wrote no snapshot")
            time.sleep(0.5)
        return path.read_text()


def program_argv(program: str, traced: bool, snapshot_dir: Path, args: list[str]) -> list[str]:
    if traced:
        return [PYTHON, __file__, "_traced", program, str(snapshot_dir), *args]
    if program == "dashboard":
        return [PYTHON, "-m", "tui", *args]
    return [PYTHON, "-m", "tui", "emulator", *args]


# --- the emulator in another process -----------------------------------------------


def start_emulator(argv: list[str]) -> tuple[subprocess.Popen[str], str, str]:
    """The emulator; its base URL and key, read from its banner."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, start_new_session=True
    )
    url, key = emulator_from_banner(proc)
    return proc, url, key


def stop(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# --- the soak: outside requests at a steady rate -------------------------------------


SOAK_HOSTS = ("acme-outdoor.com", "docs.northwind.dev", "blog.lumen-labs.io", "shop.fernwood.co")


class Soak:
    """Sends a steady mix of requests, as dashboards and scripts would, from a thread of its own."""

    def __init__(self, base_url: str, key: str, rps: float) -> None:
        self.base_url, self.key, self.rps = base_url, key, rps
        self.sent = self.failed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def start(self) -> None:
        if self.rps > 0:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(30)

    def _request(self, rng: random.Random) -> tuple[str, str, dict | None]:
        host = rng.choice(SOAK_HOSTS)
        kind = rng.choices(("activity", "active", "usage", "scrape", "map", "crawl"), (6, 2, 1, 4, 1, 1))[0]
        if kind == "activity":
            return "GET", "/v2/team/activity?limit=50", None
        if kind == "active":
            return "GET", "/v2/crawl/active", None
        if kind == "usage":
            return "GET", "/v2/team/token-usage/historical?byApiKey=true", None
        if kind == "scrape":
            return "POST", "/v2/scrape", {"url": f"https://{host}/{rng.choice(('', 'blog', 'pricing', 'about'))}"}
        if kind == "map":
            return "POST", "/v2/map", {"url": f"https://{host}", "limit": 200}
        return "POST", "/v2/crawl", {"url": f"https://{host}", "limit": rng.randint(5, 15)}

    async def _run(self) -> None:
        import httpx

        rng = random.Random(9)
        headers = {"Authorization": f"Bearer {self.key}"}
        async with httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=30) as client:
            started = time.monotonic()
            while not self._stop.is_set():
                method, path, body = self._request(rng)
                try:
                    response = await client.request(method, path, json=body)
                    self.failed += response.status_code >= 500
                except httpx.HTTPError:
                    self.failed += 1
                self.sent += 1
                # Steady rate: sleep to the next slot; when behind, go on at once.
                wait = started + self.sent / self.rps - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)


def count_activity(base_url: str, key: str) -> int:
    """How many calls the team's activity lists (its last 24 hours): what the emulator must keep."""
    import httpx

    total, cursor = 0, None
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
        while True:
            params = {"limit": 100, **({"cursor": cursor} if cursor else {})}
            page = client.get("/v2/team/activity", params=params).json()
            total += len(page["data"])
            cursor = page.get("cursor")
            if not page.get("has_more") or not cursor:
                return total


# --- the two benchmarks --------------------------------------------------------------


def sample_until(
    pid: int, seconds: float, every: float, label: str, started: float, extra: Callable[[], str] | None = None
) -> list[tuple[float, float]]:
    """RSS samples of `pid` every `every` seconds for `seconds`, printed as they come."""
    samples: list[tuple[float, float]] = []
    deadline = time.monotonic() + seconds
    while True:
        now = time.monotonic()
        mb = rss_mb(pid)
        samples.append((now, mb))
        note = f"  {extra()}" if extra else ""
        print(f"{label} t={(now - started) / 60:6.1f} min  rss={mb:7.1f} MB{note}", flush=True)
        if now >= deadline:
            return samples
        time.sleep(min(every, max(0.0, deadline - now)))


def bench_dashboard(args: argparse.Namespace, tmp: Path) -> None:
    emulator: subprocess.Popen[str] | None = None
    if args.embedded:
        # No service configured: the dashboard starts its embedded emulator (with its live
        # traffic) in its own process, so the RSS measured is the dashboard's and the emulator's.
        env = no_config_env(tmp)
        soak = Soak("", "", 0.0)
    else:
        emulator, url, key = start_emulator(program_argv("emulator", False, tmp, ["--port", "0", "--seed", "1"]))
        soak = Soak(url, key, args.soak_rps)
        soak.start()
        env = {**no_config_env(tmp), "WDS_BASE_URL": url, "WDS_API_KEY": key}
    app = PtyProcess(program_argv("dashboard", args.tracemalloc, tmp, []), env=env)
    reader = threading.Thread(target=lambda: _drain(app), daemon=True)
    try:
        app.wait_for("connected", timeout=120)
        reader.start()
        started = time.monotonic()
        child_samples: list[tuple[float, float]] = []

        def embedded_rss() -> str:
            # The embedded emulator's RSS beside the dashboard's: reported, but not the target's.
            mb = children_rss_mb(app.proc.pid)
            child_samples.append((time.monotonic(), mb))
            return f"embedded emulator rss={mb:7.1f} MB"

        extra = embedded_rss if args.embedded else None
        sample_until(app.proc.pid, args.warmup_minutes * 60, args.every, "dashboard warm-up", started, extra)
        snaps = Snapshots(app.proc.pid, tmp) if args.tracemalloc else None
        if snaps:
            snaps.take()
        child_samples.clear()
        samples = sample_until(app.proc.pid, args.minutes * 60, args.every, "dashboard", started, extra)
        print("dashboard after warm-up:", summary(samples), flush=True)
        if child_samples:
            print("embedded emulator after warm-up:", summary(child_samples), flush=True)
        if snaps:
            print(snaps.take(), flush=True)
    finally:
        soak.stop()
        _stopping.set()
        app.stop()
        if emulator is not None:
            stop(emulator)


_stopping = threading.Event()


def _drain(app: PtyProcess) -> None:
    """Keep reading the dashboard's output (a real terminal would) without keeping it."""
    while not _stopping.is_set():
        app.pump(1.0)
        app.chunks.clear()


def bench_emulator(args: argparse.Namespace, tmp: Path) -> None:
    extra = ["--port", "0", "--seed", "1", "--clock-speed", str(args.clock_speed)]
    emulator, url, key = start_emulator(program_argv("emulator", args.tracemalloc, tmp, extra))
    soak = Soak(url, key, args.soak_rps)
    started = time.monotonic()
    try:
        soak.start()

        def emulator_hours() -> str:
            hours = (time.monotonic() - started) * args.clock_speed / 3600
            return f"emulator time +{hours:5.1f} h  soak requests {soak.sent} ({soak.failed} failed)"

        warmup = args.warmup_sim_hours * 3600 / args.clock_speed
        sample_until(emulator.pid, warmup, args.every, "emulator warm-up", started, emulator_hours)
        snaps = Snapshots(emulator.pid, tmp) if args.tracemalloc else None
        if snaps:
            snaps.take()
        rest = (args.sim_hours - args.warmup_sim_hours) * 3600 / args.clock_speed
        samples = sample_until(emulator.pid, rest, args.every, "emulator", started, emulator_hours)
        result = summary(samples)
        result["emulator_hours"] = round((time.monotonic() - started) * args.clock_speed / 3600, 1)
        result["soak_requests"] = soak.sent
        result["calls_listed_in_last_24h"] = count_activity(url, key)
        result["under_250_mb"] = samples[-1][1] < 250
        print("emulator:", result, flush=True)
        if snaps:
            print(snaps.take(), flush=True)
    finally:
        soak.stop()
        stop(emulator)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_traced":
        return traced_main(sys.argv[2], sys.argv[3], sys.argv[4:])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("which", choices=("dashboard", "emulator"))
    parser.add_argument("--tracemalloc", action="store_true", help="print the allocation sites that grew most")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between RSS samples (default 60)")
    parser.add_argument(
        "--soak-rps",
        type=float,
        default=None,
        help="outside requests per real second (default 0 for dashboard, 10 for emulator)",
    )
    parser.add_argument("--warmup-minutes", type=float, default=5.0, help="dashboard: warm-up (default 5)")
    parser.add_argument("--minutes", type=float, default=60.0, help="dashboard: measured time (default 60)")
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="dashboard: run on its embedded emulator (no service configured) rather than one in another process",
    )
    parser.add_argument(
        "--clock-speed",
        type=float,
        default=96.0,
        help="emulator: its clock's speed-up (default 96: a day in 15 minutes)",
    )
    parser.add_argument(
        "--sim-hours",
        type=float,
        default=26.0,
        help="emulator: emulator hours to run (default 26: past the 24-hour window)",
    )
    parser.add_argument(
        "--warmup-sim-hours",
        type=float,
        default=2.0,
        help="emulator: emulator hours before the first tracemalloc snapshot (default 2)",
    )
    args = parser.parse_args()
    if args.soak_rps is None:
        args.soak_rps = 0.0 if args.which == "dashboard" else 10.0
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"wds-bench-memory-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    if args.which == "dashboard":
        bench_dashboard(args, tmp)
    else:
        bench_emulator(args, tmp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
