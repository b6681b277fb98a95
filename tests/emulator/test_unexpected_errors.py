"""An unexpected failure answers the service's 500 body and leaves the connection usable.

Issue 9: after each 500, uvicorn closed the keep-alive connection (Starlette's
handler for `Exception` re-raises after answering), and the next request on it
failed with ECONNRESET in 19 of 20 tries. These run a real uvicorn server.
"""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket


class Boom(RuntimeError):
    """A bug the emulator did not foresee."""


def _break_activity(emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    def page(*args: object, **kwargs: object) -> None:
        raise Boom("the activity log is broken")

    monkeypatch.setattr(emulator.activity, "page", page)


def _read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length body, read off a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed by the server after {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server mid-body")
        body += chunk
    return int(lines[0].split()[1]), headers, body


def test_a_500_keeps_the_keep_alive_connection_open(emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    _break_activity(emulator, monkeypatch)
    with ServerThread(emulator) as base_url:
        parts = urlsplit(base_url)
        request = "GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n\r\n"
        with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
            sock.sendall(request.format(path="/v2/team/activity", host=parts.netloc, key=ALPHA_KEY).encode())
            status, headers, body = _read_response(sock)
            assert status == 500
            assert headers.get("connection", "").lower() != "close"
            assert json.loads(body) == {
                "success": False,
                "error": "An unexpected error occurred: Boom",
                "code": "UNKNOWN_ERROR",
            }
            # The same socket serves the next request.
            sock.sendall(request.format(path="/v2/crawl/active", host=parts.netloc, key=ALPHA_KEY).encode())
            status, _, body = _read_response(sock)
            assert status == 200 and json.loads(body) == {"success": True, "crawls": []}


def test_a_keep_alive_client_survives_many_500s(emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    _break_activity(emulator, monkeypatch)
    with ServerThread(emulator) as base_url, httpx.Client(base_url=base_url, headers=auth(ALPHA_KEY)) as c:
        for _ in range(20):
            assert c.get("/v2/team/activity").status_code == 500
            assert c.get("/v2/crawl/active").status_code == 200


def test_the_support_endpoints_answer_a_500_in_their_shape(emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    def docs_search(*args: object, **kwargs: object) -> None:
        raise Boom("the docs index is broken")

    monkeypatch.setattr(emulator.support, "docs_search", docs_search)
    with ServerThread(emulator) as base_url:
        r = httpx.post(f"{base_url}/v2/support/docs-search", json={"question": "how?"}, headers=auth(ALPHA_KEY))
        assert r.status_code == 500 and r.json() == {"error": "An unexpected error occurred: Boom"}
