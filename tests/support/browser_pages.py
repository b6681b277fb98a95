"""The browser tests' little web site, as the browser sees it: answered by request interception.

A session's browser has a network namespace of its own, so it cannot load a
page a test serves on the host's loopback. The tests' pages are therefore
answered the way the emulator answers its synthetic sites: a `SiteResolver`
for one made-up origin (`ORIGIN`). `PagesBackend` is a `ChromiumBackend` whose
browsers see those pages, also when an emulator puts its own sites in front.

The same pages can be served on a real loopback port (`loopback_site`), for
the tests that check a sandbox cannot reach one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

from tui.emulator.browser.backend import SiteResolver, SiteResponse
from tui.emulator.browser.chromium import ChromiumBackend

ORIGIN = "http://pages.wds-tests.example"


def page(path: str) -> SiteResponse | None:
    """`/title/<t>`: a page titled t; `/set-cookie`: sets a persistent cookie and localStorage;
    `/slow`: answers after 5 s; `/still-loading`: a page whose image is `/slow`; `/clicker`: a page
    whose title changes when clicked. None: 404."""
    headers = {"Content-Type": "text/html; charset=utf-8"}
    delay = 0.0
    if path.startswith("/title/"):
        body = f"<html><head><title>{unquote(path[7:])}</title></head><body><h1>hello</h1></body></html>"
    elif path == "/set-cookie":
        headers["Set-Cookie"] = "flavour=oatmeal; Max-Age=86400; Path=/"
        body = "<title>cookie set</title><script>localStorage.setItem('note', 'kept')</script>"
    elif path == "/slow":
        delay = 5.0
        body = "<title>slow</title>"
    elif path == "/still-loading":
        body = "<title>still loading</title><img src='/slow'>"
    elif path == "/clicker":
        body = (
            "<title>not clicked</title><body style='margin:0'>"
            "<button style='width:100vw;height:100vh' onclick=\"document.title='clicked'\">x</button></body>"
        )
    else:
        return None
    return SiteResponse(200, headers, body.encode(), delay)


def resolve(url: str) -> SiteResponse | None:
    """The resolver of `ORIGIN` (None for any other URL); a missing page is a 404."""
    if not url.startswith(ORIGIN + "/"):
        return None
    found = page(urlparse(url).path)
    return found if found is not None else SiteResponse(404, {"Content-Type": "text/plain"}, b"not found")


def in_front_of(resolver: SiteResolver | None) -> SiteResolver:
    """`ORIGIN`'s pages first, then `resolver` (the emulator's synthetic sites)."""

    def chained(url: str) -> SiteResponse | None:
        if url.startswith(ORIGIN + "/"):
            return resolve(url)
        return resolver(url) if resolver is not None else None

    return chained


class PagesBackend(ChromiumBackend):
    """A `ChromiumBackend` whose browsers see the tests' pages at `ORIGIN`, whatever resolver is set."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs["site_resolver"] = in_front_of(kwargs.get("site_resolver"))  # type: ignore[arg-type]
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def set_site_resolver(self, resolver: SiteResolver | None) -> None:
        super().set_site_resolver(in_front_of(resolver))


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        found = page(urlparse(self.path).path)
        if found is None:
            self.send_error(404)
            return
        time.sleep(found.delay)
        self.send_response(found.status)
        for name, value in {**found.headers, "Content-Length": str(len(found.body))}.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(found.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client moved on (a test ended) before a slow answer was ready

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        return


@contextmanager
def loopback_site() -> Iterator[str]:
    """Serve the same pages on a free 127.0.0.1 port of the host; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.block_on_close = False
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
