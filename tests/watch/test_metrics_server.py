"""The metrics server on a real loopback socket: /metrics in Prometheus' text (or OpenMetrics when asked), nothing else."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import CollectorRegistry

from tui.monitor.watch.metrics_server import MetricsServer

pytestmark = pytest.mark.socket


class _Counted:
    def __init__(self) -> None:
        self.collected = 0

    def collect(self) -> Iterator[Metric]:
        self.collected += 1
        yield GaugeMetricFamily("wds_example", "An example gauge", value=self.collected)


@pytest.fixture
async def served() -> AsyncIterator[tuple[str, _Counted, MetricsServer]]:
    registry = CollectorRegistry(auto_describe=False)
    collector = _Counted()
    registry.register(collector)
    server = MetricsServer(registry, "127.0.0.1", 0)
    host, port = await server.start()
    try:
        yield f"http://{host}:{port}", collector, server
    finally:
        await server.close()


async def test_each_scrape_collects_anew(served: tuple[str, _Counted, MetricsServer]) -> None:
    url, collector, server = served
    async with httpx.AsyncClient() as http:
        first = await http.get(f"{url}/metrics")
        second = await http.get(f"{url}/metrics")
    assert first.status_code == 200 and first.headers["content-type"].startswith("text/plain")
    assert "wds_example 1.0" in first.text and "wds_example 2.0" in second.text
    assert server.scrapes == 2


async def test_openmetrics_when_asked_head_and_other_paths(served: tuple[str, _Counted, MetricsServer]) -> None:
    url, _, _ = served
    async with httpx.AsyncClient() as http:
        open_metrics = await http.get(f"{url}/metrics", headers={"Accept": "application/openmetrics-text"})
        head = await http.head(f"{url}/metrics")
        elsewhere = await http.get(f"{url}/")
        posted = await http.post(f"{url}/metrics")
    assert open_metrics.headers["content-type"].startswith("application/openmetrics-text")
    assert open_metrics.text.endswith("# EOF\n")
    assert head.status_code == 200 and head.content == b""
    assert elsewhere.status_code == 404 and posted.status_code == 405


async def test_closing_stops_listening(served: tuple[str, _Counted, MetricsServer]) -> None:
    url, _, server = served
    await server.close()
    async with httpx.AsyncClient() as http:
        with pytest.raises(httpx.ConnectError):
            await http.get(f"{url}/metrics")
