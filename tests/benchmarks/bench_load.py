"""Load (issue 18, "Done when"): many dashboards polling one emulator at once.

The emulator runs in its own process (`python -m tui emulator --port 0`,
seeded history, no live traffic), with `--teams` teams. `--clients` clients
(default 50), spread over the teams, each keep one keep-alive connection and
send request after request for `--seconds` (default 60), each picked from the
dashboard's polling mix:

  activity page (limit 50) 25%, active crawls 15%, a crawl's status 15%,
  token usage 10%, browser sessions 15%, a batch's status 10%, a scrape 10%.

Every crawl and batch polled was started by its team before the clock starts.
It prints requests per second, p50/p99/max latency, errors (any answer but
2xx, any broken connection) by endpoint, and the machine's load average
before and after, since the figure depends on what else runs. It also prints
the emulator process's CPU time per request, which depends much less on the
other processes of a shared machine: compare two versions by it when the load
average is high.

The client is a few lines of HTTP/1.1 over asyncio streams, not httpx: it
costs a tenth of the CPU per request, and it shares the machine's cores with
the server it measures.

Usage:
  python tests/benchmarks/bench_load.py [--clients 50] [--seconds 60] [--teams 5] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://acme-outdoor.com"
SCRAPE_PAGES = ["/", "/about", "/pricing", "/contact", "/blog", "/legal/terms"]


@dataclass
class Team:
    key: str
    crawls: list[str] = field(default_factory=list)
    batches: list[str] = field(default_factory=list)


def start_emulator(keys: list[str], seed: int) -> tuple[subprocess.Popen[str], str]:
    """The emulator in its own process; its base URL read from the banner (keys given by environment)."""
    specs = " ".join(f"team-{i}={key}" for i, key in enumerate(keys))
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "emulator", "--port", "0", "--seed", str(seed), "--no-traffic"],
        env={**os.environ, "WDS_EMULATOR_API_KEYS": specs, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if found := re.search(r"serving (http://\S+)", line):
            break
    else:
        process.wait(10)
        raise RuntimeError("the emulator did not print its URL")
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # type: ignore[union-attr]
    return process, found.group(1)


class Connection:
    """One keep-alive HTTP/1.1 connection; `request` returns (status, body)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, key: str, body: bytes | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: Bearer {key}\r\nAccept: application/json\r\n"
        )
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + (body or b""))
        try:
            raw = await self.reader.readuntil(b"\r\n\r\n")
            lines = raw.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            headers = {
                name.strip().lower(): value.strip()
                for name, _, value in (line.partition(":") for line in lines[1:] if line)
            }
            if headers.get("transfer-encoding", "").lower() == "chunked":
                payload = b""
                while size := int((await self.reader.readuntil(b"\r\n")).strip() or b"0", 16):
                    payload += await self.reader.readexactly(size + 2)
                await self.reader.readuntil(b"\r\n")
            else:
                payload = await self.reader.readexactly(int(headers.get("content-length", "0")))
            if headers.get("connection", "").lower() == "close":
                await self.close()
            return status, payload
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = None


# (name, weight): what one dashboard polls, and how often relative to the rest.
MIX = [
    ("activity", 25),
    ("crawls active", 15),
    ("crawl status", 15),
    ("token usage", 10),
    ("sessions", 15),
    ("batch status", 10),
    ("scrape", 10),
]


def pick_request(name: str, team: Team, rng: random.Random) -> tuple[str, str, bytes | None]:
    if name == "activity":
        return "GET", "/v2/team/activity?limit=50", None
    if name == "crawls active":
        return "GET", "/v2/crawl/active", None
    if name == "crawl status":
        return "GET", f"/v2/crawl/{rng.choice(team.crawls)}?limit=20", None
    if name == "token usage":
        return "GET", "/v2/team/token-usage/historical?byApiKey=true", None
    if name == "sessions":
        return "GET", "/v2/browser", None
    if name == "batch status":
        return "GET", f"/v2/batch/scrape/{rng.choice(team.batches)}?limit=20", None
    return "POST", "/v2/scrape", json.dumps({"url": SITE + rng.choice(SCRAPE_PAGES)}).encode()


