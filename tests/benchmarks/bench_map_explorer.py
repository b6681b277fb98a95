"""Speed of the map explorer on 100,000 links (issue 20's targets), through the real screen.

    python tests/benchmarks/bench_map_explorer.py [--runs 5] [--keys 20]

The emulator runs in another process (as a remote service would); this
process runs the whole dashboard headless (`App.run_test`, 120x40), presses
M, maps `bigbox-supply.com` with `limit: 100000` and measures:

1. response arrived -> rows drawn: from the last byte of the answer (a
   transport that reads the whole body and notes the time) to the first frame
   the screen hands to the terminal with the links table in it; split into
   parse (body -> `MapResult`), `LinkList` (columns, lowercased copies) and
   mount + first draw. Target <= 0.25 s.
2. a filter keystroke -> redraw: from the key reaching the app (sent through
   the driver, as a terminal's key is) to the first frame after the filter
   ran, over typed substrings, deletions and globs. Target: 90th percentile
   <= 30 ms (the median and the worst are printed too).
3. RSS of this process (the dashboard) with the 100,000 links loaded, after
   a garbage collection, and its peak. Target <= 130 MB.

A frame is "handed to the terminal" when Textual calls `App._display` with a
rendered update: headless, nothing is written, so that is where it is timed.
Prints the figures; exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from textual import events

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))

from bench_dashboard import start_emulator, stop  # noqa: E402

from tui.api.client import WdsClient  # noqa: E402
from tui.contract.redact import mask_key  # noqa: E402
from tui.dashboard.shell.app import ServiceInfo  # noqa: E402
from tui.dashboard.startup.app_factory import make_app  # noqa: E402

SITE = "https://bigbox-supply.com/"
LIMIT = 100_000
DRAW_TARGET, KEY_TARGET, RSS_TARGET_MB = 0.25, 0.030, 130
# Keys typed into the filter, one frame each: a word letter by letter, deletions, globs.
KEYS = [*"catalog", *["backspace"] * 7, *"*/rides/*", *["backspace"] * 9, *"light-set-5?", *["backspace"] * 12]


class TimedTransport(httpx.AsyncBaseTransport):
    """The network, with the time the last byte of each answer arrived."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.arrived = 0.0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        content = await response.aread()
        self.arrived = time.perf_counter()
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            content=content,
            request=request,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


