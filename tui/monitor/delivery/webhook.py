"""A webhook POST of one alert, retried with backoff: Slack-compatible, ntfy, or the notice as JSON.

- `slack`: an incoming webhook's `{"text": "..."}` (Slack's, and those that copy it);
- `ntfy`: the body as plain text, with `Title`, `Priority` and `Tags` headers (ntfy.sh's publish API);
- `json`: the notice itself (`AlertNotice.to_json`).

A hook's URL is a secret (a Slack hook's path, an ntfy topic): it is shown only
as `masked_url` gives it, in every message and log line.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from enum import StrEnum

import httpx

from tui.api.backoff import Backoff
from tui.contract.redact import mask_key
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.delivery.terminal import clean

log = logging.getLogger(__name__)

RETRIED_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""Answers worth another try; any other status is final."""
RETRY_AFTER_LIMIT = 300.0
"""Seconds of a Retry-After honoured at most: a receiver asking for an hour gets this."""
HEADER_LIMIT = 200
"""Characters of a title sent in a header at most."""
NTFY_PRIORITY = {"info": "default", "warning": "high", "critical": "urgent"}
NTFY_TAGS = {"fired": "warning", "repeated": "warning", "resolved": "white_check_mark"}


class WebhookForm(StrEnum):
    """What the receiver expects."""

    SLACK = "slack"
    NTFY = "ntfy"
    JSON = "json"


def masked_url(url: str) -> str:
    """`url` as shown anywhere: its scheme and host, then `…` and the last four characters of the rest."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return mask_key(url)
    # the authority ends at the first /, ? or # (a topic may come as ?topic=... with no path)
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    host = rest[:end].rpartition("@")[2]  # a user:password@ is never shown
    secret = rest[end:]
    return f"{scheme}://{host}" + ("/" + mask_key(secret) if secret.strip("/") else "")


def _header_text(text: str) -> str:
    """`text` as a header value: one line without controls; non-ASCII as an RFC 2047 word, which ntfy decodes.

    httpx sends header values as Latin-1, so "Müller — crawl failed" would not go at all.
    """
    text = clean(text, HEADER_LIMIT)
    if text.isascii():
        return text
    return "=?UTF-8?B?" + base64.b64encode(text.encode("utf-8")).decode("ascii") + "?="


def _slack_escaped(text: str) -> str:
    """Outside text as Slack shows it: &, < and > escaped, so a "<!channel>" in an error pings nobody."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def request_parts(notice: AlertNotice, form: WebhookForm) -> tuple[bytes, dict[str, str]]:
    """The body and headers of the POST for `notice` in `form`."""
    if form is WebhookForm.SLACK:
        mark = {"fired": "ALERT", "repeated": "STILL", "resolved": "RESOLVED"}[notice.state]
        text = f"[{mark}] {_slack_escaped(notice.title)}\n{_slack_escaped(notice.body)}"
        return json.dumps({"text": text}, ensure_ascii=False).encode("utf-8"), {"content-type": "application/json"}
    if form is WebhookForm.NTFY:
        headers = {
            "content-type": "text/plain; charset=utf-8",
            "title": _header_text(notice.title),
            "priority": NTFY_PRIORITY.get(notice.severity, "default"),
            "tags": f"{NTFY_TAGS[notice.state]},{_header_text(notice.rule)}",
        }
        return notice.body.encode("utf-8"), headers
    return notice.to_json().encode("utf-8"), {"content-type": "application/json"}


@dataclass(frozen=True)
class WebhookOutcome:
    """One delivery after its retries: whether it arrived, the last status, how many attempts it took."""

    ok: bool
    shown_url: str
    attempts: int
    status: int | None = None
    problem: str = ""

    @property
    def message(self) -> str:
        if self.ok:
            return f"alert sent to {self.shown_url} ({self.status}, attempt {self.attempts})"
        return f"alert not delivered to {self.shown_url} after {self.attempts} attempt(s): {self.problem}"


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a 429 or 503 asks to wait (delta-seconds or an HTTP date), capped; None if it asks nothing."""
    if response.status_code not in (429, 503):
        return None
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = (parsedate_to_datetime(value) - _date_of(response)).total_seconds()
        except (TypeError, ValueError):
            return None
    return min(max(seconds, 0.0), RETRY_AFTER_LIMIT)


def _date_of(response: httpx.Response) -> datetime:
    """The receiver's own clock (its Date header) when it gave one, so clocks that differ do not matter."""
    date = response.headers.get("date")
    return parsedate_to_datetime(date) if date else datetime.now(UTC)


class _HookUrlsMasked(logging.Filter):
    """Masks hook URLs in httpx's own log lines ("HTTP Request: POST https://...") as in ours."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if any(url in text for url in self.urls):
            for url in sorted(self.urls, key=len, reverse=True):
                text = text.replace(url, masked_url(url))
            record.msg, record.args = text, ()
        return True


_MASK_IN_HTTPX_LOG = _HookUrlsMasked()
logging.getLogger("httpx").addFilter(_MASK_IN_HTTPX_LOG)

Sleep = Callable[[float], Awaitable[None]]


@dataclass
class WebhookSender:
    """Posts notices to one hook, with up to `attempts` tries spaced by `backoff` (or what Retry-After asks)."""

    client: httpx.AsyncClient
    url: str
    form: WebhookForm = WebhookForm.JSON
    attempts: int = 4
    backoff: Backoff = Backoff(initial=1.0, maximum=30.0, jitter=0.25)
    sleep: Sleep = asyncio.sleep
    timeout: float = 10.0

    def __post_init__(self) -> None:
        _MASK_IN_HTTPX_LOG.urls.add(self.url)

    @property
    def shown_url(self) -> str:
        return masked_url(self.url)

    async def send(self, notice: AlertNotice) -> WebhookOutcome:
        """Deliver `notice`; never raises for what the network or the receiver does."""
        body, headers = request_parts(notice, self.form)
        problem, status = "", None
        for attempt in range(1, self.attempts + 1):
            wait: float | None = None
            try:
                response = await self.client.post(self.url, content=body, headers=headers, timeout=self.timeout)
            except httpx.HTTPError as error:
                # the error's text may quote the URL: say only what kind of failure it was
                problem, status = f"{type(error).__name__} (no answer)", None
            else:
                status = response.status_code
                if response.is_success:
                    return WebhookOutcome(True, self.shown_url, attempt, status)
                problem = f"answered {status}"
                if status not in RETRIED_STATUSES:
                    break
                wait = retry_after(response)
            if attempt < self.attempts:
                delay = wait if wait is not None else self.backoff.delay(attempt - 1)
                log.info("alert to %s: %s; trying again in %.1f s", self.shown_url, problem, delay)
                await self.sleep(delay)
        outcome = WebhookOutcome(False, self.shown_url, attempt, status, problem)
        log.warning("%s", outcome.message)
        return outcome
