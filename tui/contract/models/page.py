"""One page of a cursor-paged list, as the service sends it."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import model_validator

from tui.contract.models.common import WdsModel

ItemT = TypeVar("ItemT")


class CursorPage(WdsModel, Generic[ItemT]):
    """One page of a cursor-paged list: `data`, `cursor` and `has_more`."""

    success: bool = True
    data: list[ItemT]  # "Response: ... `data` array": always sent, so its absence is an error
    cursor: str | None = None
    has_more: bool = False

    @model_validator(mode="before")
    @classmethod
    def _has_more_from_cursor(cls, value: Any) -> Any:
        # Some deployments omit has_more; a cursor is then the only sign of more.
        if isinstance(value, dict) and "has_more" not in value and "hasMore" not in value:
            value = {**value, "has_more": bool(value.get("cursor"))}
        return value

    @property
    def entries(self) -> list[ItemT]:
        """The items of this page (the wire calls them `data`)."""
        return self.data

    @property
    def next_cursor(self) -> str | None:
        """The cursor to ask for the next page with, or None on the last page."""
        return self.cursor if self.has_more and self.cursor else None
