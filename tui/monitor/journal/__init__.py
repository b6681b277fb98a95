"""The journal: what the dashboard and `watch` saw, kept in one SQLite file per context.

`Journal(journal_path(context))` opens (or creates, or repairs) the file and starts
its writer thread; `add` a record from `records`, `await flush()`, `await read(...)`
with a `HistoryQueries` method, `close()` at exit.
"""

from tui.monitor.journal.location import journal_dir, journal_path
from tui.monitor.journal.queries import AwaySummary, DayFailures, HistoryQueries, JournalAlert
from tui.monitor.journal.records import (
    ActivityRecord,
    AlertRecord,
    CrawlOrBatchRecord,
    CreditReading,
    DashboardSeen,
    QueueReading,
    Record,
    SessionRecord,
    UsageSnapshot,
    WatchStarted,
    WebhookEventRecord,
)
from tui.monitor.journal.retention import RetentionPolicy
from tui.monitor.journal.writer import Journal

__all__ = [
    "ActivityRecord",
    "AlertRecord",
    "AwaySummary",
    "CrawlOrBatchRecord",
    "CreditReading",
    "DashboardSeen",
    "DayFailures",
    "HistoryQueries",
    "Journal",
    "JournalAlert",
    "QueueReading",
    "Record",
    "RetentionPolicy",
    "SessionRecord",
    "UsageSnapshot",
    "WatchStarted",
    "WebhookEventRecord",
    "journal_dir",
    "journal_path",
]
