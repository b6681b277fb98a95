"""The JSON lines: one object a line, appended, control characters escaped, a lost line never raising."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

from tui.monitor.alerts.engine import Alert, AlertEvent
from tui.monitor.alerts.watching import Target
from tui.monitor.delivery.notice import AlertNotice
from tui.monitor.watch.event_log import EventLog

AT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def fired(sentence: str) -> tuple[AlertEvent, AlertNotice]:
    alert = Alert("job_failed", "job_failed", "example.com", sentence, Target("job", "j-1"), AT, AT)
    notice = AlertNotice("job_failed", "example.com", "fired", "t", sentence, "warning", AT, context="prod")
    return AlertEvent("fired", alert, AT), notice


def test_an_alert_is_one_line_with_context_rule_subject_sentence_and_target(tmp_path: Path) -> None:
    path = tmp_path / "watch.jsonl"
    path.write_text('{"event": "earlier"}\n')
    log = EventLog.to_file(path, clock=lambda: AT)
    log.alert(*fired("3 jobs failed (host example.com)"))
    log.write("stop", reason="SIGTERM")
    log.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"event": "earlier"}  # appended, not replaced
    alert = json.loads(lines[1])
    assert alert == {
        "at": AT.isoformat(),
        "event": "alert",
        "what": "fired",
        "context": "prod",
        "rule": "job_failed",
        "subject": "example.com",
        "sentence": "3 jobs failed (host example.com)",
        "severity": "warning",
        "target": {"kind": "job", "id": "j-1"},
        "fired_at": AT.isoformat(),
        "repeats": 0,
    }
    assert json.loads(lines[2])["event"] == "stop"


def test_the_services_words_reach_the_log_without_a_control_character() -> None:
    stream = io.StringIO()
    EventLog(stream).alert(*fired("failed: \x1b]0;owned\x07 host \u009b2J é"))
    text = stream.getvalue()
    assert "\x1b" not in text and "\u009b" not in text and "\x07" not in text
    assert json.loads(text)["sentence"] == "failed: \x1b]0;owned\x07 host \u009b2J é"


def test_a_line_that_cannot_be_written_is_remembered_not_raised() -> None:
    stream = io.StringIO()
    log = EventLog(stream)
    stream.close()
    log.write("start")
    assert log.problem is not None and log.lines == 0
