"""Monitoring without a screen: what `wds-tui watch` and the dashboard share.

Imports the contract and the client, never Textual, the dashboard or the emulator
(an import-linter contract in pyproject.toml), so a server with no terminal runs it.
"""
