"""Watching while nobody watches: alert rules, their delivery and the journal, with no Textual in sight."""
