"""Who may do what with a session: one secret per kind of access.

A session hands out three links, each with its own secret, so that sharing
one never grants more than it says:

- `liveViewUrl` carries the *view* secret: watch the page, nothing else;
- `interactiveLiveViewUrl` carries the *interact* secret: watch, click, scroll, type;
- `cdpUrl` carries the *cdp* secret: full control of the browser over CDP.

The interact secret also opens the view (its page needs screenshots); the
view secret opens nothing else, and the cdp secret opens only the CDP proxy.
"""

from __future__ import annotations

import enum
import hmac
import secrets
from dataclasses import dataclass

_SECRET_BYTES = 24


class Access(enum.StrEnum):
    """What a request wants to do with a session."""

    VIEW = "view"
    INTERACT = "interact"
    CDP = "cdp"


@dataclass(frozen=True)
class SessionSecrets:
    """The three secrets of one session."""

    view: str
    interact: str
    cdp: str

    @classmethod
    def new(cls) -> SessionSecrets:
        """Three fresh, independent random secrets."""
        return cls(*(secrets.token_urlsafe(_SECRET_BYTES) for _ in range(3)))

    def grants(self, token: str, access: Access) -> bool:
        """Whether `token` allows `access` (constant-time comparisons against each candidate)."""
        candidates = {
            Access.VIEW: (self.view, self.interact),
            Access.INTERACT: (self.interact,),
            Access.CDP: (self.cdp,),
        }[access]
        given = token.encode()
        # Compare against every candidate, so the time taken does not say which one matched.
        matches = [hmac.compare_digest(given, candidate.encode()) for candidate in candidates]
        return any(matches)