async def prepare(host: str, port: int, team: Team) -> None:
    """Each team starts the crawls and batches its dashboards will poll."""
    conn = Connection(host, port)
    for limit in (10, 25):
        status, body = await conn.request(
            "POST", "/v2/crawl", team.key, json.dumps({"url": SITE + "/", "limit": limit}).encode()
        )
        assert status == 200, body
        team.crawls.append(json.loads(body)["id"])
    for count in (5, 30):
        urls = [SITE + page for page in SCRAPE_PAGES] * (count // len(SCRAPE_PAGES) + 1)
        status, body = await conn.request(
            "POST", "/v2/batch/scrape", team.key, json.dumps({"urls": urls[:count]}).encode()
        )
        assert status == 200, body
        team.batches.append(json.loads(body)["id"])
    await conn.close()


async def client(
    host: str,
    port: int,
    team: Team,
    seed: int,
    until: float,
    latencies: list[float],
    errors: Counter[str],
    counts: Counter[str],
) -> None:
    rng = random.Random(seed)
    names, weights = zip(*MIX, strict=True)
    conn = Connection(host, port)
    while time.monotonic() < until:
        name = rng.choices(names, weights)[0]
        method, path, body = pick_request(name, team, rng)
        started = time.monotonic()
        try:
            status, _ = await asyncio.wait_for(conn.request(method, path, team.key, body), 30)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ValueError) as exc:
            errors[f"{name}: {type(exc).__name__}"] += 1
            await conn.close()
            continue
        latencies.append(time.monotonic() - started)
        counts[name] += 1
        if not 200 <= status < 300:
            errors[f"{name}: HTTP {status}"] += 1
    await conn.close()


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def measure(
    base_url: str, teams: list[Team], clients: int, seconds: float, pid: int | None = None
) -> dict[str, object]:
    host, _, port_text = base_url.removeprefix("http://").rpartition(":")
    port = int(port_text)
    await asyncio.gather(*(prepare(host, port, team) for team in teams))
    cpu_before = cpu_seconds(pid) if pid is not None else 0.0
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    started = time.monotonic()
    until = started + seconds
    await asyncio.gather(
        *(client(host, port, teams[i % len(teams)], i, until, latencies, errors, counts) for i in range(clients))
    )
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - cpu_before if pid is not None else float("nan")
    ordered = sorted(latencies)
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": len(latencies),
        "req_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(1000 * percentile(ordered, 0.50), 1),
        "p99_ms": round(1000 * percentile(ordered, 0.99), 1),
        "max_ms": round(1000 * ordered[-1], 1) if ordered else None,
        "errors": sum(errors.values()),
        "errors_by_kind": dict(errors),
        "by_endpoint": dict(counts),
        "server_cpu_s": round(cpu, 1),
        "server_cpu_ms_per_request": round(1000 * cpu / max(1, len(latencies)), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--teams", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    teams = [Team("wds-" + secrets.token_hex(16)) for _ in range(args.teams)]
    process, base_url = start_emulator([team.key for team in teams], args.seed)
    load_before = os.getloadavg()
    try:
        result = asyncio.run(measure(base_url, teams, args.clients, args.seconds, process.pid))
    finally:
        process.terminate()
        process.wait(10)
    result["loadavg_before"] = [round(x, 2) for x in load_before]
    result["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    result["cpus"] = os.cpu_count()
    print(
        f"{result['clients']} clients, {result['seconds']} s: {result['req_per_s']} req/s, "
        f"p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms, "
        f"{result['errors']} errors {result['errors_by_kind'] or ''}; emulator CPU "
        f"{result['server_cpu_ms_per_request']} ms a request"
    )
    print(
        f"load average before {result['loadavg_before']}, after {result['loadavg_after']} "
        f"({result['cpus']} CPUs); requests by endpoint {result['by_endpoint']}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2))
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
