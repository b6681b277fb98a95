"""JSON answers too big to encode in one go: a map of 100,000 links is 22 MB.

`json.dumps` runs in C and holds the GIL for the whole call (about 0.15 s for
such a map), so encoding it even in a worker thread would freeze the event
loop's thread meanwhile. `encode_json` encodes the one big list a slice at a
time: between slices the interpreter hands the GIL to whichever thread asks
(the loop), so other requests and the embedded dashboard keep being served.
The bytes are exactly those Starlette's `JSONResponse` writes.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response

# Items encoded per call: a few milliseconds of C at most, under the interpreter's 5 ms switch interval.
SLICE_ITEMS = 2000


def _dumps(value: Any) -> str:
    # Starlette's JSONResponse settings, so the answer does not depend on how it was encoded.
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))


def encode_json(payload: dict[str, Any], big_key: str) -> bytes:
    """`payload` encoded as `JSONResponse` would, its list under `big_key` a slice at a time.

    Meant for a worker thread (`tui.emulator.core.offload.off_loop`).
    """
    # Pieces of the body, joined once at the end: 22 MB are not copied slice by slice.
    pieces: list[bytes] = [b"{"]
    for index, (key, value) in enumerate(payload.items()):
        pieces.append(f"{',' if index else ''}{_dumps(key)}:".encode())
        if key == big_key and isinstance(value, list):
            # Each slice is a JSON array: its brackets dropped, the slices joined by commas.
            pieces.append(b"[")
            for start in range(0, len(value), SLICE_ITEMS):
                pieces.append((b"," if start else b"") + _dumps(value[start : start + SLICE_ITEMS])[1:-1].encode())
            pieces.append(b"]")
        else:
            pieces.append(_dumps(value).encode())
    pieces.append(b"}")
    return b"".join(pieces)


def json_body_response(body: bytes, status: int = 200) -> Response:
    """An already encoded JSON body as a response (the headers `JSONResponse` sends)."""
    return Response(body, status_code=status, media_type="application/json")
