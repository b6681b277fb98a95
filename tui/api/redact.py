"""Masking of secrets for display: a key is never shown whole."""

from __future__ import annotations


def mask_key(key: str | None) -> str:
    """Show only the last four characters of a secret, as `…abcd`.

    Short secrets (four characters or fewer) are masked entirely, since their
    last four characters would be the whole secret.
    """
    if not key:
        return "(none)"
    if len(key) <= 4:
        return "…"
    return "…" + key[-4:]
