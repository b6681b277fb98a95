"""Alert webhooks on a loopback receiver: Slack, ntfy and generic forms, retries, Retry-After, and a URL never shown whole."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from email.header import decode_header
from email.utils import format_datetime

import httpx
import pytest

from tests.monitor.notices import notice
from tests.support.webhook_receiver import Receiver
from tui.api.backoff import Backoff
from tui.monitor.delivery.webhook import WebhookForm, WebhookSender, masked_url

pytestmark = pytest.mark.socket

SECRET_PATH = "/T01ABCDEF/B02GHIJKL/s3cr3tT0k3n"
EXACT = Backoff(initial=1.0, maximum=30.0, jitter=0)


class Sleeps(list[float]):
    """An injected sleep that only records how long it was asked to wait."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def sender(client: httpx.AsyncClient, url: str, form: WebhookForm, sleeps: Sleeps, **options: object) -> WebhookSender:
    return WebhookSender(client, url, form, backoff=EXACT, sleep=sleeps, **options)  # type: ignore[arg-type]


async def test_slack_ntfy_and_generic_receivers_each_get_their_form() -> None:
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        for form in WebhookForm:
            outcome = await sender(client, receiver.url + SECRET_PATH, form, Sleeps()).send(notice())
            assert outcome.ok and outcome.status == 200 and outcome.attempts == 1
    slack, ntfy, generic = receiver.received
    assert slack.headers["content-type"] == "application/json"
    assert slack.json == {"text": "[ALERT] 3 scrapes failed\nexample.com: 503 within 10 min"}
    assert ntfy.body == b"example.com: 503 within 10 min"
    assert ntfy.headers["content-type"] == "text/plain; charset=utf-8"
    assert (ntfy.headers["title"], ntfy.headers["priority"], ntfy.headers["tags"]) == (
        "3 scrapes failed",
        "high",
        "warning,job_failed",
    )
    assert generic.json == notice().to_dict() == json.loads(notice().to_json())
    assert slack.path == ntfy.path == generic.path == "/hooks/crawl" + SECRET_PATH


async def test_a_repeated_or_resolved_alert_says_so() -> None:
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        for form in (WebhookForm.SLACK, WebhookForm.NTFY):
            await sender(client, receiver.url, form, Sleeps()).send(notice(state="resolved"))
        await sender(client, receiver.url, WebhookForm.SLACK, Sleeps()).send(notice(state="repeated"))
    slack, ntfy, repeated = receiver.received
    assert slack.json["text"].startswith("[RESOLVED] 3 scrapes failed\n")
    assert ntfy.headers["tags"] == "white_check_mark,job_failed"
    assert repeated.json["text"].startswith("[STILL] 3 scrapes failed\n")


async def test_a_500_is_retried_with_backoff_until_it_arrives() -> None:
    sleeps = Sleeps()
    async with Receiver(statuses=[500, 502, 200]) as receiver, httpx.AsyncClient() as client:
        outcome = await sender(client, receiver.url, WebhookForm.JSON, sleeps).send(notice())
    assert outcome.ok and outcome.attempts == 3 and len(receiver.received) == 3
    assert sleeps == [1.0, 2.0]


async def test_attempts_are_bounded() -> None:
    sleeps = Sleeps()
    async with Receiver(statuses=[503]) as receiver, httpx.AsyncClient() as client:
        outcome = await sender(client, receiver.url, WebhookForm.JSON, sleeps).send(notice())
    assert not outcome.ok and outcome.attempts == 4 and outcome.status == 503
    assert sleeps == [1.0, 2.0, 4.0] and len(receiver.received) == 4
    assert outcome.problem == "answered 503"


def test_the_default_waits_double_from_one_second_less_a_little_jitter() -> None:
    waits = [WebhookSender.backoff.delay(n) for n in range(3)]
    assert 0.75 <= waits[0] <= 1.0 and 1.5 <= waits[1] <= 2.0 and 3.0 <= waits[2] <= 4.0


async def test_a_404_is_final() -> None:
    async with Receiver(statuses=[404]) as receiver, httpx.AsyncClient() as client:
        outcome = await sender(client, receiver.url, WebhookForm.JSON, Sleeps()).send(notice())
    assert (outcome.ok, outcome.attempts, outcome.status, len(receiver.received)) == (False, 1, 404, 1)


