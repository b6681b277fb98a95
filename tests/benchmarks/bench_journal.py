"""The journal's write rate and its size on disk (issue 22, section 1).

`--entries` (100,000) activity entries, as the dashboard records them (an id,
a kind, a URL of ~40 characters, a final status; one in ten failed with an
error and a status), are added from an event loop and committed by the writer
thread. Measured:
- records/s: from the first `add` to the end of `await flush()` (every one committed);
- how long the `add` calls kept the event loop (what the dashboard pays);
- the file's size (with its WAL checkpointed) per 100,000 entries, and how long opening it takes;
- how long retention takes to bring it under a cap of half that size, and the size after.

The machine's load average is printed too: on a shared 2-core machine the figures follow it.

Usage: python tests/benchmarks/bench_journal.py [--entries 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from tui.monitor.journal import ActivityRecord, Journal, RetentionPolicy

KINDS = ("scrape", "scrape", "scrape", "crawl", "map", "batch_scrape", "extract")


def entry(n: int, now: float) -> ActivityRecord:
    failed = n % 10 == 0
    return ActivityRecord(
        id=f"0192f1c4-{n:08x}-7000-8000-bench",
        kind="scrape" if failed else KINDS[n % len(KINDS)],
        created_at=now - n,
        target=f"https://shop{n % 50}.example.com/item/{n}",
        status="failed" if failed else "completed",
        error="Request timed out after 30000 ms" if failed else None,
        http_status=504 if failed else 200,
    )


def file_bytes(path: Path) -> int:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path.stat().st_size


async def run(entries: int) -> None:
    print(f"load average: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        journal = Journal(path)
        now = time.time()
        records = [entry(n, now) for n in range(entries)]
        started = time.perf_counter()
        for start in range(0, entries, 1000):
            for record in records[start : start + 1000]:
                journal.add(record)
            await asyncio.sleep(0)
        added = time.perf_counter() - started
        await journal.flush()
        written = time.perf_counter() - started
        print(
            f"{entries:,} entries: {entries / written:,.0f} records/s (add calls {added:.2f} s, all committed {written:.2f} s)"
        )
        size = file_bytes(path)
        print(f"file: {size / 1e6:.1f} MB, {size / entries * 100_000 / 1e6:.1f} MB per 100,000 entries")
        await journal.aclose()
        started = time.perf_counter()
        journal = await Journal.open(path)
        print(f"opening it again (with its quick_check): {time.perf_counter() - started:.2f} s")
        journal.policy = RetentionPolicy(size_cap_bytes=size // 2)
        started = time.perf_counter()
        dropped = await journal.prune()
        print(
            f"size cap of {size // 2 / 1e6:.1f} MB: {dropped:,} dropped in {time.perf_counter() - started:.2f} s,"
            f" file {file_bytes(path) / 1e6:.1f} MB"
        )
        await journal.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    asyncio.run(run(parser.parse_args().entries))
