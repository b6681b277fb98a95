"""Masking of secrets for display: a key, or what may hold one in a URL, is never shown whole."""

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


def mask_url(url: str) -> str:
    """`url` for display, with what may hold a secret masked as a key is.

    That is its userinfo (`user:password@`), its query (`?key=...`) and its
    fragment: `https://…word@api.example.com/v2?…CRET`. The host and path are
    shown whole, since they are what tells one service from another. Never
    raises, whatever the text (it is shown in the message refusing it).
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    slash = rest.find("/")
    # the authority ends at the first slash; an `@` before it ends the userinfo,
    # even when a `?` or `#` typed in a password comes before the `@`
    at = rest.rfind("@", 0, len(rest) if slash < 0 else slash)
    userinfo = f"{mask_key(rest[:at])}@" if at >= 0 else ""
    rest = rest[at + 1 :]
    rest, hashed, fragment = rest.partition("#")  # first: a fragment may hold a `?`
    path, asked, query = rest.partition("?")
    shown = f"{scheme}{sep}{userinfo}{path}"
    if asked:
        shown += "?" + (mask_key(query) if query else "")
    if hashed:
        shown += "#" + (mask_key(fragment) if fragment else "")
    return shown
