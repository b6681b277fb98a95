"""Helpers that tests of more than one folder import.

Where a helper lives: a helper module imported by tests of more than one folder
(`tests/ui/`, `tests/emulator/`, the root's `tests/test_*.py`, ...) lives here; one
imported by a single folder's tests lives in that folder, beside them. A conftest.py
holds fixtures and hooks only, and no test imports from one
(tests/test_test_layout.py holds both rules).

- recording_backend: `RecordingBackend`, a browser backend that starts nothing and records what it was asked.
"""
