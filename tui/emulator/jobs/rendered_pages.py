"""The documents of batch pages read lately, kept within a byte budget.

A batch keeps no documents (`BatchRun`): each is written again when read. A
dashboard polls the same status page every few seconds, and writing its 100
documents anew each time cost several times what reading kept ones did. So the
documents read last are kept, least recently read dropped first, up to
`budget` bytes of their text (their markdown, html and raw html, which are
nearly all of their size) for all batches together.
Safe to use from the worker threads that write status pages.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

BUDGET_BYTES = 16 * 1024 * 1024

Key = tuple[int, int]  # (the batch run's serial number, the page's index)


def text_size(document: dict[str, Any]) -> int:
    """About what `document` holds: the length of its text fields, and a little for the rest."""
    return 512 + sum(len(value) for value in document.values() if isinstance(value, str))


class RenderedPages:
    """Documents by (run, page), least recently read dropped first past `budget` bytes."""

    def __init__(self, budget: int = BUDGET_BYTES) -> None:
        self.budget = budget
        self._documents: OrderedDict[Key, tuple[dict[str, Any] | None, int]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Key, write: Callable[[], dict[str, Any] | None]) -> dict[str, Any] | None:
        """The document kept under `key`, or the one `write()` gives (then kept). Never change it."""
        with self._lock:
            found = self._documents.get(key)
            if found is not None:
                self._documents.move_to_end(key)
                return found[0]
        document = write()  # outside the lock: other threads read meanwhile
        size = text_size(document) if document is not None else 64
        with self._lock:
            if key not in self._documents:
                self._documents[key] = (document, size)
                self._size += size
            while self._size > self.budget and self._documents:
                _, (_, dropped) = self._documents.popitem(last=False)
                self._size -= dropped
        return document

    def __len__(self) -> int:
        return len(self._documents)
