"""A context's monitoring settings: its `[alerts]` and `[journal]` tables, read into typed values.

    [contexts.prod.alerts.job_failed]
    count = 5

    [contexts.prod.alerts.delivery]
    command = ["notify-send-wrapper"]
    webhooks = [{ url = "https://hooks.slack.com/services/...", form = "slack" }]

    [contexts.prod.journal]
    retention_days = 30
    max_megabytes = 100
    enabled = true

Nothing here raises on what a person wrote: a bad entry gives one warning line
and its default stays, as the rules' own parsing does (`tui.monitor.alerts.config`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from tui.contract.redact import mask_url
from tui.monitor.alerts.config import DEFAULT_RULES, describe_rules, parse_alert_rules
from tui.monitor.alerts.rules import Rule
from tui.monitor.delivery.deliverer import DeliveryConfig, shown_hooks
from tui.monitor.journal.location import journal_path
from tui.monitor.journal.retention import DEFAULT_RETENTION_DAYS, DEFAULT_SIZE_CAP_BYTES, RetentionPolicy

DELIVERY = "delivery"
"""The `[alerts]` sub-table that says where alerts go (not a rule kind)."""
MEGABYTE = 1024 * 1024
RETENTION_DAYS_RANGE = (1, 3650)
SIZE_CAP_MEGABYTES_RANGE = (1, 100_000)


@dataclass(frozen=True)
class MonitorSettings:
    """What one context monitors and keeps: its rules, where alerts go, and its journal's limits."""

    rules: tuple[Rule, ...] = DEFAULT_RULES
    delivery: DeliveryConfig = field(default_factory=DeliveryConfig)
    journal_enabled: bool = True
    retention: RetentionPolicy = field(default_factory=RetentionPolicy)

    def journal_file(self, context: str | None, directory: Path | None = None) -> Path | None:
        """The context's journal file (None when the journal is off); the unnamed context is `default`."""
        return journal_path(context or "default", directory) if self.journal_enabled else None

    def describe(self, context: str | None, directory: Path | None = None) -> str:
        """The rules, delivery and journal in words, for `wds-tui config` (hook URLs masked)."""
        rules = "\n".join(f"  {line}" for line in describe_rules(self.rules))
        delivery = self.delivery
        outlets = [f"the terminal's notification ({delivery.notification.value})"]
        if delivery.bell:
            outlets.append("the bell")
        if delivery.command:
            outlets.append(f"the command {delivery.command[0]} (≤{delivery.command_timeout:g} s)")
        outlets.extend(f"webhook {hook}" for hook in shown_hooks(delivery))
        outside = " (sent outside in read-only mode too)" if delivery.send_when_read_only else ""
        path = self.journal_file(context, directory)
        journal = (
            f"{path} · kept {self.retention.days:g} days, at most {self.retention.size_cap_bytes // MEGABYTE} MB"
            if path is not None
            else "off (enabled = false in [journal])"
        )
        return f"alert rules:\n{rules}\nalerts go to: {', '.join(outlets)}{outside}\njournal:  {journal}"


def read_monitor_settings(alerts: object, journal: object) -> tuple[MonitorSettings, list[str]]:
    """The settings the `[alerts]` and `[journal]` tables ask for (each may be missing: `None`), and warnings."""
    warnings: list[str] = []
    rules_table: object = {}
    delivery = DeliveryConfig()
    if alerts is not None:
        if isinstance(alerts, Mapping):
            rules_table = {key: value for key, value in alerts.items() if key != DELIVERY}
            delivery = _read_delivery(alerts.get(DELIVERY), warnings)
        else:
            rules_table = alerts  # parse_alert_rules says what is wrong with it
    rules, rule_warnings = parse_alert_rules(rules_table)
    warnings[:0] = rule_warnings
    enabled, retention = _read_journal(journal, warnings)
    return MonitorSettings(tuple(rules), delivery, enabled, retention), warnings


def _read_delivery(table: object, warnings: list[str]) -> DeliveryConfig:
    if table is None:
        return DeliveryConfig()
    try:
        return DeliveryConfig.model_validate(table)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "the table"
        # The input may hold a hook's URL (a secret): say where and what, never the value.
        warnings.append(f"[alerts.delivery] {where}: {problem['msg']}; alerts go to the terminal only")
        return DeliveryConfig()


def _read_journal(table: object, warnings: list[str]) -> tuple[bool, RetentionPolicy]:
    if table is None:
        return True, RetentionPolicy()
    if not isinstance(table, Mapping):
        warnings.append("[journal] must be a table; the defaults stay (kept 90 days, at most 200 MB)")
        return True, RetentionPolicy()
    for key in sorted(set(table) - {"enabled", "retention_days", "max_megabytes"}):
        warnings.append(f"[journal] has no setting {key!r} (enabled, retention_days, max_megabytes); skipped")
    enabled = table.get("enabled", True)
    if not isinstance(enabled, bool):
        warnings.append("[journal] enabled must be true or false; the journal stays on")
        enabled = True
    days = _number(table, "retention_days", DEFAULT_RETENTION_DAYS, RETENTION_DAYS_RANGE, warnings)
    megabytes = _number(table, "max_megabytes", DEFAULT_SIZE_CAP_BYTES // MEGABYTE, SIZE_CAP_MEGABYTES_RANGE, warnings)
    return enabled, RetentionPolicy(days=days, size_cap_bytes=int(megabytes * MEGABYTE))


def _number(
    table: Mapping[str, object], key: str, default: float, limits: tuple[float, float], warnings: list[str]
) -> float:
    value = table.get(key, default)
    low, high = limits
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        shown = mask_url(str(value))[:40]
        warnings.append(f"[journal] {key} must be a number from {low:g} to {high:g}, not {shown}; {default:g} stays")
        return default
    return float(value)
