"""Textual's Footer, minus the memory it never gives back.

The footer rebuilds its keys whenever the bindings change (a pane gains or
loses "Next page", the cursor moves onto a row that can be opened ...). Each
key it builds is bound to the footer's `compact` reactive (`data_bind`), which
puts the key in the footer's watcher list; Textual drops a closed watcher only
when `compact` changes, which it never does. So every rebuild left its keys
alive, with their styles and message queues: ~40 MB an hour on a dashboard
with live traffic. This footer forgets the keys a rebuild removed.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer as TextualFooter


def forget_closed_watchers(node: Any) -> int:
    """Drop the watchers of `node`'s reactives that belong to closed widgets; how many."""
    dropped = 0
    for watchers in getattr(node, "__watchers", {}).values():
        kept = [(watcher, callback) for watcher, callback in watchers if not watcher._closing]
        dropped += len(watchers) - len(kept)
        watchers[:] = kept
    return dropped


class Footer(TextualFooter):
    """The key bar at the bottom; rebuilt as often as the bindings change, for days, in bounded memory."""

    async def recompose(self) -> None:
        await super().recompose()
        forget_closed_watchers(self)
