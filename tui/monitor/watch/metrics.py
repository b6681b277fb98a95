"""What `watch --metrics` serves: one collector that reads every watched context's counters at each scrape.

Read at scrape time rather than kept in metric objects: the monitor and the poller
already count (`MonitorStats`, `PollStats`), so there is one truth, and a context's
series appear once it has something to say. Every label is bounded: `context`,
`kind`, `status`, `endpoint`, `rule`, `event`, never a job id or a URL.

Imports `prometheus_client`: only `watch --metrics` loads this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from prometheus_client import ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import CollectorRegistry

from tui.monitor.watch.watched import Watched

PREFIX = "wds_"

METRICS: dict[str, str] = {
    "wds_jobs_finished_total": "Jobs seen finishing, by kind and final status (counted once each)",
    "wds_job_failures_total": "Jobs that failed or whose page answered an error status, by kind",
    "wds_running_jobs": "Crawls and batches running at the last poll, by kind",
    "wds_pages_crawled_total": "Pages the crawls and batches seen have done since watch started",
    "wds_browser_sessions": "Browser sessions by status, at the last poll",
    "wds_credits_remaining": "Credits left in the billing period",
    "wds_credits_plan": "The plan's credits in the billing period",
    "wds_credits_used": "Credits used in the billing period (plan minus remaining)",
    "wds_tokens_used": "Tokens used in the current period, every API key together",
    "wds_queue_jobs": "Jobs in the team's queue, by state (active, waiting)",
    "wds_queue_max_concurrency": "Jobs the team may run at once",
    "wds_polls_total": "Polls made, by endpoint",
    "wds_poll_errors_total": "Polls that failed, by endpoint",
    "wds_poll_duration_seconds": "How long polls took, by endpoint",
    "wds_alerts_firing": "Alerts firing now, by rule",
    "wds_alert_events_total": "Alert events, by what happened (fired, repeated, resolved)",
    "wds_webhook_events_total": "Webhook deliveries received, by whether their signature held",
}
"""Every metric served and what it means (the README lists the same; a test holds them equal)."""


def _family(name: str, labels: list[str]) -> GaugeMetricFamily | CounterMetricFamily:
    if name.endswith("_total"):
        return CounterMetricFamily(name.removesuffix("_total"), METRICS[name], labels=labels)
    return GaugeMetricFamily(name, METRICS[name], labels=labels)


class WatchCollector:
    """A `prometheus_client` collector over the watched contexts; `collect` runs at each scrape."""

    def __init__(self, watched: Sequence[Watched]) -> None:
        self._watched = list(watched)

    def collect(self) -> Iterator[Metric]:
        families: dict[str, GaugeMetricFamily | CounterMetricFamily] = {}

        def add(name: str, labels: dict[str, str], value: float | None) -> None:
            if value is None:
                return
            family = families.get(name)
            if family is None:
                family = families[name] = _family(name, list(labels))
            family.add_metric(list(labels.values()), value)

        latency = HistogramMetricFamily(
            "wds_poll_duration_seconds", METRICS["wds_poll_duration_seconds"], labels=["context", "endpoint"]
        )
        for each in self._watched:
            context = each.label
            stats = each.monitor.stats
            for (kind, status), count in sorted(stats.jobs.items()):
                add("wds_jobs_finished_total", {"context": context, "kind": kind, "status": status}, count)
            for kind, count in sorted(stats.failures.items()):
                add("wds_job_failures_total", {"context": context, "kind": kind}, count)
            for kind in ("crawl", "batch"):
                add("wds_running_jobs", {"context": context, "kind": kind}, stats.running.get(kind, 0))
            add("wds_pages_crawled_total", {"context": context}, stats.pages_crawled)
            for status, count in sorted(stats.sessions.items()):
                add("wds_browser_sessions", {"context": context, "status": status}, count)
            add("wds_credits_remaining", {"context": context}, stats.credits_remaining)
            add("wds_credits_plan", {"context": context}, stats.credits_plan)
            if stats.credits_plan is not None and stats.credits_remaining is not None:
                add("wds_credits_used", {"context": context}, stats.credits_plan - stats.credits_remaining)
            add("wds_tokens_used", {"context": context}, stats.tokens_used)
            add("wds_queue_jobs", {"context": context, "state": "active"}, stats.queue_active)
            add("wds_queue_jobs", {"context": context, "state": "waiting"}, stats.queue_waiting)
            add("wds_queue_max_concurrency", {"context": context}, stats.queue_max)
            polls = each.poller.stats
            for endpoint, count in sorted(polls.polls.items()):
                add("wds_polls_total", {"context": context, "endpoint": endpoint}, count)
                add("wds_poll_errors_total", {"context": context, "endpoint": endpoint}, polls.errors[endpoint])
                shape = polls.latency[endpoint]
                latency.add_metric([context, endpoint], shape.cumulative(), shape.total)
            firing = [alert.rule for alert in each.monitor.engine.firing()]
            for rule in sorted({rule.name for rule in each.monitor.engine.rules} | set(firing)):
                add("wds_alerts_firing", {"context": context, "rule": rule}, firing.count(rule))
            for event, count in sorted(stats.alerts.items()):
                add("wds_alert_events_total", {"context": context, "event": event}, count)
            for verified, count in sorted(stats.webhook_events.items()):
                add("wds_webhook_events_total", {"context": context, "verified": str(verified).lower()}, count)
        yield from families.values()
        if latency.samples:
            yield latency


def registry_for(watched: Sequence[Watched]) -> CollectorRegistry:
    """The watched contexts' metrics, and the process's own (`process_resident_memory_bytes`, CPU, open files:
    memory that stays flat for days can be seen to); not the library's global registry."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(WatchCollector(watched))
    ProcessCollector(registry=registry)
    return registry
