"""Who may use `wds-tui serve`'s page: its own address, its own origin, this start's token.

Listening on loopback does not keep other web pages out. A page the operator
visits can open a WebSocket to 127.0.0.1:8000 (the browser then sends that
page's `Origin`), or point a name of its own at 127.0.0.1 and load our page
as its own (DNS rebinding: the browser then sends that name as `Host`). So
every request is checked here, before textual-serve sees it, in this order:

1. `Host` names the served address: the public URL's, or the bound address
   itself when it is an IP (a reverse proxy forwarding to it). An IP or the
   served name cannot be rebound by someone else's DNS. Other loopback spellings
   (`localhost` for 127.0.0.1, `[::1]`) are refused too: the page's socket and
   cookie belong to the public URL's host, so a page opened under another
   name could not connect anyway; the refusal page names the right address.
2. An `Origin`, when sent, is the page's own; a WebSocket must send it. Every
   browser sends `Origin` on a WebSocket handshake, so a missing one is not a
   browser on our page; a script that wants the stream sets it (and needs the token).
3. The token: `?token=` from the printed URL, or the cookie a first visit with
   it set (HttpOnly, SameSite=Strict, named after the port so two serves on
   one machine keep apart). Static files need it too: nothing is served
   without it but the short page saying to open the printed URL.

The token is never logged: refusals are logged with the path but no query,
at most a line a minute for each of the three checks.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from tui.dashboard.startup.serve_address import (
    DEFAULT_PORTS,
    Authority,
    parse_authority,
    parse_origin,
    read_page_address,
)

log = logging.getLogger("wds-tui.serve")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    """A fresh secret for one start of `wds-tui serve` (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def _same_secret(given: str | None, token: str) -> bool:
    # compare_digest on str refuses non-ASCII text with TypeError; bytes never do.
    return given is not None and hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: which check, a line for the log, and what the client is shown."""

    check: str
    reason: str
    page: str


class RefusalLog:
    """At most one line a minute per check: a page retrying in a loop must not flood the operator's terminal."""

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._every = every
        self._clock = clock
        self._last: dict[str, float] = {}
        self._quiet: Counter[str] = Counter()

    def note(self, check: str, line: str) -> None:
        now = self._clock()
        last = self._last.get(check)
        if last is not None and now - last < self._every:
            self._quiet[check] += 1
            return
        self._last[check] = now
        more = self._quiet.pop(check, 0)
        log.warning("%s%s", line, f" (and {more} more like it since the last line)" if more else "")


@dataclass(frozen=True)
class ServeGuard:
    """The checks of one start: the page's origin, the Host names it answers to, its token."""

    token: str = field(repr=False)  # tracebacks and logs show the guard, never its secret
    scheme: str
    origin: Authority
    hosts: frozenset[Authority]
    refusals: RefusalLog = field(default_factory=RefusalLog, repr=False, compare=False)

    @classmethod
    def for_address(cls, *, public_url: str, host: str, port: int, token: str) -> ServeGuard:
        """The guard for a page whose browsers use `public_url`, listening on `host`:`port`."""
        scheme, origin = read_page_address(public_url)
        hosts = {origin}
        try:
            bound = ipaddress.ip_address(host.strip("[]"))
        except ValueError:  # a name: only the public URL's spelling is taken
            bound = None
        if bound is not None and not bound.is_unspecified:  # for a proxy forwarding to it: an IP cannot be rebound
            hosts.add(Authority(str(bound), port))
        return cls(token, scheme, origin, frozenset(hosts))

    @property
    def page_origin(self) -> str:
        default = DEFAULT_PORTS[self.scheme]
        shown = f"[{self.origin.host}]" if ":" in self.origin.host else self.origin.host
        return f"{self.scheme}://{shown}" + ("" if self.origin.port == default else f":{self.origin.port}")

    @property
    def cookie_name(self) -> str:
        # Cookies are shared by every port of a host: the name keeps two serves on one machine apart.
        return f"wds-tui-serve-{self.origin.port}"

    def refusal(self, request: web.Request) -> Refusal | None:
        """Why `request` must not reach the page, or None when it may."""
        hosts = request.headers.getall("Host", [])
        host = parse_authority(hosts[0], DEFAULT_PORTS[self.scheme]) if len(hosts) == 1 else None
        if host not in self.hosts:
            return Refusal(
                "host", f"Host {', '.join(hosts) or '(none)'!r} is not {self.page_origin}", self._wrong_address_page()
            )
        origin_header = request.headers.get("Origin")
        wants_socket = request.headers.get("Upgrade", "").lower() == "websocket"
        if origin_header is not None or wants_socket:
            origin = parse_origin(origin_header or "")
            if origin != (self.scheme, self.origin):
                what = "a WebSocket" if wants_socket else "a request"
                return Refusal(
                    "origin",
                    f"{what} from Origin {origin_header or '(none)'!r}, not {self.page_origin}",
                    f"Refused: this page opens only from {self.page_origin}.\n",
                )
        if not self.signed_in(request):
            given = "a wrong token" if "token" in request.query or self.cookie_name in request.cookies else "no token"
            return Refusal("token", given, _NO_TOKEN_PAGE)
        return None

    def signed_in(self, request: web.Request) -> bool:
        """Whether `request` carries this start's token, in its query or its cookie."""
        return _same_secret(request.query.get("token"), self.token) or _same_secret(
            request.cookies.get(self.cookie_name), self.token
        )

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The aiohttp middleware: refuse with 403 before any handler (so before any dashboard starts)."""
        refused = self.refusal(request)
        if refused is not None:
            # The path without its query (which may hold a token); values from outside as repr, inert.
            self.refusals.note(
                refused.check, f"refused {request.method} {request.path!r} from {request.remote}: {refused.reason}"
            )
            page = refused.page
            content_type = "text/html" if page.startswith("<!doctype") else "text/plain"
            return web.Response(status=403, text=page, content_type=content_type, headers=_PRIVATE)
        if "token" in request.query and request.headers.get("Upgrade", "").lower() != "websocket":
            return self._sign_in(request)
        return await handler(request)

    def _sign_in(self, request: web.Request) -> web.Response:
        """The first visit with the token: set the cookie, then open the same page without the token in its
        address (so it stays out of the history and of Referer). A page, not a redirect: the page's own
        navigation is same-site, so the SameSite=Strict cookie goes along even when the link was followed
        from another site (a redirect would keep that site as initiator, and the cookie would stay home)."""
        rest = request.rel_url.without_query_params("token").raw_query_string  # still %-encoded
        # Into a script as a JSON string: quotes escaped, and no "</script>" can close it early.
        target = json.dumps("?" + rest if rest else "").replace("<", "\\u003c")
        response = web.Response(
            text=_SIGN_IN_PAGE.replace("TARGET", target), content_type="text/html", headers=_PRIVATE
        )
        response.set_cookie(
            self.cookie_name, self.token, path="/", httponly=True, samesite="Strict", secure=self.scheme == "https"
        )
        return response

    def _wrong_address_page(self) -> str:
        address = html.escape(self.page_origin)
        return _PAGE.format(
            title="wds-tui: not this address",
            body=f"This dashboard answers only at <code>{address}</code>. Open the address "
            "<code>wds-tui serve</code> printed when it started.",
        )


# The server's own words: only the sign-in page holds something of the request (its other query
# parameters, as an escaped JSON string), and only once the request has shown the token.
_PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
_PAGE = (
    '<!doctype html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>\n'
    '<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">\n'
    "<h1>{title}</h1>\n<p>{body}</p>\n</body></html>\n"
)
_NO_TOKEN_PAGE = _PAGE.format(
    title="wds-tui: open the printed address",
    body="This dashboard opens only from the address <code>wds-tui serve</code> printed when it started; "
    "it ends in <code>/?token=&hellip;</code>. Each start makes a new token, so an address from an "
    "earlier start no longer works: look at the terminal where <code>wds-tui serve</code> runs.",
)
_SIGN_IN_PAGE = (
    '<!doctype html>\n<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
    "<title>wds-tui</title></head>\n<body><p>Opening the dashboard&hellip; (it needs JavaScript)</p>\n"
    "<script>location.replace(location.pathname + TARGET)</script>\n</body></html>\n"
)
