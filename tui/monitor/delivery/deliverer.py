"""Sending one alert everywhere it should go outside: the command and each webhook, each in its own queue.

`DeliveryConfig` is a context's `[alerts.delivery]` table. The terminal's own
notification and bell are not here: the dashboard writes those
(`tui.monitor.delivery.terminal` builds the bytes), and they are never
"outside", so read-only mode does not touch them.

Read-only mode (a context's `read_only`, or `--read-only`) shows and fires
alerts but sends nothing outside, unless the context says
`send_when_read_only = true`: a read-only dashboard on a colleague's laptop
should not page the team a second time.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from tui.monitor.delivery.command import DEFAULT_OUTPUT_CAP, DEFAULT_TIMEOUT, CommandOutcome, run_command
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.delivery.outlet_queue import DEFAULT_QUEUE_SIZE, Outcome, OutcomeSink, OutletQueue
from tui.monitor.delivery.terminal import EscapeCode
from tui.monitor.delivery.webhook import WebhookForm, WebhookSender, masked_url

log = logging.getLogger(__name__)

RECENT_OUTCOMES = 50
"""Outcomes a deliverer remembers (for a status line); older ones are forgotten, so memory stays flat."""


class WebhookTarget(BaseModel):
    """One hook: its URL (a secret) and the form its receiver reads."""

    model_config = ConfigDict(extra="forbid")

    url: SecretStr
    form: WebhookForm = WebhookForm.JSON


class DeliveryConfig(BaseModel):
    """How a context's alerts leave the dashboard."""

    model_config = ConfigDict(extra="forbid")

    notification: EscapeCode = Field(EscapeCode.AUTO, description="The terminal's desktop notification")
    bell: bool = Field(True, description="Ring the terminal's bell when an alert fires")
    command: list[str] = Field(default_factory=list, description="A command run per alert, the alert as JSON on stdin")
    command_timeout: float = Field(DEFAULT_TIMEOUT, gt=0, le=300, description="Seconds the command may run")
    command_output_cap: int = Field(DEFAULT_OUTPUT_CAP, ge=0, description="Bytes of its stdout and stderr kept")
    webhooks: list[WebhookTarget] = Field(default_factory=list, description="Hooks each alert is posted to")
    queue_size: int = Field(DEFAULT_QUEUE_SIZE, ge=1, le=10_000, description="Alerts waiting per outlet at most")
    send_when_read_only: bool = Field(False, description="Send outside even in read-only mode")


@dataclass(frozen=True)
class Delivery:
    """What `Deliverer.deliver` did at once: the outlets a notice was queued for, or why it was held back."""

    queued: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    suppressed: str = ""


@dataclass(frozen=True)
class OutletReport:
    """One outcome, as an outlet reported it."""

    outlet: str
    notice: AlertNotice
    ok: bool
    message: str


@dataclass
class Deliverer:
    """Sends each notice to the configured command and webhooks, reporting every outcome to `on_outcome`."""

    config: DeliveryConfig
    client: httpx.AsyncClient
    read_only: bool = False
    on_outcome: OutcomeSink | None = None
    senders: list[WebhookSender] = field(init=False)
    queues: list[OutletQueue] = field(init=False)
    recent: deque[OutletReport] = field(init=False)

    def __post_init__(self) -> None:
        self.recent = deque(maxlen=RECENT_OUTCOMES)
        self.senders = [
            WebhookSender(self.client, hook.url.get_secret_value(), hook.form) for hook in self.config.webhooks
        ]
        self.queues = [
            OutletQueue(
                f"webhook {sender.shown_url}", sender.send, maxsize=self.config.queue_size, on_outcome=self._told
            )
            for sender in self.senders
        ]
        if self.config.command:
            self.queues.insert(
                0,
                OutletQueue(
                    self.command_name, self._run_command, maxsize=self.config.queue_size, on_outcome=self._told
                ),
            )

    @property
    def command_name(self) -> str:
        return f"command {self.config.command[0]}" if self.config.command else "command"

    @property
    def outlets(self) -> list[str]:
        return [queue.name for queue in self.queues]

    async def _run_command(self, notice: AlertNotice) -> CommandOutcome:
        return await run_command(
            self.config.command,
            (notice.to_json() + "\n").encode("utf-8"),
            timeout=self.config.command_timeout,
            output_cap=self.config.command_output_cap,
        )

    def _told(self, outlet: str, notice: AlertNotice, outcome: Outcome) -> None:
        self.recent.append(OutletReport(outlet, notice, outcome.ok, outcome.message))
        (log.info if outcome.ok else log.warning)("%s", outcome.message)
        if self.on_outcome is not None:
            self.on_outcome(outlet, notice, outcome)

    def deliver(self, notice: AlertNotice) -> Delivery:
        """Queue `notice` for every outlet and return at once; read-only mode holds it back unless allowed."""
        if not self.queues:
            return Delivery()
        if self.read_only and not self.config.send_when_read_only:
            reason = "read-only: alerts are not sent outside (send_when_read_only = true sends them)"
            log.info("%s %s: %s", notice.rule, notice.state, reason)
            return Delivery(suppressed=reason)
        dropped = tuple(queue.name for queue in self.queues if not queue.put(notice))
        return Delivery(queued=tuple(self.outlets), dropped=dropped)

    async def drain(self) -> None:
        """Wait until every queued notice has been sent or given up on (for `watch`'s clean exit, and tests)."""
        for queue in self.queues:
            await queue.drain()

    async def close(self) -> None:
        """Stop every outlet's background task."""
        for queue in self.queues:
            await queue.close()


def shown_hooks(config: DeliveryConfig) -> list[str]:
    """The configured hooks as anyone may see them (for the config listing): masked, with their form."""
    return [f"{masked_url(hook.url.get_secret_value())} ({hook.form})" for hook in config.webhooks]
