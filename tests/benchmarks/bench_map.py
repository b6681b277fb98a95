"""Benchmark of `POST /v2/map` on the emulator's biggest synthetic site (issue 11's target).

    python tests/benchmarks/bench_map.py [--runs 5]

Starts the emulator as its own process (`python -m tui.emulator`, uvicorn, no live
traffic) on a free loopback port, then maps `bigbox-supply.com` with `limit: 100000`:

1. request sent -> whole body received (raw httpx): target median <= 1.0 s;
2. the same through the typed client (`WdsClient.map`, body read under its cap
   and parsed into `MapResult`): reported, no target here;
3. a few variants (`includeSubdomains: false`, `sitemap: "only"`, a `search`)
   to show what the options cost.

Prints the figures; exit status 1 when the target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tui.api.client import WdsClient  # noqa: E402
from tui.emulator.sites.sizes import BIGGEST_HOST  # noqa: E402

KEY = "wds-" + "ab" * 16
TARGET_SECONDS = 1.0
BODY = {"url": f"https://{BIGGEST_HOST}/", "limit": 100_000}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_emulator(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "tui.emulator", "--port", str(port), "--api-key", KEY, "--no-traffic"]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1).raise_for_status()
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("the emulator did not start within 20 s")


def timed_raw(base_url: str, body: dict[str, object]) -> tuple[float, int, int]:
    """Seconds from sending to the last byte, the body's size and the number of links."""
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {KEY}"}, timeout=60) as client:
        started = time.perf_counter()
        response = client.post("/v2/map", json=body)
        content = response.content
        elapsed = time.perf_counter() - started
    response.raise_for_status()
    return elapsed, len(content), len(response.json()["links"])


async def timed_typed(base_url: str) -> tuple[float, int]:
    async with WdsClient(base_url, KEY, timeout=60) as client:
        started = time.perf_counter()
        mapped = await client.map(BODY["url"], limit=100_000)
        return time.perf_counter() - started, len(mapped.links)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    proc = start_emulator(port)
    try:
        timed_raw(base_url, BODY)  # warm-up: the first map builds the site and imports the lanes
        raw = [timed_raw(base_url, BODY) for _ in range(args.runs)]
        seconds = [r[0] for r in raw]
        median = statistics.median(seconds)
        print(
            f"map {BIGGEST_HOST} limit 100000 (raw): {raw[0][2]} links, {raw[0][1] / 2**20:.1f} MiB, "
            f"median {median:.3f} s, min {min(seconds):.3f} s, max {max(seconds):.3f} s over {args.runs} runs "
            f"(target <= {TARGET_SECONDS:.1f} s)"
        )
        typed = [asyncio.run(timed_typed(base_url)) for _ in range(max(1, args.runs // 2))]
        print(
            f"  through WdsClient.map (read + parse into MapResult): {typed[0][1]} links, "
            f"median {statistics.median(t for t, _ in typed):.3f} s"
        )
        for label, extra in (
            ("includeSubdomains false", {"includeSubdomains": False}),
            ("sitemap only", {"sitemap": "only"}),
            ("sitemap skip", {"sitemap": "skip"}),
            ("ignoreQueryParameters false", {"ignoreQueryParameters": False}),
            ("search 'terracotta pot'", {"search": "terracotta pot"}),
        ):
            elapsed, size, count = timed_raw(base_url, {**BODY, **extra})
            print(f"  {label}: {count} links, {size / 2**20:.1f} MiB, {elapsed:.3f} s")
        return 0 if median <= TARGET_SECONDS else 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
