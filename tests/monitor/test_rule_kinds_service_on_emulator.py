"""The service's own rules on a real emulator: down (unreachable, key refused) and unverified webhooks.

Unreachable is the emulator served on a loopback socket and then stopped: our
client's calls fail to connect, as they would with the service gone; it comes
back on the same port. A refused key is a key the service does not know,
until the operator puts the right one in. Unverified webhooks are the
emulator's real, signed deliveries to a loopback receiver that checks them
with a secret that is no longer the team's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.monitor.emulator_watch import health_of, lifecycle, watching
from tests.support.dashboard import KEY, client_over
from tests.support.webhook_receiver import Receiver
from tui.api.client import WdsClient
from tui.api.errors import WebhookSignatureError
from tui.api.webhooks import parse_event
from tui.emulator.server import bind_socket, running
from tui.monitor.alerts.rules import ServiceDownRule, WebhookUnverifiedRule

pytestmark = pytest.mark.socket  # the emulator served, and a webhook receiver, on loopback sockets

UNKNOWN_KEY = "wds-" + "0d" * 16


async def test_service_down_fires_while_the_service_is_unreachable_and_resolves_when_it_is_back(tmp_path: Path) -> None:
    rule = ServiceDownRule(minutes=3, repeat_minutes=5)
    async with watching(tmp_path, rule) as watched:
        socket = bind_socket("127.0.0.1", 0)
        port = socket.getsockname()[1]
        async with WdsClient(f"http://127.0.0.1:{port}", KEY, max_retries=0) as client:
            async with running(watched.emulator, sock=socket):
                assert await health_of(watched.monitor, client.team.credit_usage()) is not None
            # The service has gone away.
            for _ in range(3):  # a poll a minute, none answered
                assert await health_of(watched.monitor, client.team.credit_usage()) is None
                watched.advance(1)
            assert watched.said() == []
            await health_of(watched.monitor, client.team.credit_usage())
            [fired] = watched.said()
            assert (fired.what, fired.subject) == ("fired", "unreachable")
            # The last failure's own words follow: where, which call, and httpx's reason.
            assert fired.sentence.startswith(
                f"the service has been unreachable for 3 min: cannot reach http://127.0.0.1:{port} "
                "(GET /v2/team/credit-usage): "
            )

            watched.advance(5)
            await health_of(watched.monitor, client.team.credit_usage())
            assert lifecycle(watched.said()) == [("repeated", "unreachable")]

            async with running(watched.emulator, sock=bind_socket("127.0.0.1", port)):  # back, where it was
                assert await health_of(watched.monitor, client.team.credit_usage()) is not None
        assert lifecycle(watched.said()) == [("resolved", "unreachable")]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("service_down", "unreachable", "resolved", 1)


async def test_service_down_fires_while_the_key_is_refused_and_resolves_when_a_good_key_is_put_in(
    tmp_path: Path,
) -> None:
    rule = ServiceDownRule(minutes=3, repeat_minutes=5)
    async with watching(tmp_path, rule) as watched:
        refused = client_over(watched.http, UNKNOWN_KEY)  # the same service, a key it does not know
        for _ in range(3):
            assert await health_of(watched.monitor, refused.team.queue_status()) is None
            watched.advance(1)
        assert watched.said() == []
        await health_of(watched.monitor, refused.team.queue_status())
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", "key refused")
        assert fired.sentence.startswith("the service has refused the API key for 3 min: ")
        assert UNKNOWN_KEY not in fired.sentence

        watched.advance(5)
        await health_of(watched.monitor, refused.team.queue_status())
        assert lifecycle(watched.said()) == [("repeated", "key refused")]

        assert await health_of(watched.monitor, watched.client.team.queue_status()) is not None  # the key fixed
        assert lifecycle(watched.said()) == [("resolved", "key refused")]
        [(name, subject, state, _)] = await watched.journaled_alerts()
        assert (name, subject, state) == ("service_down", "key refused", "resolved")


async def test_webhook_unverified_fires_on_a_delivery_signed_with_another_secret_and_resolves_after_its_window(
    tmp_path: Path,
) -> None:
    rule = WebhookUnverifiedRule(count=1, window_minutes=30, repeat_minutes=10)
    async with watching(tmp_path, rule) as watched, Receiver() as receiver:
        # The account's HMAC secret is set in its settings, not by an API call: here it was rotated to a
        # new one, while the receiver still checks with the old.
        for team in watched.emulator.teams.values():
            team.webhook_secret = "whsec-rotated"
        webhook = {"url": receiver.url, "events": ["started"]}
        crawl_id = (await watched.client.crawl.start("https://acme-outdoor.com/", limit=2, webhook=webhook)).id
        await watched.emulator.webhooks.run_due()  # the emulator's delivery loop, one step (a served one runs it)
        [delivery] = receiver.received
        with pytest.raises(WebhookSignatureError):
            parse_event(delivery.body, delivery.headers, secret="whsec-old")
        event = parse_event(delivery.body, delivery.headers)  # read, not trusted
        watched.monitor.saw_webhook(event.type, verified=False, job_id=event.id)
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", "webhooks")
        assert fired.sentence == "1 unverified webhook delivery in the last 30 min (last: crawl.started at 12:00 UTC)"
        assert event.id == crawl_id

        watched.advance(10)
        watched.tick()
        assert lifecycle(watched.said()) == [("repeated", "webhooks")]
        watched.advance(20)
        watched.tick()
        assert lifecycle(watched.said()) == [("resolved", "webhooks")]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("webhook_unverified", "webhooks", "resolved", 1)
