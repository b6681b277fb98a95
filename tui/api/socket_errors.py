"""What can go wrong following a crawl over the service's WebSocket (`client.crawl.watch`).

    APIError                         (tui.api.errors)
    └── SocketError
        ├── SocketNotOfferedError    no socket here: the upgrade was answered with an HTTP
        │                            status, refused, or not answered; poll instead
        ├── SocketRefusedError       the service closed it with a refusal (key, unknown crawl)
        ├── SocketDroppedError       the connection ended before the crawl did; try again
        └── SocketMessageError       a message that is not the service's (not JSON, wrong
                                     shape, longer than the cap)

Apart from `tui.api.errors` so that module stays one screen of the HTTP
errors; like it, this imports neither httpx nor websockets, and no message
holds the API key (the client masks it before a message is made).
"""

from __future__ import annotations

from tui.api.errors import APIError

__all__ = ["SocketDroppedError", "SocketError", "SocketMessageError", "SocketNotOfferedError", "SocketRefusedError"]


class SocketError(APIError):
    """Following a crawl over the WebSocket failed; polling `GET /v2/crawl/{id}` still may not."""

    title = "Live updates failed"


class SocketNotOfferedError(SocketError):
    """The service does not offer the WebSocket here: follow the crawl by polling instead.

    `status` is the HTTP status the upgrade was answered with (None when it
    was not answered: refused, timed out, or this client opens no sockets).
    """

    title = "No live updates here"

    def __init__(self, message: str, *, status: int | None = None, url: str = "") -> None:
        super().__init__(message, url=url)
        self.status = status


class SocketRefusedError(SocketError):
    """The service closed the socket with a refusal: `close_code`, and `status`, its HTTP meaning.

    3000 is 401 (the key), 3003 is 403 (another team's crawl), 1008 is 404
    (unknown or expired crawl), 1011 is 500; `status` is None for a refusal
    sent as a message. Polling would be refused the same way.
    """

    title = "Live updates refused"

    def __init__(self, message: str, *, close_code: int | None, status: int | None, url: str = "") -> None:
        super().__init__(message, url=url)
        self.close_code = close_code
        self.status = status


class SocketDroppedError(SocketError):
    """The connection ended before the crawl did (lost, reset, server going away): try again."""

    title = "Live updates lost"


class SocketMessageError(SocketError):
    """The service sent a message that cannot be read: not JSON, not of the shape, or too long."""

    title = "Unreadable live update"
