"""`wds-tui serve` serves only its own page: a real serve process on a loopback port, real HTTP and WebSockets.

The attacks are the ones a web page the operator visits can make: open a
WebSocket to the port (its browser sends the page's Origin), or rebind a name of
its own to 127.0.0.1 (its browser sends that name as Host), or just load the
page without the token. Each is refused with 403 and starts no dashboard: no
process appears under the serve process. The tabs' dashboards here point at a
closed loopback port (127.0.0.1:9): they start and draw, which is all we need.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.support.processes import ServeProcess, children_of, serve_process

pytestmark = pytest.mark.socket

KEY = "wds-" + "5a" * 16
SOCKET_HEADERS = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    home = tmp_path_factory.mktemp("serve-home")
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "WDS_CONFIG": str(home / "none.toml"),
        "WDS_BASE_URL": "http://127.0.0.1:9",
        "WDS_API_KEY": KEY,
    }
    with serve_process(environment, home / "serve.log") as process:
        yield process


def page(served: ServeProcess) -> str:
    return f"http://127.0.0.1:{served.port}"


def cookie(served: ServeProcess) -> dict[str, str]:
    """The cookie the printed address sets (name and value as the browser sends them back)."""
    return {"Cookie": f"wds-tui-serve-{served.port}={served.token}"} if served.token else {}


async def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, aiohttp.ClientResponse]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers, allow_redirects=False) as answer:
        return answer.status, await answer.text(), answer


async def socket_status(served: ServeProcess, headers: dict[str, str], query: str = "") -> int:
    """The status of a WebSocket handshake on /ws (101 when accepted; the socket is closed at once)."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(f"{page(served)}/ws{query}", headers=headers) as socket:
                await socket.close()
                return 101
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:{port}", "http://localhost:{port}", None],
)
async def test_a_websocket_from_another_origin_is_refused_and_starts_no_dashboard(
    served: ServeProcess, origin: str | None
) -> None:
    before = children_of(served.pid)
    headers = cookie(served)  # the right token: the Origin alone must refuse
    if origin is not None:
        headers["Origin"] = origin.format(port=served.port)
    assert await socket_status(served, headers) == 403
    assert children_of(served.pid) <= before


@pytest.mark.parametrize(
    "host",
    [
        "rebind.evil.example:{port}",
        "rebind.evil.example",
        "localhost:{port}",
        "127.0.0.1",
        "127.0.0.1:1",
        "127.0.0.1.evil.example:{port}",
        "[::1]:{port}",
    ],
)
async def test_a_request_naming_another_host_is_refused(served: ServeProcess, host: str) -> None:
    """DNS rebinding: the attacker's name now points at 127.0.0.1, and its page is 'same-origin' with ours."""
    host = host.format(port=served.port)
    before = children_of(served.pid)
    status, body, _ = await get(f"{page(served)}/?token={served.token}", {"Host": host})
    assert status == 403
    assert "textual" not in body and served.token not in body and f"http://127.0.0.1:{served.port}" in body
    status, _, _ = await get(f"{page(served)}/static/js/textual.js", {"Host": host, **cookie(served)})
    assert status == 403
    origin = {"Origin": f"http://{host}"}
    assert await socket_status(served, {"Host": host, **origin, **cookie(served)}) == 403
    assert children_of(served.pid) <= before


@pytest.mark.parametrize("token", [None, "", "wrong", "é", "{token}x"])
async def test_without_the_token_nothing_is_served_and_no_dashboard_starts(
    served: ServeProcess, token: str | None
) -> None:
    given = None if token is None else token.format(token=served.token)
    query = "" if given is None else f"?token={given}"
    before = children_of(served.pid)
    status, body, answer = await get(f"{page(served)}/{query}")
    assert status == 403
    assert "open the printed address" in body and "textual" not in body
    assert "Set-Cookie" not in answer.headers
    assert (await get(f"{page(served)}/static/js/textual.js{query}"))[0] == 403
    own_origin = {"Origin": page(served)}
    assert await socket_status(served, own_origin, query) == 403
    if given is not None:  # the same wrong token as a cookie
        assert await socket_status(served, {**own_origin, "Cookie": f"wds-tui-serve-{served.port}={given}"}) == 403
    assert children_of(served.pid) <= before


async def test_the_printed_address_opens_the_page_and_its_socket_streams_the_dashboard(served: ServeProcess) -> None:
    assert served.address == f"{page(served)}/?token={served.token}"
    # The printed address sets the cookie and sends the browser on to the page without the token.
    status, body, answer = await get(f"{served.address}&fontsize=18")
    assert status == 200
    assert served.token not in body and 'location.replace(location.pathname + "?fontsize=18")' in body
    assert answer.headers["Cache-Control"] == "no-store" and answer.headers["Referrer-Policy"] == "no-referrer"
    set_cookie = answer.headers["Set-Cookie"]
    assert set_cookie.startswith(f"wds-tui-serve-{served.port}={served.token};")
    assert {"HttpOnly", "Path=/", "SameSite=Strict"} <= {part.strip() for part in set_cookie.split(";")}
    # With the cookie: the page, its script, and the socket, which starts a dashboard and streams its screen.
    status, body, _ = await get(f"{page(served)}/", cookie(served))
    assert status == 200 and f"ws://127.0.0.1:{served.port}/ws" in body
    assert (await get(f"{page(served)}/static/js/textual.js", cookie(served)))[0] == 200
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(
            f"{page(served)}/ws?width=100&height=30", headers={"Origin": page(served), **cookie(served)}
        ) as socket:
            screen = b""
            while b"Team activity" not in screen:
                message = await asyncio.wait_for(socket.receive(), 60)
                assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
                if message.type == aiohttp.WSMsgType.BINARY:
                    screen += message.data
            dashboards = children_of(served.pid)
            assert dashboards, "the socket started the tab's dashboard"
            # The token never reaches a tab: neither its command line nor its environment.
            for pid in dashboards:
                for part in ("cmdline", "environ"):
                    try:
                        assert served.token.encode() not in Path(f"/proc/{pid}/{part}").read_bytes()
                    except FileNotFoundError:
                        pass  # a short-lived helper of the tab, already gone


async def test_a_page_retrying_in_a_loop_does_not_flood_the_log(served: ServeProcess) -> None:
    before = served.log.read_text().count("refused")
    headers = {"Origin": "http://evil.example", **cookie(served)}
    statuses = [await socket_status(served, headers) for _ in range(100)]
    statuses += [(await get(f"{page(served)}/"))[0] for _ in range(100)]
    assert set(statuses) == {403}
    assert served.log.read_text().count("refused") - before <= 2  # a line per check and minute at most


async def test_the_token_is_printed_once_and_never_logged(served: ServeProcess) -> None:
    assert served.token
    # Refused requests carrying the token in their query and their cookie, and one accepted.
    await get(f"{page(served)}/?token={served.token}", {"Host": "rebind.evil.example"})
    await socket_status(served, {"Origin": "http://evil.example", **cookie(served)}, f"?token={served.token}")
    assert (await get(f"{page(served)}/?token={served.token}"))[0] == 200
    log = served.log.read_text()
    # The log's lines are wrapped to the terminal's width: a token cut in two must still count.
    assert "".join(log.split()).count(served.token) == 1, log
    log = " ".join(log.split())
    # Logged by this test, or by an earlier one within the minute (a line per check and minute).
    assert "refused GET '/' from 127.0.0.1: Host '" in log
    assert "refused GET '/ws' from 127.0.0.1: a WebSocket from Origin '" in log
    assert KEY not in log
