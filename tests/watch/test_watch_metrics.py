"""`wds-tui watch --metrics`: /metrics read over HTTP, its counters checked against what the emulator itself says."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.processes import free_port, served_emulator
from tests.watch.watch_process import KEY, WatchProcess, call, service_config, watching

pytestmark = pytest.mark.socket

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-")
STATUS_PATHS = {"scrape": "/v2/scrape/{}", "agent": "/v2/extract/{}", "extract": "/v2/extract/{}"}


def scrape(url: str) -> Samples:
    text = httpx.get(url, timeout=10).text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset({"context": "emu", **labels}.items())))


def by(samples: Samples, name: str, label: str) -> dict[str, float]:
    return {dict(key)[label]: count for (metric, key), count in samples.items() if metric == name}


def emulator_jobs(base_url: str) -> Counter[tuple[str, str]]:
    """The finished jobs of the kinds the monitor counts as jobs, by kind and state, as the emulator answers them."""
    jobs: Counter[tuple[str, str]] = Counter()
    cursor = None
    while True:
        page = call(
            base_url, "GET", "/v2/team/activity", params={"limit": 100, **({"cursor": cursor} if cursor else {})}
        ).json()
        for entry in page["data"]:
            path = STATUS_PATHS.get(entry["endpoint"])
            if path is None:
                continue
            job = call(base_url, "GET", path.format(entry["id"])).json()
            if entry["endpoint"] == "scrape":
                status = job["data"]["metadata"].get("statusCode") or 200
                jobs[
                    ("scrape", "failed" if status >= 400 or job["data"]["metadata"].get("error") else "completed")
                ] += 1
            elif job.get("status") in ("completed", "failed", "cancelled"):
                jobs[(entry["endpoint"], job["status"])] += 1
        cursor = page.get("cursor")
        if not page.get("has_more"):
            return jobs


def settled(watch: WatchProcess, url: str, seconds: float = 40.0) -> Samples:
    """The metrics once every job the first polls found has been asked about (two scrapes agree)."""
    deadline = time.monotonic() + seconds
    last: Samples = {}
    while time.monotonic() < deadline:
        assert watch.process.poll() is None, watch.errors.read_text()
        try:
            now = scrape(url)
        except httpx.ConnectError:
            time.sleep(0.2)
            continue
        polled = value(now, "wds_polls_total", endpoint="job_status") or 0
        jobs = {key: count for key, count in now.items() if key[0] == "wds_jobs_finished_total"}
        if (
            polled >= 2
            and jobs
            and jobs == {key: count for key, count in last.items() if key[0] == "wds_jobs_finished_total"}
        ):
            return now
        last = now
        time.sleep(1.0)
    raise AssertionError("the metrics never settled")


def test_metrics_match_the_emulators_own_state(tmp_path: Path) -> None:
    port = free_port()
    # The emulator's clock all but stopped: the crawl started below stays running, its queue and the
    # team's credits stay still, so a gauge read a poll ago still says what the emulator says now.
    with served_emulator(KEY, 8, "--clock-speed", "0.001") as base_url:
        service_config(tmp_path, base_url)
        crawl = call(base_url, "POST", "/v2/crawl", json={"url": "https://harbour-books.com/", "limit": 5000}).json()
        with watching(tmp_path, "--refresh", "1", "--metrics", f"127.0.0.1:{port}") as watch:
            start = watch.wait_for(lambda line: line["event"] == "start")
            assert start["metrics"] == f"http://127.0.0.1:{port}/metrics"
            samples = settled(watch, start["metrics"])
            expected_jobs = emulator_jobs(base_url)
            credits = call(base_url, "GET", "/v2/team/credit-usage").json()["data"]
            queue = call(base_url, "GET", "/v2/team/queue-status").json()
            active = call(base_url, "GET", "/v2/crawl/active").json()["crawls"]
            sessions = Counter(session["status"] for session in call(base_url, "GET", "/v2/browser").json()["sessions"])
            lines = watch.lines()
            assert watch.stop() == 0

    finished = {
        (dict(key)["kind"], dict(key)["status"]): count
        for (name, key), count in samples.items()
        if name == "wds_jobs_finished_total" and dict(key)["kind"] in ("scrape", "agent", "extract")
    }
    assert finished == dict(expected_jobs)
    failures = by(samples, "wds_job_failures_total", "kind")
    assert failures.get("scrape", 0) == expected_jobs[("scrape", "failed")]

    assert [crawl["id"]] == [each["id"] for each in active]
    assert value(samples, "wds_running_jobs", kind="crawl") == len(active)
    assert (value(samples, "wds_pages_crawled_total") or 0) > 0
    assert value(samples, "wds_credits_remaining") == credits["remainingCredits"]
    assert value(samples, "wds_credits_plan") == credits["planCredits"]
    assert value(samples, "wds_credits_used") == credits["planCredits"] - credits["remainingCredits"]
    assert value(samples, "wds_queue_max_concurrency") == queue["maxConcurrency"]
    assert value(samples, "wds_queue_jobs", state="waiting") == queue["waitingJobsInQueue"]
    assert by(samples, "wds_browser_sessions", "status") == dict(sessions)

    assert all(value(samples, "wds_poll_errors_total", endpoint=endpoint) == 0 for endpoint in ("activity", "crawls"))
    assert (value(samples, "wds_poll_duration_seconds_count", endpoint="activity") or 0) >= 2

    firing: Counter[str] = Counter()
    for line in lines:
        if line["event"] == "alert":
            firing[line["rule"]] += {"fired": 1, "resolved": -1}.get(line["what"], 0)
    assert {rule: count for rule, count in by(samples, "wds_alerts_firing", "rule").items() if count} == {
        rule: count for rule, count in firing.items() if count
    }

    for _, labels in samples:  # bounded labels: never a job id or a URL
        for _, label in labels:
            assert not UUID.match(label) and "://" not in label, label
