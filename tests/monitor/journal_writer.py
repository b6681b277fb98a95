"""A writer process for the journal tests: adds activity records as fast as asked, saying what it added.

`python tests/monitor/journal_writer.py PATH PREFIX COUNT [--forever]` adds COUNT
records `PREFIX-0`, `PREFIX-1`, ... (created_at: the wall clock when added), then
flushes and exits. With `--forever` it keeps adding, and prints `<n> <time>` after
each 100th record (about 2,000 records a second): n records had been handed to the journal by that time (the
test that kills it compares what the file kept with these lines).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from tui.monitor.journal import ActivityRecord, Journal


async def write(path: Path, prefix: str, count: int, forever: bool) -> None:
    journal = Journal(path)
    if journal.disabled is not None:
        raise SystemExit(journal.disabled.reason)
    n = 0
    while forever or n < count:
        journal.add(ActivityRecord(f"{prefix}-{n}", "scrape", time.time(), target=f"https://example.com/{n}"))
        n += 1
        if n % 100 == 0:
            if forever:
                print(n, time.time(), flush=True)
            # As a dashboard does, records arrive between other work: with --forever at about 2,000
            # a second (far more than a team's activity), a pace the writer keeps up with on a busy machine.
            await asyncio.sleep(0.05 if forever else 0.001)
    await journal.flush()
    await journal.aclose()
    if journal.problem:
        raise SystemExit(journal.problem)


if __name__ == "__main__":
    asyncio.run(write(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), "--forever" in sys.argv))