def scripted(*answers: httpx.Response) -> httpx.AsyncClient:
    pending = list(answers)
    return httpx.AsyncClient(transport=httpx.MockTransport(lambda request: pending.pop(0)))


async def test_retry_after_is_honoured_in_seconds_and_as_a_date() -> None:
    now = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    sleeps = Sleeps()
    client = scripted(
        httpx.Response(429, headers={"Retry-After": "7"}),
        httpx.Response(
            503,
            headers={
                "Date": format_datetime(now, usegmt=True),
                "Retry-After": format_datetime(now + timedelta(seconds=120), usegmt=True),
            },
        ),
        httpx.Response(429, headers={"Retry-After": "86400"}),  # a day: capped
        httpx.Response(200),
    )
    async with client:
        outcome = await sender(client, "https://ntfy.example/alerts-x7Qz", WebhookForm.NTFY, sleeps, attempts=4).send(
            notice()
        )
    assert outcome.ok and outcome.attempts == 4
    assert sleeps == [7.0, 120.0, 300.0]


async def test_the_url_is_masked_in_every_message_and_log_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with Receiver(statuses=[500, 200]) as receiver, httpx.AsyncClient() as client:
        url = receiver.url + SECRET_PATH
        ok = await sender(client, url, WebhookForm.SLACK, Sleeps()).send(notice())
    port = url.split(":")[2].split("/")[0]
    assert ok.message == f"alert sent to http://127.0.0.1:{port}/…0k3n (200, attempt 2)"
    unreachable = f"http://127.0.0.1:{port}{SECRET_PATH}"  # the receiver is gone: nothing listens there
    async with httpx.AsyncClient() as client:
        failed = await sender(client, unreachable, WebhookForm.SLACK, Sleeps(), attempts=2).send(notice())
    assert (
        failed.message
        == f"alert not delivered to http://127.0.0.1:{port}/…0k3n after 2 attempt(s): ConnectError (no answer)"
    )
    lines = [record.getMessage() for record in caplog.records]
    assert any("HTTP Request: POST" in line for line in lines)  # httpx's own line, masked too
    assert not [line for line in lines if "s3cr3t" in line or "B02GHIJKL" in line]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://hooks.slack.com/services/T01/B02/abcdefXYZ9", "https://hooks.slack.com/…XYZ9"),
        ("https://ntfy.sh/wds-alerts-8f3k", "https://ntfy.sh/…8f3k"),
        ("https://user:pass@ntfy.example:8443/topic-abcd?auth=zz12", "https://ntfy.example:8443/…zz12"),
        ("https://ntfy.example?topic=alerts-9f2Q", "https://ntfy.example/…9f2Q"),
        ("https://ntfy.example#frag-7Hq1", "https://ntfy.example/…7Hq1"),
        ("https://example.com", "https://example.com"),
        ("https://example.com/", "https://example.com"),
        ("not a url at all", "… all"),
    ],
)
def test_masked_url_shows_scheme_and_host_and_the_last_four_characters(url: str, shown: str) -> None:
    assert masked_url(url) == shown


async def test_an_ntfy_title_beyond_ascii_arrives_whole_and_without_controls() -> None:
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        hostile = notice(title="Müller — crawl failed\r\nX-Injected: 1")
        outcome = await sender(client, receiver.url, WebhookForm.NTFY, Sleeps()).send(hostile)
    assert outcome.ok
    (got,) = receiver.received
    assert "x-injected" not in got.headers
    (text, charset), *_ = decode_header(got.headers["title"])
    assert (text.decode(charset), charset) == ("Müller — crawl failed X-Injected: 1", "utf-8")


async def test_outside_text_cannot_ping_a_slack_channel_or_make_a_link() -> None:
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        sent = notice(title="<!channel> down", body="see <https://evil.example|the docs> & more")
        await sender(client, receiver.url, WebhookForm.SLACK, Sleeps()).send(sent)
    assert receiver.received[0].json == {
        "text": "[ALERT] &lt;!channel&gt; down\nsee &lt;https://evil.example|the docs&gt; &amp; more"
    }
