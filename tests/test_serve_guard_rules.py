"""The rules of `tui.dashboard.startup.serve_guard` for the addresses one test process cannot serve (IPv6, a public URL,
https behind a proxy), and the parts of textual-serve that `tui.dashboard.startup.serve_web` builds on.

The attacks themselves are tested on a real serve process in tests/test_serve_guard.py.
"""

from __future__ import annotations

import pytest
from aiohttp.test_utils import make_mocked_request

from tui.dashboard.startup.serve_address import Authority, parse_authority, parse_origin
from tui.dashboard.startup.serve_guard import RefusalLog, ServeGuard

TOKEN = "t0ken-of-this-start"


def request(guard: ServeGuard, host: str, origin: str | None = None, *, socket: bool = False, signed: bool = True):  # type: ignore[no-untyped-def]
    headers = {"Host": host}
    if origin is not None:
        headers["Origin"] = origin
    if socket:
        headers |= {"Connection": "Upgrade", "Upgrade": "websocket"}
    if signed:
        headers["Cookie"] = f"{guard.cookie_name}={TOKEN}"
    return make_mocked_request("GET", "/ws" if socket else "/", headers=headers)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:8000", Authority("127.0.0.1", 8000)),
        ("LOCALHOST:8000", Authority("localhost", 8000)),
        ("ops-box", Authority("ops-box", 80)),
        ("[::1]:8000", Authority("::1", 8000)),
        ("[0:0:0:0:0:0:0:1]:8000", Authority("::1", 8000)),  # one address, however it is spelled
        ("::1:8000", None),  # IPv6 without brackets
        ("[127.0.0.1]:8000", None),  # brackets are for IPv6
        ("127.0.0.1:", None),
        ("127.0.0.1:0", None),
        ("127.0.0.1:65536", None),
        ("127.0.0.1:8O00", None),
        ("", None),
        ("user@host:80", None),
        ("host/path", None),
        ("[::1]x", None),
    ],
)
def test_host_headers_are_read_strictly(text: str, expected: Authority | None) -> None:
    assert parse_authority(text, 80) == expected


def test_origins_need_a_web_scheme() -> None:
    assert parse_origin("https://ops.example") == ("https", Authority("ops.example", 443))
    assert parse_origin("null") is None
    assert parse_origin("file://") is None
    assert parse_origin("chrome-extension://abc") is None


def test_a_public_url_is_the_page_s_address_and_the_bound_ip_stays_reachable_for_a_proxy() -> None:
    guard = ServeGuard.for_address(public_url="http://ops-box:8000", host="127.0.0.1", port=8000, token=TOKEN)
    assert guard.refusal(request(guard, "ops-box:8000", "http://ops-box:8000", socket=True)) is None
    # A proxy forwarding to the bound address keeps the browser's Origin: accepted.
    assert guard.refusal(request(guard, "127.0.0.1:8000", "http://ops-box:8000", socket=True)) is None
    # A page served under the bound address is not the page: its socket is refused.
    assert guard.refusal(request(guard, "127.0.0.1:8000", "http://127.0.0.1:8000", socket=True)) is not None
    assert guard.refusal(request(guard, "localhost:8000")) is not None


def test_listening_everywhere_answers_to_the_public_url_only() -> None:
    guard = ServeGuard.for_address(public_url="http://ops-box:8000", host="0.0.0.0", port=8000, token=TOKEN)
    assert guard.hosts == {Authority("ops-box", 8000)}
    assert guard.refusal(request(guard, "0.0.0.0:8000")) is not None
    assert guard.refusal(request(guard, "192.168.1.4:8000")) is not None


async def test_https_behind_a_proxy_takes_the_default_port_and_a_secure_cookie() -> None:
    guard = ServeGuard.for_address(public_url="https://ops.example", host="127.0.0.1", port=8000, token=TOKEN)
    for host in ("ops.example", "ops.example:443", "OPS.example"):
        assert guard.refusal(request(guard, host, "https://ops.example", socket=True)) is None
    assert guard.refusal(request(guard, "ops.example", "http://ops.example", socket=True)) is not None
    signing_in = make_mocked_request("GET", f"/?token={TOKEN}", headers={"Host": "ops.example"})
    answer = await guard.middleware(signing_in, handler=None)  # signing in answers before any handler
    assert answer.cookies[guard.cookie_name]["secure"] is True


