"""A read-only client refuses, before sending, every request that changes something (tui.dashboard.keys.read_only's last layer)."""

from __future__ import annotations

import httpx
import pytest

from tui.api.base_client import only_reads
from tui.api.client import WdsClient
from tui.api.errors import ReadOnlyError


class Recorder(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((request.method, request.url.path))
        if request.url.path == "/v2/support/docs-search":
            return httpx.Response(200, json={"success": True, "data": {"answer": "a", "sources": []}})
        return httpx.Response(200, json={"success": True, "crawls": []})


def read_only_client(transport: Recorder) -> WdsClient:
    http = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:3002")
    return WdsClient("http://127.0.0.1:3002", "wds-" + "a" * 32, http_client=http, max_retries=0, read_only=True)


@pytest.mark.parametrize(
    ("method", "path", "reads"),
    [
        ("GET", "/v2/crawl/active", True),
        ("POST", "/v2/support/docs-search", True),
        ("POST", "/v2/crawl/params-preview", True),
        ("POST", "/v2/scrape", False),
        ("POST", "/v2/map", False),
        ("POST", "/v2/batch/scrape", False),
        ("POST", "/v2/crawl", False),
        ("DELETE", "/v2/crawl/abc", False),
        ("POST", "/v2/browser", False),
        ("POST", "/v2/support/ask", False),
    ],
)
def test_what_counts_as_a_read(method: str, path: str, reads: bool) -> None:
    assert only_reads(method, path) is reads


async def test_mutating_calls_raise_before_sending_and_reads_go_through() -> None:
    transport = Recorder()
    client = read_only_client(transport)
    with pytest.raises(ReadOnlyError, match=r"read-only mode: POST /v2/scrape was not sent"):
        await client.scrape.create("https://example.com/")
    with pytest.raises(ReadOnlyError):
        await client.browser.create(ttl=300)
    with pytest.raises(ReadOnlyError):
        await client.crawl.cancel("0b9d1f3e-6c1a-4d7e-9f44-1c2d3e4f5a6b")
    assert transport.sent == []
    await client.crawl.active()
    assert transport.sent == [("GET", "/v2/crawl/active")]
    assert client.with_options(max_retries=1).read_only  # copies keep the guard
