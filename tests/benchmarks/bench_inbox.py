"""A burst of webhook deliveries into the dashboard's inbox, while a person presses keys (issue 18, section 3).

The real dashboard runs in a pseudo-terminal of 120x40 (against an emulator
in another process, without live traffic), listening for webhooks on the
loopback with a secret, its inbox screen open. Three signed events arrive
first (seed-a, seed-b, seed-c) and the cursor is put on seed-b. Then
`--senders` processes (4) send `--deliveries` (10,000) between them, each
over `--concurrency` (16) connections at a time: a new connection per
delivery (`--keep-alive` reuses them), every one a new event, unsigned (a
flood: they fill the unverified class and push out only their own rows).

Measured:
- the accept rate: deliveries answered 2xx per second, from the first sent
  to the last answered, and what failed (connection refused, timeouts, 5xx);
- key response while the burst runs: up and down move the cursor between
  seed-b and seed-c every `--press-every` seconds; the burst's rows arrive
  above them and the table keeps the cursor's row in place, so the detail
  under the table changes only with a key, and names the row's webhookId:
  the time from the key to the detail naming the row moved to is what a
  person waits. The same keys before the burst give the idle figure;
- when the screen showed the last delivery (its title's count), and the
  dashboard's RSS before and after.

The machine's load average is printed too: on a shared 2-core machine the
figures follow it.

Memory: `--deliveries 300 --body-kib 1000` sends 300 deliveries of 1 MB; the
RSS after tells what the inbox holds of them (its bodies stay within 64 MiB).

Usage: python tests/benchmarks/bench_inbox.py [--deliveries 10000] [--senders 4] [--concurrency 16] [--body-kib 0]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_dashboard import PYTHON, PtyProcess, no_config_env, start_emulator, stop  # noqa: E402

SECRET = "whsec-bench-inbox"
HOST = "127.0.0.1"


# --- a sender (run as its own process) ---------------------------------------------------


def request_bytes(sender: int, number: int, signed: bool, keep_alive: bool, body_kib: int = 0) -> bytes:
    markdown = f"# page {number}\n" + "lorem ipsum " * (body_kib * 1024 // 12)
    body = json.dumps(
        {
            "success": True,
            "type": "crawl.page",
            "id": f"bench-job-{sender}",
            "webhookId": f"bench-{sender}-{number}",
            "data": [{"markdown": markdown, "metadata": {"sourceURL": f"https://example.com/{number}"}}],
            "metadata": {"bench": sender},
        }
    ).encode()
    headers = ["POST / HTTP/1.1", f"Host: {HOST}", "Content-Type: application/json", f"Content-Length: {len(body)}"]
    if signed:
        headers.append("X-Service-Signature: sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest())
    if not keep_alive:
        headers.append("Connection: close")
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + body


async def read_answer(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = next(
        int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
    )
    await reader.readexactly(length)
    return status


async def send_all(
    port: int, sender: int, numbers: range, signed: bool, concurrency: int, keep_alive: bool, body_kib: int
) -> dict:
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    pending = iter(numbers)

    async def worker() -> None:
        connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        for number in pending:
            request = request_bytes(sender, number, signed, keep_alive, body_kib)
            try:
                if connection is None:
                    connection = await asyncio.wait_for(asyncio.open_connection(HOST, port), 30)
                reader, writer = connection
                writer.write(request)
                await writer.drain()
                statuses[str(await asyncio.wait_for(read_answer(reader), 30))] += 1
            except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                errors[type(exc).__name__] += 1
                if connection is not None:
                    connection[1].close()
                connection = None
                continue
            if not keep_alive:
                writer.close()
                connection = None
        if connection is not None:
            connection[1].close()

    started = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return {"started": started, "ended": time.monotonic(), "statuses": statuses, "errors": errors}


def run_sender(args: argparse.Namespace) -> int:
    numbers = range(args.first, args.first + args.count)
    result = asyncio.run(
        send_all(args.port, args.sender, numbers, args.signed, args.concurrency, args.keep_alive, args.body_kib)
    )
    print(json.dumps(result), flush=True)
    return 0


# --- the dashboard and the keys --------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


SEEDS = ("seed-a", "seed-b", "seed-c")


def seed(port: int) -> None:
    """Three signed events before the burst: the rows a person reads while it runs (its rows are unsigned)."""
    for name in SEEDS:
        body = json.dumps(
            {"success": True, "type": "crawl.completed", "id": "seed-job", "webhookId": name, "data": []}
        ).encode()
        signature = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        with socket.create_connection((HOST, port)) as connection:
            connection.sendall(
                f"POST / HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
                f"X-Service-Signature: {signature}\r\n\r\n".encode()
                + body
            )
            assert connection.recv(100).startswith(b"HTTP/1.1 200"), "the inbox refused a seed"


class KeyProbe:
    """Moves the cursor between two of the seeded rows and times each move to its redrawn detail.

    The rows of the burst arrive above the seeded ones; the table keeps the
    cursor on its row, so the detail below the table changes only when a key
    moves the cursor, and it names the row's webhookId: the first bytes of the
    detail naming the row moved to are the key's visible response.
    """

    def __init__(self, app: PtyProcess) -> None:
        self.app = app
        self.output = bytearray()
        self.read_chunks = 0
        self.on = "seed-b"

    def _read(self) -> list[tuple[float, int]]:
        """New output: (time, end offset) of each chunk."""
        ends = []
        while self.read_chunks < len(self.app.chunks):
            stamp, data = self.app.chunks[self.read_chunks]
            self.read_chunks += 1
            self.output += data
            ends.append((stamp, len(self.output)))
        return ends

    def press(self, timeout: float = 5.0) -> float | None:
        """Seconds from the key to the detail of the row it moved to, or None when it did not come within `timeout`."""
        key, target = (b"\x1b[A", "seed-c") if self.on == "seed-b" else (b"\x1b[B", "seed-b")
        marker = f"webhookId {target}".encode()
        self.app.pump(0)
        self._read()
        start = len(self.output)
        sent = self.app.send(key)
        self.on = target
        deadline = sent + timeout
        while time.monotonic() < deadline:
            self.app.pump(0.002)
            for stamp, end in self._read():
                found = self.output.find(marker, start)
                if found >= 0 and found + len(marker) <= end:
                    return stamp - sent
        return None


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def summary_ms(delays: list[float | None]) -> dict[str, float | int]:
    answered = [d * 1000 for d in delays if d is not None]
    if not answered:
        return {"presses": len(delays), "answered": 0}
    return {
        "presses": len(delays),
        "answered": len(answered),
        "p50_ms": round(statistics.median(answered), 1),
        "p90_ms": round(percentile(answered, 0.9), 1),
        "p99_ms": round(percentile(answered, 0.99), 1),
        "max_ms": round(max(answered), 1),
        "over_100_ms": sum(delay > 100 for delay in answered),
    }


def bench(args: argparse.Namespace) -> dict:
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"wds-bench-inbox-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()[0]
    emulator, url, key = start_emulator("--no-traffic")
    port = free_port()
    env = {
        **no_config_env(tmp),
        "WDS_BASE_URL": url,
        "WDS_API_KEY": key,
        "WDS_REFRESH": "5",
        "WDS_WEBHOOK_LISTEN": f"{HOST}:{port}",
        "WDS_WEBHOOK_SECRET": SECRET,
    }
    app = PtyProcess([PYTHON, "-m", "tui"], env=env)
    senders: list[subprocess.Popen[str]] = []
    try:
        app.wait_for("connected", 60)
        app.send(b"w")
        app.wait_for("Listening on", 30)
        seed(port)
        app.wait_for("3 events", 10)
        app.send(b"\x1b[B")  # from the newest row (which the table follows) to seed-b: the cursor stays on it
        app.wait_for("webhookId seed-b", 10)
        probe = KeyProbe(app)
        idle = []
        for _ in range(args.idle_presses * 2):  # an even number: back on seed-b
            idle.append(probe.press())
            app.pump(args.press_every)
        rss_before = rss_mb(app.proc.pid)

        share = args.deliveries // args.senders
        for sender in range(args.senders):
            count = share if sender < args.senders - 1 else args.deliveries - share * (args.senders - 1)
            argv = [
                PYTHON,
                __file__,
                "--sender",
                str(sender),
                "--port",
                str(port),
                "--first",
                str(sender * share),
                "--count",
                str(count),
                "--concurrency",
                str(args.concurrency),
            ]
            if args.signed:
                argv.append("--signed")
            if args.keep_alive:
                argv.append("--keep-alive")
            argv += ["--body-kib", str(args.body_kib)]
            senders.append(subprocess.Popen(argv, stdout=subprocess.PIPE, text=True))
        # Rows of the burst above the seeded ones first: with seed-c on top, a cursor moved
        # to it would be on the newest row, which the table follows.
        app.wait_for("bench-", 30)
        busy = []
        while any(proc.poll() is None for proc in senders):
            busy.append(probe.press())
            app.pump(args.press_every)
        results = [json.loads(proc.stdout.read()) for proc in senders]  # type: ignore[union-attr]
        last_answer = max(result["ended"] for result in results)
        count_text = f"{args.deliveries + len(SEEDS):,} deliveries"
        try:
            shown_after: float | None = app.wait_for(count_text, 60) + app.started - last_answer
        except TimeoutError:
            shown_after = None  # not all were received: the statuses say why
        app.pump(1)
        rss_after = rss_mb(app.proc.pid)
    finally:
        for proc in senders:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        app.stop()
        stop(emulator)

    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for result in results:
        statuses.update(result["statuses"])
        errors.update(result["errors"])
    accepted = sum(n for status, n in statuses.items() if status.startswith("2"))
    seconds = last_answer - min(result["started"] for result in results)
    return {
        "load_average": load_before,
        "load_average_after": os.getloadavg()[0],
        "deliveries": args.deliveries,
        "senders": args.senders,
        "concurrency": args.concurrency,
        "keep_alive": args.keep_alive,
        "accepted": accepted,
        "seconds": round(seconds, 2),
        "accepted_per_s": round(accepted / seconds),
        "statuses": dict(statuses),
        "errors": dict(errors),
        "keys_idle": summary_ms(idle),
        "keys_during_burst": summary_ms(busy),
        "all_shown_s_after_last_answer": round(max(shown_after, 0.0), 3) if shown_after is not None else "never",
        "rss_mb_before": round(rss_before, 1),
        "rss_mb_after": round(rss_after, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deliveries", type=int, default=10_000)
    parser.add_argument("--senders", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=16, help="connections at a time per sender (default 16)")
    parser.add_argument("--keep-alive", action="store_true", help="reuse connections instead of one per delivery")
    parser.add_argument(
        "--body-kib",
        type=int,
        default=0,
        help="pad each delivery's data to about this many KiB (1000: the memory test of issue 18)",
    )
    parser.add_argument("--press-every", type=float, default=0.1, help="seconds between key presses (default 0.1)")
    parser.add_argument("--idle-presses", type=int, default=15, help="pairs of presses before the burst (default 15)")
    parser.add_argument(
        "--signed",
        action="store_true",
        help="senders sign (verified: they push the seeded rows out, and the keys then measure less)",
    )
    # A sender process (started by the benchmark itself):
    parser.add_argument("--sender", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sender is not None:
        return run_sender(args)
    print(json.dumps(bench(args), indent=1), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
