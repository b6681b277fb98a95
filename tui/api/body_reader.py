"""Reading an answer's body within a byte budget, so no answer can exhaust the client's memory.

httpx's own decoders inflate a whole network chunk at once: 64 KiB of a gzip
bomb become 64 MiB before anyone can count them. Here the body is read raw
and inflated with `max_length`, so at most the budget (plus one step) is ever
held, whatever the compression ratio. The budget counts decoded bytes.

The caps, in one place. Parsing JSON into Python objects costs up to about
25 times the text (31 MiB of `[{},{},...]` took 770 MiB), so each cap is as
small as the answers it covers allow:

* `map_answer_max_bytes(limit)`: a map lists at most the `limit` links it
  was asked for (5,000 when the request names none, 100,000 at most); each is
  budgeted at its longest, a 2,048-character URL (the sitemap protocol's
  limit) with 512 bytes for its title, description and JSON punctuation:
  2.5 KiB a link, 12.2 MiB for the default map, `MAP_ANSWER_MAX_BYTES` (244
  MiB) for the largest. A cap fixed at the largest let a default map's 0.5 MB
  deflate bomb hold 244 MiB before it fired, and a 200 MB one fit under it.
* `DOCUMENTS_ANSWER_MAX_BYTES`: answers that carry scraped pages (scrape,
  batch and crawl status, extract) or code output (execute, interact): the
  markdown, HTML and raw HTML of a page of documents fit in 32 MiB with room
  to spare.
* `ANSWER_MAX_BYTES`: every other answer (lists, activity, usage, support):
  the largest, a page of 100 activity entries, is some 30 KB; 4 MiB is over a
  hundred times that. These are what the dashboard polls for days.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import AsyncIterator, Iterator

import httpx

from tui.contract.limits import MAP_LIMIT_DEFAULT, MAP_LIMIT_MAX

MAP_LINK_MAX_BYTES = 2_048 + 512
MAP_ANSWER_MAX_BYTES = MAP_LIMIT_MAX * MAP_LINK_MAX_BYTES
DOCUMENTS_ANSWER_MAX_BYTES = 32 * 1024 * 1024
ANSWER_MAX_BYTES = 4 * 1024 * 1024

# Content encodings this client asks for (`Accept-Encoding`) and can inflate within a budget.
ACCEPTED_ENCODINGS = "gzip, deflate"
# Decoded bytes produced per inflate step: the most ever held beyond the budget.
_STEP_BYTES = 256 * 1024


def map_answer_max_bytes(limit: int | None) -> int:
    """The cap of a map's answer when `limit` links were asked for (None: the service's default)."""
    links = min(limit or MAP_LIMIT_DEFAULT, MAP_LIMIT_MAX)
    # a map of a few links is still an answer like any other: never below their cap
    return max(links * MAP_LINK_MAX_BYTES, ANSWER_MAX_BYTES)


class BodyTooLarge(Exception):
    """The decoded body would exceed `limit` bytes (`declared`: the Content-Length that said so, if any)."""

    def __init__(self, limit: int, declared: int | None = None) -> None:
        super().__init__(limit, declared)
        self.limit = limit
        self.declared = declared


class BodyDecodeError(Exception):
    """The body's content encoding is unknown or its compressed data is corrupt."""


class _Inflater:
    """One `zlib` stream (gzip or deflate) whose output is handed out in bounded steps."""

    def __init__(self, encoding: str) -> None:
        # deflate is zlib-wrapped by the standard, raw in some servers: try the standard first
        self._encoding = encoding
        self._raw_fallback = encoding == "deflate"
        self._zlib = zlib.decompressobj(zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS)
        self._started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Inflate `data`, in pieces of at most `_STEP_BYTES`: the caller stops when over its budget."""
        pending = data
        while pending and not self._zlib.eof:  # what follows the stream's end is not part of it
            try:
                piece = self._zlib.decompress(pending, _STEP_BYTES)
            except zlib.error as exc:
                if self._raw_fallback and not self._started:
                    self._raw_fallback = False
                    self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise BodyDecodeError(f"the {self._encoding} data is corrupt: {exc}") from None
            self._started = True
            pending = self._zlib.unconsumed_tail
            if piece:
                yield piece

    def finish(self) -> None:
        """Check the stream ended: a body cut short is corrupt, not a shorter answer.

        No `flush()` here: it inflates all that is left with no bound on its
        output. None is needed, since `feed` hands back `unconsumed_tail` until
        it is empty, and zlib holds no output back while input is left.
        """
        if not self._zlib.eof:
            raise BodyDecodeError(f"the {self._encoding} data ends before its stream does")


def _inflater(response: httpx.Response) -> _Inflater | None:
    """The inflater for the response's `Content-Encoding`; None when it is not encoded."""
    encodings = [part.strip().lower() for part in response.headers.get("content-encoding", "").split(",")]
    encodings = [name for name in encodings if name and name != "identity"]
    if not encodings:
        return None
    if len(encodings) == 1 and encodings[0] in ("gzip", "deflate"):
        return _Inflater(encodings[0])
    raise BodyDecodeError(f"content encoding {', '.join(encodings)!r} was not asked for ({ACCEPTED_ENCODINGS})")


def _declared_length(response: httpx.Response) -> int | None:
    try:
        return int(response.headers["content-length"])
    except (KeyError, ValueError):
        return None


async def read_body(response: httpx.Response, limit: int) -> bytes:
    """The decoded body of a streamed `response`, at most `limit` bytes.

    Raises `BodyTooLarge` as soon as the body is known to be longer (from its
    Content-Length when it is not compressed, else while reading), and
    `BodyDecodeError` for an encoding it cannot inflate. The response is left
    open; the caller closes it. The body is also set as the response's
    `content` (as httpx's own `aread()` does), so the response reads as usual.
    """
    if hasattr(response, "_content"):
        # made whole in memory already (a mock transport's answer): only the cap is left to check
        if len(response.content) > limit:
            raise BodyTooLarge(limit)
        return response.content
    inflater = _inflater(response)
    declared = _declared_length(response)
    if inflater is None and declared is not None and declared > limit:
        raise BodyTooLarge(limit, declared)
    # One buffer that grows in place: `getvalue()` hands it over without a copy,
    # where joining a list of pieces held the body twice at its end.
    body = io.BytesIO()
    encoded = False  # whether any encoded byte came (an empty body of a 204 is no stream to end)
    raw: AsyncIterator[bytes] = response.aiter_raw()
    async for chunk in raw:
        encoded = encoded or (inflater is not None and bool(chunk))
        for piece in (chunk,) if inflater is None else inflater.feed(chunk):
            if body.tell() + len(piece) > limit:
                raise BodyTooLarge(limit)
            body.write(piece)
    if inflater is not None and encoded:
        inflater.finish()
    content = body.getvalue()
    response._content = content  # what `aread()` sets; `.content`, `.text` and `.json()` read it
    return content
