"""Big batches (issue 18, section 4): what accepting 100,000 URLs costs the emulator.

The emulator runs in its own process (`python -m tui emulator --port 0`, no
live traffic). After a warm-up (a small batch started and read), one client
posts a batch of `--urls` URLs (default 100,000, spread over `--hosts` sites)
while another team's probe asks `GET /v2/team/activity` every 5 ms over its
own connection. Printed:

- the RSS growth of the emulator process from before the batch to 2 s after
  its answer, and again after its first status page has been read;
- the worst probe latency while the batch was sent, accepted and answered
  (a probe waits as long as the event loop is held), next to the median;
- the answers to `--repeat` more batches of the same size (with the team's
  queue cap of 200,000 URLs, a second batch of 100,000 fits and a third is
  answered 429) and the RSS after them.

Targets (issue 18): 100,000 URLs cost at most 50 MB and hold the loop at most 100 ms.

Usage:
  python tests/benchmarks/bench_batch.py [--urls 100000] [--hosts 50] [--repeat 2] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_load import Connection, start_emulator  # noqa: E402

PROBE_GAP = 0.005


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def batch_urls(count: int, hosts: int, salt: str) -> list[str]:
    """`count` distinct URLs over `hosts` synthetic sites (paths a customer's list might hold)."""
    return [f"https://shop-{i % hosts}.example/products/item-{salt}-{i}?ref=list" for i in range(count)]


async def probe(host: str, port: int, key: str, stop: asyncio.Event, latencies: list[float]) -> None:
    conn = Connection(host, port)
    while not stop.is_set():
        started = time.monotonic()
        status, _ = await conn.request("GET", "/v2/team/activity?limit=5", key)
        assert status == 200, status
        latencies.append(time.monotonic() - started)
        await asyncio.sleep(PROBE_GAP)
    await conn.close()


async def post_batch(conn: Connection, key: str, urls: list[str] | bytes) -> tuple[int, dict[str, object], float]:
    # Bytes made beforehand: encoding 100,000 URLs here would hold this process's loop, and its probe.
    body = urls if isinstance(urls, bytes) else json.dumps({"urls": urls}).encode()
    started = time.monotonic()
    status, answer = await conn.request("POST", "/v2/batch/scrape", key, body)
    return status, json.loads(answer), time.monotonic() - started


async def measure(base_url: str, pid: int, keys: list[str], count: int, hosts: int, repeat: int) -> dict[str, object]:
    host, _, port_text = base_url.removeprefix("http://").rpartition(":")
    port = int(port_text)
    alpha, beta = keys
    conn = Connection(host, port)
    # Warm-up: the batch route, a status page and the probe's route have all run once
    # (a batch of 4 URLs, over in 2 s, so the team's queue is empty again).
    status, started, _ = await post_batch(conn, alpha, batch_urls(4, hosts, "warm"))
    assert status == 200, started
    await asyncio.sleep(2.5)
    await conn.request("GET", f"/v2/batch/scrape/{started['id']}", alpha)
    await conn.request("GET", "/v2/team/activity?limit=5", beta)
    await asyncio.sleep(1)
    before = rss_mb(pid)

    calm: list[float] = []
    stop = asyncio.Event()
    calm_task = asyncio.create_task(probe(host, port, beta, stop, calm))
    await asyncio.sleep(1)
    stop.set()
    await calm_task

    big = json.dumps({"urls": batch_urls(count, hosts, "big")}).encode()
    during: list[float] = []
    stop = asyncio.Event()
    probing = asyncio.create_task(probe(host, port, beta, stop, during))
    await asyncio.sleep(0.2)
    status, answer, seconds = await post_batch(conn, alpha, big)
    await asyncio.sleep(2)
    stop.set()
    await probing
    assert status == 200, answer
    accepted = rss_mb(pid)
    page_status, _ = await conn.request("GET", f"/v2/batch/scrape/{answer['id']}?limit=1000", alpha)
    await asyncio.sleep(0.5)
    after_status = rss_mb(pid)

    more = []
    for n in range(repeat):
        extra_status, extra, extra_seconds = await post_batch(conn, alpha, batch_urls(count, hosts, f"more{n}"))
        more.append(
            {
                "status": extra_status,
                "seconds": round(extra_seconds, 2),
                "error": extra.get("error") if extra_status != 200 else None,
            }
        )
    await asyncio.sleep(1)
    final = rss_mb(pid)
    await conn.close()
    return {
        "urls": count,
        "hosts": hosts,
        "answer_seconds": round(seconds, 2),
        "rss_before_mb": round(before, 1),
        "rss_delta_mb": round(accepted - before, 1),
        "rss_delta_after_status_mb": round(after_status - before, 1),
        "status_page": page_status,
        "probe_calm_median_ms": round(1000 * statistics.median(calm), 1),
        "probe_worst_ms": round(1000 * max(during), 1),
        "probe_median_ms": round(1000 * statistics.median(during), 1),
        "probes": len(during),
        "probe_top5_ms": [round(1000 * x, 1) for x in sorted(during)[-5:]],
        "probe_calm_worst_ms": round(1000 * max(calm), 1),
        "more_batches": more,
        "rss_after_more_mb": round(final - before, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--urls", type=int, default=100_000)
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=2, help="more batches of the same size afterwards")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    keys = ["wds-" + secrets.token_hex(16) for _ in range(2)]
    process, base_url = start_emulator(keys, seed=7)
    try:
        result = asyncio.run(measure(base_url, process.pid, keys, args.urls, args.hosts, args.repeat))
    finally:
        process.terminate()
        process.wait(10)
    result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    print(
        f"{result['urls']} URLs over {result['hosts']} hosts: answered in {result['answer_seconds']} s; "
        f"RSS +{result['rss_delta_mb']} MB (+{result['rss_delta_after_status_mb']} MB after a status page "
        f"of 1000); probe worst {result['probe_worst_ms']} ms, median {result['probe_median_ms']} ms "
        f"(calm median {result['probe_calm_median_ms']} ms, worst {result['probe_calm_worst_ms']} ms; "
        f"{result['probes']} probes, the 5 slowest {result['probe_top5_ms']} ms)"
    )
    print(
        f"more batches: {result['more_batches']}; RSS +{result['rss_after_more_mb']} MB after them; "
        f"load average {result['loadavg']}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
