"""The inbox of one dashboard run: its store, and its listener once started.

Started at launch when `--webhook-listen` (or the settings) names an address,
else on first opening of the inbox screen, on `DEFAULT_PORT` of the loopback,
or on any free port when that one is taken (the screen says which).
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import SecretStr

from tui.dashboard.features.inbox.job_events import JobEvents, Tell
from tui.dashboard.features.inbox.listener import DEFAULT_HOST, WebhookListener, is_loopback, parse_listen_address
from tui.dashboard.features.inbox.store import Change, Inbox

DEFAULT_PORT = 8099

TellDelivery = Callable[[str | None, bool, str | None], object]
"""Told of each delivery: its event type (None: unreadable), whether its signature held, the job it names."""


class InboxService:
    """The run's `Inbox` and its `WebhookListener` (None until started)."""

    def __init__(self, listen: str | None = None, secret: SecretStr | None = None) -> None:
        self.inbox = Inbox(secret)
        self.configured = listen
        self.listener: WebhookListener | None = None
        self.note: str | None = None  # what the last start said: a fallback port, or why it failed

    @property
    def address(self) -> str | None:
        """The URL to give the service as a webhook, while listening."""
        return self.listener.address if self.listener is not None else None

    @property
    def exposed(self) -> bool:
        """Whether the listener accepts connections from other machines."""
        return self.listener is not None and not is_loopback(self.listener.host)

    def watch_jobs(self, tell: Tell) -> Callable[[], None]:
        """Tell `tell` of the crawls and batches the inbox's events name (`JobEvents`); returns how to stop."""
        return self.inbox.subscribe(JobEvents(tell))

    def watch_deliveries(self, tell: TellDelivery) -> Callable[[], None]:
        """Tell `tell` (event type, signature held, job id) of each delivery stored; returns how to stop.

        Without a secret nothing is checked, and a delivery counts as verified: the
        operator chose to take events as they come (as `JobEvents` does).
        """

        def told(change: Change) -> None:
            delivery = change.row.latest
            event = delivery.event
            tell(event.type if event else None, delivery.verified is not False, event.id if event else None)

        return self.inbox.subscribe(told)

    async def start(self) -> str | None:
        """Listen (once); the address, or None with `note` saying why not."""
        if self.listener is not None:
            return self.listener.address
        if self.configured is not None:
            host, port = parse_listen_address(self.configured)
            return await self._try(host, port, fallback=False)
        return await self._try(DEFAULT_HOST, DEFAULT_PORT, fallback=True)

    async def _try(self, host: str, port: int, *, fallback: bool) -> str | None:
        listener = WebhookListener(self.inbox, host, port)
        try:
            address = await listener.start()
        except OSError as exc:
            if fallback:
                self.note = f"port {port} is taken ({exc.strerror}); listening on a free port instead"
                return await self._try(host, 0, fallback=False)
            self.note = f"cannot listen on {host}:{port}: {exc.strerror or exc}"
            return None
        self.listener = listener
        return address

    async def close(self) -> None:
        if self.listener is not None:
            await self.listener.close()
            self.listener = None