def rss_mb() -> float:
    """The process's resident set now, in MB (from /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def one_run(base_url: str, key: str, keys: list[str]) -> dict[str, Any]:
    transport = TimedTransport()
    http = httpx.AsyncClient(transport=transport, base_url=base_url, timeout=120)
    client = WdsClient(base_url, key, http_client=http, max_retries=0)
    service = ServiceInfo(host=base_url.removeprefix("http://"), masked_key=mask_key(key))
    app = make_app(client, service, refresh=3600)  # the panes stay quiet
    gc.freeze()  # as `tui.dashboard.startup.launch` does before running the app: start-up's objects stay out of collections
    frames: list[float] = []
    real_display = app._display

    def display(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            frames.append(time.perf_counter())
        real_display(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    from tui.dashboard.features.map.explorer import MapExplorerScreen
    from tui.dashboard.features.map.links_table import LinksTable

    figures: dict[str, Any] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.5)
        gc.collect()
        figures["rss_before"] = rss_mb()
        await pilot.press("M")
        while not isinstance(app.screen, MapExplorerScreen):
            await pilot.pause(0.01)
        screen = app.screen
        screen.query_one("#url").value = SITE  # type: ignore[attr-defined]
        screen.query_one("#limit").value = str(LIMIT)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        while not screen.query(LinksTable):
            await pilot.pause(0.005)
        table = screen.query_one(LinksTable)
        while not (frames and frames[-1] > transport.arrived and table.region.height):
            await pilot.pause(0.005)
        drawn = min(frame for frame in frames if frame > screen.answered_at)
        links = screen.links
        assert links is not None and len(links) == LIMIT, f"expected {LIMIT} links"
        figures["drawn"] = drawn - transport.arrived
        figures["parse"] = screen.answered_at - transport.arrived
        figures["rest"] = drawn - screen.answered_at
        while not links.compacted:  # the explorer packs the links after the first frame: the RSS is after that
            await pilot.pause(0.005)
        gc.collect()
        figures["rss"] = rss_mb()

        await pilot.press("slash")
        gc_times: list[tuple[int, float]] = []
        gc_started = [0.0]

        def gc_watch(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                gc_started[0] = time.perf_counter()
            else:
                gc_times.append((info["generation"], time.perf_counter() - gc_started[0]))

        gc.callbacks.append(gc_watch)
        latencies = []
        for key_name in keys:
            before = links.filter.text
            await pilot.pause()
            # As a terminal's key arrives: through the driver, not Pilot.press (which waits for idle).
            sent = time.perf_counter()
            key_event = events.Key(key_name, key_name if len(key_name) == 1 else None)
            key_event.set_sender(app)
            app._driver.send_message(key_event)  # type: ignore[union-attr]
            while links.filter.text == before:
                await asyncio.sleep(0.0002)
            filtered = time.perf_counter()  # the filter ran in the loop's last turn
            while not frames or frames[-1] < filtered:
                await asyncio.sleep(0.0002)
            latencies.append(next(frame for frame in frames if frame >= filtered) - sent)
        figures["keys"] = latencies
        gc.callbacks.remove(gc_watch)
        figures["gc"] = [t for g, t in gc_times if g == 2]
        figures["gc_all"] = sum(t for _, t in gc_times)
        figures["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    await http.aclose()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="maps of 100,000 links, each in a fresh dashboard")
    parser.add_argument("--keys", type=int, default=len(KEYS), help=f"filter keystrokes per run (max {len(KEYS)})")
    parser.add_argument("--child", nargs=2, metavar=("URL", "KEY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one run, in a fresh process so that its RSS is the dashboard's alone
        print(json.dumps(asyncio.run(one_run(*args.child, KEYS[: args.keys]))))
        return 0
    proc, base_url, key = start_emulator()
    try:
        httpx.post(
            f"{base_url}/v2/map",
            json={"url": SITE, "limit": LIMIT},
            headers={"Authorization": f"Bearer {key}"},
            timeout=60,
        )  # warm-up: builds the site
        command = [sys.executable, __file__, "--keys", str(args.keys), "--child", base_url, key]
        runs = [
            json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
            for _ in range(args.runs)
        ]
    finally:
        stop(proc)

    def median(name: str) -> float:
        return statistics.median(run[name] for run in runs)

    keys = [latency for run in runs for latency in run["keys"]]
    key_median = statistics.median(keys)
    key_p90 = statistics.quantiles(keys, n=10)[-1]
    print(f"map {SITE} limit {LIMIT:,}, {args.runs} runs, 120x40, emulator in another process")
    print(
        f"  response arrived -> rows drawn: median {median('drawn'):.3f} s "
        f"(min {min(r['drawn'] for r in runs):.3f}, max {max(r['drawn'] for r in runs):.3f}; "
        f"target <= {DRAW_TARGET} s)"
    )
    print(
        f"    of which parse into MapResult {median('parse'):.3f} s, LinkList + mount + first frame "
        f"{median('rest'):.3f} s"
    )
    print(
        f"  filter keystroke -> redraw: median {key_median * 1000:.1f} ms, 90th percentile "
        f"{key_p90 * 1000:.1f} ms (target <= {KEY_TARGET * 1000:.0f} ms), worst {max(keys) * 1000:.1f} ms "
        f"over {len(keys)} keys"
    )
    typed = KEYS[: args.keys]
    per_key = [statistics.median(run["keys"][i] for run in runs) for i in range(len(typed))]
    filters, text = [], ""
    for key_name in typed:
        text = text[:-1] if key_name == "backspace" else text + key_name
        filters.append(f"{key_name!r} -> {text!r}")
    slowest = sorted(range(len(typed)), key=per_key.__getitem__, reverse=True)[:4]
    print("    slowest keys (median): " + ", ".join(f"{filters[i]} {per_key[i] * 1000:.0f} ms" for i in slowest))
    full_ms = sum(sum(run["gc"]) for run in runs) * 1000 / len(runs)
    all_ms = sum(run["gc_all"] for run in runs) * 1000 / len(runs)
    print(
        f"    garbage collections while typing: {sum(len(run['gc']) for run in runs)} full ones, "
        f"{full_ms:.0f} ms a run; all generations {all_ms:.0f} ms a run"
    )
    print(
        f"  dashboard RSS with the links loaded: median {median('rss'):.0f} MB, peak {median('peak_rss'):.0f} MB "
        f"(target <= {RSS_TARGET_MB} MB; {median('rss_before'):.0f} MB before the map)"
    )
    met = median("drawn") <= DRAW_TARGET and key_p90 <= KEY_TARGET and median("rss") <= RSS_TARGET_MB
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