def test_ipv6_loopback_is_served_under_its_canonical_spelling() -> None:
    guard = ServeGuard.for_address(public_url="http://[::1]:8000", host="::1", port=8000, token=TOKEN)
    assert guard.refusal(request(guard, "[::1]:8000", "http://[::1]:8000", socket=True)) is None
    assert guard.refusal(request(guard, "[0::1]:8000", "http://[0:0::1]:8000", socket=True)) is None
    assert guard.refusal(request(guard, "127.0.0.1:8000")) is not None


def test_refusals_are_logged_once_a_minute_per_check_with_the_count_between(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    refusals = RefusalLog(every=60.0, clock=lambda: now[0])
    with caplog.at_level("WARNING", logger="wds-tui.serve"):
        for second in range(0, 130, 2):
            now[0] = float(second)
            refusals.note("origin", "refused a WebSocket")
            refusals.note("host", "refused a Host")
    lines = [record.getMessage() for record in caplog.records]
    assert lines == [
        "refused a WebSocket",
        "refused a Host",
        "refused a WebSocket (and 29 more like it since the last line)",
        "refused a Host (and 29 more like it since the last line)",
        "refused a WebSocket (and 29 more like it since the last line)",
        "refused a Host (and 29 more like it since the last line)",
    ]


async def test_signing_in_keeps_the_other_parameters_and_cannot_be_made_to_run_a_script() -> None:
    guard = ServeGuard.for_address(public_url="http://127.0.0.1:8000", host="127.0.0.1", port=8000, token=TOKEN)
    hostile = "%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E"
    signing_in = make_mocked_request(
        "GET", f"/?fontsize=20&token={TOKEN}&a=b%26c&x={hostile}", headers={"Host": "127.0.0.1:8000"}
    )
    page = (await guard.middleware(signing_in, handler=None)).text
    assert page.count("<script>") == 1 and page.count("</script>") == 1
    assert TOKEN not in page
    assert 'location.replace(location.pathname + "?fontsize=20&a=b%26c&x=' in page


def test_the_token_never_shows_in_the_guard_s_repr() -> None:
    """textual-serve logs tracebacks; a frame holding the guard must not print its secret."""
    guard = ServeGuard.for_address(public_url="http://127.0.0.1:8000", host="127.0.0.1", port=8000, token=TOKEN)
    assert TOKEN not in repr(guard)


async def test_the_guarded_app_serves_textual_serves_page_socket_and_files_only_behind_the_guard() -> None:
    """`tui.dashboard.startup.serve_web` builds textual-serve's application from its public handlers and paths,
    with the guard as its middleware. What it relies on is watched here: the handlers and paths still exist, the
    page renders (its template finds the routes it names: "websocket", "static"), and every file the page loads
    is served. An upgrade of textual-serve that moves any of it fails here (the version is pinned below 1.2)."""
    import re

    from aiohttp.test_utils import TestClient, TestServer

    from tui.dashboard.startup.serve_web import GuardedServer

    guard = ServeGuard.for_address(public_url="http://127.0.0.1:8000", host="127.0.0.1", port=8000, token=TOKEN)
    server = GuardedServer(
        "true", host="127.0.0.1", port=8000, title="t", public_url="http://127.0.0.1:8000", guard=guard
    )
    app = await server.guarded_app()
    assert list(app.middlewares) == [guard.middleware]
    assert not any(type(resource).__name__ == "PrefixedSubAppResource" for resource in app.router.resources())
    host = {"Host": "127.0.0.1:8000"}
    signed = host | {"Cookie": f"{guard.cookie_name}={TOKEN}"}
    async with TestClient(TestServer(app)) as client:
        answer = await client.get("/", headers=signed)
        assert answer.status == 200
        page = await answer.text()
        assert '"ws://127.0.0.1:8000/ws"' in page  # the socket's address, from the route named "websocket"
        files = re.findall(r"http://127\.0\.0\.1:8000(/static/[^\"]+)", page)
        assert {"/static/js/textual.js", "/static/css/xterm.css"} <= set(files), files
        for path in files:
            assert (await client.get(path, headers=signed)).status == 200, path
        assert (await client.get("/download/no-such-key", headers=signed)).status == 404  # textual-serve's answer
        for path in ("/", "/static/js/textual.js", "/download/no-such-key", "/ws"):  # all behind the guard
            assert (await client.get(path, headers=host)).status == 403, path
